package io.barrierscope.app.timeline;

import java.nio.IntBuffer;
import java.util.Arrays;
import javafx.scene.image.PixelBuffer;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;

/**
 * The lanes area as an ARGB pixel array, filled with axis-aligned rectangles in plain Java and
 * drawn on the canvas as one image. At ~100 steps per pixel a frame has tens of thousands of state
 * runs and markers; as canvas calls each costs ~0.2 µs to record and far more to rasterise in
 * software, while here a frame costs about as much as its pixels. The array is the image's own
 * buffer ({@link PixelBuffer}), so nothing is copied or allocated per frame.
 */
final class LaneRaster {
    final int width;
    final int height;
    final int[] pixels;
    private final PixelBuffer<IntBuffer> buffer;
    final WritableImage image;

    LaneRaster(int width, int height) {
        this.width = width;
        this.height = height;
        IntBuffer b = IntBuffer.allocate(Math.max(1, width * height));
        this.pixels = b.array();
        this.buffer = new PixelBuffer<>(Math.max(1, width), Math.max(1, height), b, PixelFormat.getIntArgbPreInstance());
        this.image = new WritableImage(buffer);
    }

    /** Runs {@code paint} (which fills the pixels) the way JavaFX wants image buffers changed: inside updateBuffer, on the FX thread. */
    void paint(Runnable paint) {
        buffer.updateBuffer(b -> {
            paint.run();
            return null;
        });
    }

    void clear(int argb) { Arrays.fill(pixels, argb); }

    /** Fills [x, x + w) x [y, y + h), clipped to the raster. */
    void fill(int x, int y, int w, int h, int argb) {
        int x0 = Math.max(0, x);
        int x1 = Math.min(width, x + w);
        int y0 = Math.max(0, y);
        int y1 = Math.min(height, y + h);
        if (x0 >= x1) return;
        for (int r = y0; r < y1; r++) {
            int o = r * width;
            if (x1 - x0 == 1) pixels[o + x0] = argb;
            else Arrays.fill(pixels, o + x0, o + x1, argb);
        }
    }

    static int argb(Color c) {
        return (int) Math.round(c.getOpacity() * 255) << 24 | (int) Math.round(c.getRed() * 255) << 16
                | (int) Math.round(c.getGreen() * 255) << 8 | (int) Math.round(c.getBlue() * 255);
    }
}
