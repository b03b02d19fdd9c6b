package io.barrierscope.app.timeline;

import io.barrierscope.trace.WarpState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;

/**
 * The timeline as SVG: the visible range of a {@link TimelineViewModel} drawn at a given size, laid
 * out as {@link TimelineView} lays out the canvas (labels on the left, the ruler on top, one row
 * per lane or collapsed group from the first visible row, as many as fit, the legend at the
 * bottom). Per row a {@code <g class="lane">} holds its label and one {@code <rect class="state">}
 * per run of columns of equal state (the same per-pixel-column summaries the canvas draws, so the
 * runs' widths sum to the lanes area's width; columns with nothing known are {@code state="none"}),
 * then its marker ticks; completion lines follow in their own group. The text depends only on the
 * model and the view model's state: two exports of the same view are byte-identical.
 *
 * <p>No JavaFX scene classes: this runs anywhere the model does. Files are written atomically.
 */
public final class TimelineExport {
    /** Marker placement per kind, shared with the other renderer (computed once: drawing allocates nothing). */
    private static final int[][] MARKER_BOXES = TimelineStyle.markerBoxes((int) TimelineView.ROW_H);


    private final TimelineViewModel vm;
    private final TimelineModel model;
    private final int width;
    private final int height;
    private final int lanesWidth;
    private final StringBuilder out = new StringBuilder(1 << 16);

    private TimelineExport(TimelineViewModel vm, int width, int height) {
        if (width <= TimelineView.LABEL_W || height <= TimelineView.TOP + TimelineView.LEGEND_H) {
            throw new IllegalArgumentException("too small to draw the timeline: " + width + "x" + height);
        }
        this.vm = vm;
        this.model = vm.model();
        this.width = width;
        this.height = height;
        this.lanesWidth = width - (int) TimelineView.LABEL_W;
    }

    /** The SVG text of the visible range at {@code width} x {@code height} pixels. */
    public static String svg(TimelineViewModel vm, int width, int height) {
        return new TimelineExport(vm, width, height).build();
    }

    /** Writes {@link #svg} to {@code file} (UTF-8), atomically. */
    public static void writeSvg(TimelineViewModel vm, int width, int height, Path file) throws IOException {
        byte[] bytes = svg(vm, width, height).getBytes(StandardCharsets.UTF_8);
        writeAtomically(file, o -> o.write(bytes));
    }

