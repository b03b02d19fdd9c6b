package io.barrierscope.app.session;

/**
 * One valid mbarrier object, copied out of the engine so the FX thread never reads live machine
 * state. {@code name} is the engine's, e.g. {@code "full+8 (shared 0x18)"}; {@code pending} and
 * {@code expected} count arrivals (threads) of the current phase; {@code tx} is the signed
 * tx-count: positive while bytes are still to come, negative when more came than were expected.
 * {@code stuck}: the run ended in deadlock with threads waiting on this object.
 */
public record MbarrierRow(int cta, String ctaName, int offset, String name, long phase, int pending,
                          int expected, long tx, boolean stuck) implements PanelRow {

    public int parity() { return (int) (phase & 1); }

    @Override public String kind() { return "mbarrier"; }
    @Override public String label() { return name; }
    @Override public String phaseText() { return phase + " (parity " + parity() + ")"; }

    /** Arrived share of the expected arrivals, in 0..1. */
    @Override
    public double fraction() {
        return expected <= 0 ? 0 : Math.max(0, Math.min(1.0, (double) (expected - pending) / expected));
    }

    /** E.g. {@code "1 of 129 pending"}. */
    @Override public String gaugeText() { return pending + " of " + expected + " pending"; }

    /** E.g. {@code "tx +64: 64 bytes outstanding"}, {@code "tx -16: 16 bytes over-delivered"}, {@code "tx 0"}. */
    @Override
    public String detail() {
        if (tx > 0) return "tx +" + tx + ": " + tx + " bytes outstanding";
        if (tx < 0) return "tx " + tx + ": " + -tx + " bytes over-delivered";
        return "tx 0";
    }
}
