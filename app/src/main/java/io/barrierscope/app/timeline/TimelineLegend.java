package io.barrierscope.app.timeline;

import io.barrierscope.trace.WarpState;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.TextAlignment;

/**
 * The legend under the timeline's lanes: a swatch for each warp state, the completion and marker
 * kinds, the asynchronous spans when the timeline drew any, and "off default" when a schedule
 * deviated. Drawn on the timeline's canvas at its scale and in its theme's colours.
 */
final class TimelineLegend {
    private TimelineLegend() {}

    /** Draws the legend in the band from {@code y} down, {@code height} high and {@code w} wide. */
    static void draw(GraphicsContext g, double w, double y, double height, double scale, Color background, Color text,
                     boolean async, boolean deviations) {
        g.setFill(background);
        g.fillRect(0, y, w, height);
        Swatches s = new Swatches(g, y, height, scale, text);
        double x = 4;
        g.setTextAlign(TextAlignment.LEFT);
        for (WarpState st : TimelinePalette.SEVERITY) {
            if (st == WarpState.BLOCKED) continue;
            x = s.at(x, TimelinePalette.STATE[st.ordinal()], 10, st.label());
        }
        x = s.at(x, TimelinePalette.COMPLETION, 2, "completion");
        x = s.at(x, TimelinePalette.MARKER[MarkerKind.BAR_ARRIVE.ordinal()], 2, "arrive");
        x = s.at(x, TimelinePalette.MARKER[MarkerKind.EXPECT_TX.ordinal()], 2, "tx");
        x = s.at(x, TimelinePalette.MARKER[MarkerKind.WAIT_FALSE.ordinal()], 2, "wait false");
        x = s.at(x, TimelinePalette.MARKER[MarkerKind.DIAGNOSTIC.ordinal()], 3, "diagnostic");
        if (async) x = AsyncLanePainter.legend((c, l, at) -> s.at(at, c, 6, l), x);
        if (deviations) s.at(x, TimelinePalette.MARKER[MarkerKind.DEVIATION.ordinal()], 4, "off default");
    }

    /** One swatch and its label at x; returns the x of the next one. */
    private record Swatches(GraphicsContext g, double y, double height, double scale, Color text) {
        double at(double x, Color c, double sw, String label) {
            g.setFill(c);
            g.fillRect(x, y + 5 * scale, sw * scale, 10 * scale);
            g.setFill(text);
            g.fillText(label, x + (sw + 3) * scale, y + height / 2);
            return x + (sw + 9 + label.length() * 5.6) * scale;
        }
    }
}
