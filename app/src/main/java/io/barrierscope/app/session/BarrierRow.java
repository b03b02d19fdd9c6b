package io.barrierscope.app.session;

/**
 * One CTA barrier in use, copied out of the engine so the FX thread never reads live machine
 * state. {@code arrived} and {@code expected} count warps; {@code arrivedWarps} names them
 * (warp numbers within the CTA, ranges joined), e.g. {@code "w0–1 w3"}; {@code missingWarps}
 * names the live warps that have not arrived while a generation is open, e.g. {@code "w2"}, or
 * with a thread count how many of them are still needed, e.g. {@code "1 of w2–3"} ("" when idle).
 * {@code stuck}: the run ended in deadlock with warps still waiting here.
 */
public record BarrierRow(int cta, String ctaName, int id, long generation, int arrived, int expected,
                         String arrivedWarps, String missingWarps, boolean stuck) implements PanelRow {

    /** Whether a generation is open (some warp arrived and waits for the rest). */
    public boolean waiting() { return arrived > 0; }

    /** Arrived share in 0..1, for a gauge. */
    @Override
    public double fraction() { return expected <= 0 ? 0 : Math.min(1.0, (double) arrived / expected); }

    /** E.g. {@code "3/4 warps"}. */
    public String arrivedText() { return arrived + "/" + expected + " warps"; }

    @Override public String kind() { return "bar"; }
    @Override public String label() { return "bar " + id; }
    @Override public String phaseText() { return "gen " + generation; }
    @Override public String gaugeText() { return waiting() ? arrivedText() : "idle (0/" + expected + ")"; }

    /**
     * E.g. {@code "missing: w2 · arrived: w0–1 w3"}: who is not there and who is, without
     * selecting the row; the missing first, as they are what a stuck barrier waits for and what a
     * narrow column should still show.
     */
    @Override
    public String detail() {
        if (missingWarps.isEmpty()) return arrivedWarps.isEmpty() ? "" : "arrived: " + arrivedWarps;
        return "missing: " + missingWarps + " · arrived: " + arrivedWarps;
    }
}