    /** Something that writes a file's content. */
    public interface Content {
        void write(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code file} through a temporary file beside it, renamed over it once complete, so a
     * reader never sees half a file and a failure leaves any old file as it was.
     */
    public static void writeAtomically(Path file, Content content) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
        try {
            try (OutputStream o = Files.newOutputStream(tmp)) {
                content.write(o);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    // ---- building ----

    private String build() {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        rect("background", 0, 0, width, height, TimelineStyle.BACKGROUND);
        rect("labels", 0, 0, TimelineView.LABEL_W, height, TimelineStyle.LABEL_BACKGROUND);
        ruler();
        TimelineColumns cols = new TimelineColumns(lanesWidth);
        vm.bounds(cols);
        List<TimelineViewModel.Row> rows = vm.rowsProperty().get();
        int first = Math.max(0, Math.min(vm.firstRowProperty().get(), rows.size()));
        int fit = (int) Math.floor((height - TimelineView.TOP - TimelineView.LEGEND_H) / TimelineView.ROW_H);
        int last = Math.min(rows.size(), first + Math.max(0, fit));
        out.append("<g class=\"lanes\">\n");
        for (int r = first; r < last; r++) lane(rows.get(r), rowY(r, first), cols);
        out.append("</g>\n");
        completions(cols, first, last);
        legend();
        out.append("</svg>\n");
        return out.toString();
    }

    private static double rowY(int r, int first) { return TimelineView.TOP + (r - first) * TimelineView.ROW_H; }

    private void lane(TimelineViewModel.Row row, double y, TimelineColumns cols) {
        out.append("<g class=\"lane\" data-lanes=\"").append(row.laneFrom()).append('-').append(row.laneTo() - 1)
                .append("\" data-label=\"").append(escape(row.label())).append("\">\n");
        if (vm.highlighted(row)) rect("highlight", 0, y, TimelineView.LABEL_W, TimelineView.ROW_H, TimelineStyle.HIGHLIGHT);
        text(4, y + TimelineView.ROW_H / 2, row.group() ? TimelineStyle.GROUP_LABEL : TimelineStyle.TEXT, row.label(), "start");
        model.row(row.laneFrom(), row.laneTo(), cols);
        int[] st = cols.states;
        double x0 = TimelineView.LABEL_W;
        double ry = y + 3;
        double rh = TimelineView.ROW_H - 6;
        int c = 0;
        while (c < cols.width) {
            int s = TimelineStyle.SEVEREST[st[c]];
            int e = c + 1;
            while (e < cols.width && TimelineStyle.SEVEREST[st[e]] == s) e++;
            out.append("<rect class=\"state\" state=\"").append(s < 0 ? "none" : WarpState.of(s).name().toLowerCase(Locale.ROOT))
                    .append("\" x=\"").append(num(x0 + c)).append("\" y=\"").append(num(ry))
                    .append("\" width=\"").append(e - c).append("\" height=\"").append(num(rh))
                    .append("\" fill=\"").append(s < 0 ? TimelineStyle.BACKGROUND : TimelineStyle.STATE[s]).append("\"/>\n");
            c = e;
        }
        markers(cols, y);
        out.append("</g>\n");
    }

    private void markers(TimelineColumns cols, double y) {
        int rh = (int) TimelineView.ROW_H;
        for (int k = 0; k < MarkerKind.COUNT; k++) {
            int[] m = cols.markers[k];
            int[] box = MARKER_BOXES[k];
            double top = y + box[0];
            int h = box[1];
            int minW = box[2];
            boolean any = false;
            for (int c = 0; c < cols.width && !any; c++) any = m[c] != 0;
            if (!any) continue;
            if (TimelineStyle.dense(m, cols.width)) h = Math.min(h, 2);
            String kind = MarkerKind.of(k).name().toLowerCase(Locale.ROOT);
            int c = 0;
            while (c < cols.width) {
                if (m[c] == 0) {
                    c++;
                    continue;
                }
                int e = c + 1;
                while (e < cols.width && m[e] != 0) e++;
                int w = Math.min(Math.max(minW, e - c), cols.width - c);
                out.append("<rect class=\"marker\" kind=\"").append(kind).append("\" x=\"").append(num(TimelineView.LABEL_W + c))
                        .append("\" y=\"").append(num(top)).append("\" width=\"").append(w).append("\" height=\"").append(h)
                        .append("\" fill=\"").append(TimelineStyle.MARKER[k]).append("\"/>\n");
                c = e;
            }
        }
    }

    private void completions(TimelineColumns cols, int first, int last) {
        out.append("<g class=\"completions\" stroke=\"").append(TimelineStyle.COMPLETION).append("\" stroke-width=\"1\">\n");
        model.completionColumns(cols);
        double bottom = rowY(last, first);
        boolean dense = TimelineStyle.dense(cols.completions, cols.width);
        for (int c = 0; c < cols.width; c++) {
            if (cols.completions[c] == 0) continue;
            int r0 = vm.rowOfLane(cols.completionLo[c]);
            int r1 = vm.rowOfLane(cols.completionHi[c]);
            if (r1 < first || r0 >= last) continue;
            double y0 = Math.max(TimelineView.TOP, rowY(r0, first) + 1);
            double y1 = Math.min(bottom, rowY(r1 + 1, first) - 1);
            double x = TimelineView.LABEL_W + c + 0.5;
            out.append("<line x1=\"").append(num(x)).append("\" y1=\"").append(num(y0)).append("\" x2=\"").append(num(x))
                    .append("\" y2=\"").append(num(dense ? y0 + 3 : Math.max(y0 + 2, y1))).append("\" count=\"")
                    .append(cols.completions[c]).append("\"/>\n");
        }
        out.append("</g>\n");
    }

    private void ruler() {
        out.append("<g class=\"ruler\">\n");
        double start = vm.getStart();
        double end = vm.getEnd();
        double span = Math.max(1e-9, end - start);
        double spacing = tickSpacing(span / lanesWidth, 90);
        double first = Math.ceil(start / spacing) * spacing;
        double ry = TimelineView.RULER_H;
        text(4, ry / 2, TimelineStyle.TEXT, vm.axisProperty().get() == TimelineViewModel.Axis.CYCLES ? "cycles" : "warp steps", "start");
        for (double v = first; v <= end; v += spacing) {
            double x = TimelineView.LABEL_W + Math.floor((v - start) / span * lanesWidth);
            if (x >= width) break;
            rect("tick", x, ry - 6, 1, 6, TimelineStyle.TEXT);
            if (x < width - 40) text(x + 3, ry / 2 - 1, TimelineStyle.TEXT, String.format(Locale.ROOT, "%,d", (long) v), "start");
        }
        out.append("</g>\n");
    }

    /** A round tick spacing (1, 2 or 5 times a power of ten) at least {@code minPixels} apart. */
    static double tickSpacing(double perPixel, double minPixels) {
        double raw = Math.max(1, perPixel * minPixels);
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) if (m * p >= raw) return m * p;
        return 10 * p;
    }

    private void legend() {
        double y = height - TimelineView.LEGEND_H;
        out.append("<g class=\"legend\">\n");
        rect("legend", 0, y, width, TimelineView.LEGEND_H, TimelineStyle.LABEL_BACKGROUND);
        double x = 4;
        for (WarpState s : TimelineStyle.SEVERITY) {
            if (s == WarpState.BLOCKED) continue;
            x = swatch(x, y, TimelineStyle.STATE[s.ordinal()], 10, s.label());
        }
        x = swatch(x, y, TimelineStyle.COMPLETION, 2, "completion");
        x = swatch(x, y, TimelineStyle.MARKER[MarkerKind.BAR_ARRIVE.ordinal()], 2, "arrive");
        x = swatch(x, y, TimelineStyle.MARKER[MarkerKind.EXPECT_TX.ordinal()], 2, "tx");
        x = swatch(x, y, TimelineStyle.MARKER[MarkerKind.WAIT_FALSE.ordinal()], 2, "wait false");
        x = swatch(x, y, TimelineStyle.MARKER[MarkerKind.DIAGNOSTIC.ordinal()], 3, "diagnostic");
        if (model.hasDeviations()) swatch(x, y, TimelineStyle.MARKER[MarkerKind.DEVIATION.ordinal()], 4, "off default");
        out.append("</g>\n");
    }

    private double swatch(double x, double y, String colour, double sw, String label) {
        rect("swatch", x, y + 5, sw, 10, colour);
        text(x + sw + 3, y + TimelineView.LEGEND_H / 2, TimelineStyle.TEXT, label, "start");
        return x + sw + 9 + label.length() * 5.6;
    }

    // ---- elements ----

    private void rect(String cls, double x, double y, double w, double h, String fill) {
        out.append("<rect class=\"").append(cls).append("\" x=\"").append(num(x)).append("\" y=\"").append(num(y))
                .append("\" width=\"").append(num(w)).append("\" height=\"").append(num(h))
                .append("\" fill=\"").append(fill).append("\"/>\n");
    }

    private void text(double x, double y, String fill, String s, String anchor) {
        out.append("<text x=\"").append(num(x)).append("\" y=\"").append(num(y))
                .append("\" dominant-baseline=\"central\" text-anchor=\"").append(anchor)
                .append("\" fill=\"").append(fill).append("\">").append(escape(s)).append("</text>\n");
    }

    /** A coordinate: an integer when whole, else up to two decimals (locale-independent). */
    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        String s = String.format(Locale.ROOT, "%.2f", v);
        while (s.endsWith("0")) s = s.substring(0, s.length() - 1);
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** XML-escapes text and attribute values; drops characters XML 1.0 cannot hold. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') b.append(c);
                }
            }
        }
        return b.toString();
    }
}
