package io.barrierscope.app.timeline;

import javafx.scene.paint.Color;

/**
 * Draws the asynchronous work of a row into the lanes raster ({@link AsyncSpans}): a thin band at
 * the bottom of the lane while copies are in flight (loads into shared memory in one colour,
 * stores out of it, such as TMA tensor stores, in another) and a band at the top while wgmma
 * operations are in flight (issued and not yet committed, then committed and waiting for the
 * wait_group that retires them). Adjacent columns with the same flag are one rectangle, as the
 * states are.
 */
final class AsyncLanePainter {
    static final Color LOAD = Color.web("#2e86c1");
    static final Color STORE = Color.web("#ca6f1e");
    static final Color WGMMA_OPEN = Color.web("#a569bd");
    static final Color WGMMA_COMMITTED = Color.web("#6c3483");
    private static final int LOAD_ARGB = LaneRaster.argb(LOAD);
    private static final int STORE_ARGB = LaneRaster.argb(STORE);
    private static final int OPEN_ARGB = LaneRaster.argb(WGMMA_OPEN);
    private static final int COMMITTED_ARGB = LaneRaster.argb(WGMMA_COMMITTED);

    private int[] flags = new int[0];
    /** Whether the last frame drew anything (the legend lists the bands then). */
    private boolean any;

    /** Draws row [laneFrom, laneTo) whose top is {@code y} in the raster, over columns {@code cols} (bounds set). */
    void draw(LaneRaster raster, TimelineModel model, TimelineColumns cols, int laneFrom, int laneTo, int y, int rowH) {
        if (flags.length < cols.width) flags = new int[cols.width];
        model.asyncColumns(laneFrom, laneTo, cols, flags);
        int band = Math.max(3, rowH / 5);
        runs(raster, cols.width, AsyncSpans.LOAD, y + rowH - 1 - band, band, LOAD_ARGB);
        runs(raster, cols.width, AsyncSpans.STORE, y + rowH - 1 - band, band, STORE_ARGB);
        runs(raster, cols.width, AsyncSpans.WGMMA_OPEN, y + 1, band, OPEN_ARGB);
        runs(raster, cols.width, AsyncSpans.WGMMA_COMMITTED, y + 1, band, COMMITTED_ARGB);
    }

    /** Draws the legend's swatches from {@code x} with {@code swatch} (colour, label at x -> the x after it). */
    static double legend(Swatch swatch, double x) {
        x = swatch.at(LOAD, "copy in", x);
        x = swatch.at(STORE, "copy out", x);
        x = swatch.at(WGMMA_OPEN, "wgmma issued", x);
        return swatch.at(WGMMA_COMMITTED, "committed", x);
    }

    /** One legend entry. */
    interface Swatch {
        double at(Color c, String label, double x);
    }

    /** Resets {@link #drewAny()} before a frame. */
    void beginFrame() { any = false; }

    boolean drewAny() { return any; }

    private void runs(LaneRaster raster, int width, int flag, int y, int h, int argb) {
        int c = 0;
        while (c < width) {
            if ((flags[c] & flag) == 0) {
                c++;
                continue;
            }
            int e = c + 1;
            while (e < width && (flags[e] & flag) != 0) e++;
            raster.fill(c, y, e - c, h, argb);
            any = true;
            c = e;
        }
    }
}
