package io.barrierscope.app.timeline;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.transform.Transform;
import javax.imageio.ImageIO;

/**
 * The timeline as PNG: a snapshot of the {@link TimelineView} as shown (cursor and selection
 * included), scaled to the size asked, converted pixel by pixel to a {@link BufferedImage} (no
 * javafx-swing) and written with ImageIO, atomically. FX thread only.
 */
public final class TimelinePng {
    private TimelinePng() {}

    /** The view's snapshot at {@code width} x {@code height} pixels. */
    public static WritableImage snapshot(TimelineView view, int width, int height) {
        if (width <= 0 || height <= 0) throw new IllegalArgumentException("empty image: " + width + "x" + height);
        view.applyCss();
        view.layout();
        view.drawContent(); // up to date now, not at the next pulse
        view.drawOverlay();
        double vw = Math.max(1, view.getWidth());
        double vh = Math.max(1, view.getHeight());
        SnapshotParameters p = new SnapshotParameters();
        p.setFill(TimelinePalette.BACKGROUND);
        p.setTransform(Transform.scale(width / vw, height / vh));
        return view.snapshot(p, new WritableImage(width, height));
    }

    /** The image's pixels as an ARGB {@link BufferedImage}. */
    public static BufferedImage toBufferedImage(WritableImage img) {
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        int[] argb = new int[w * h];
        img.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        out.setRGB(0, 0, w, h, argb, 0, w);
        return out;
    }

    /** Writes the view's snapshot at the size asked to {@code file} as PNG. */
    public static void write(TimelineView view, int width, int height, Path file) throws IOException {
        BufferedImage img = toBufferedImage(snapshot(view, width, height));
        TimelineExport.writeAtomically(file, o -> {
            if (!ImageIO.write(img, "png", o)) throw new IOException("no PNG writer");
        });
    }
}
