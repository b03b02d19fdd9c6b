package io.barrierscope.app.session;

/**
 * One valid mbarrier object, copied out of the engine so the FX thread never reads live machine
 * state. {@code name} is the engine's, e.g. {@code "full+8 (shared 0x18)"}; {@code pending} and
 * {@code expected} count arrivals (threads) of the current phase; {@code tx} is the signed
 * tx-count: positive while bytes are still to come, negative when more came than were expected.
 * {@code txExpected} and {@code txCompleted} are the bytes expect-tx'd and complete-tx'd so far
 * in the current phase (the engine resets both when a phase completes, and a phase completes
 * only at tx-count 0, so {@code tx == txExpected - txCompleted}).
 * {@code stuck}: the run ended in deadlock with threads waiting on this object.
 */
public record MbarrierRow(int cta, String ctaName, int offset, String name, long phase, int pending,
                          int expected, long tx, long txExpected, long txCompleted, boolean stuck) implements PanelRow {

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

    /** Whether the current phase has seen transaction bytes (then the pane shows a bytes gauge). */
    public boolean hasTx() { return txExpected != 0 || txCompleted != 0; }

    /** Completed share of the expected bytes in 0..1 (1 when bytes came before any were expected). */
    public double txFraction() {
        if (txExpected <= 0) return txCompleted > 0 ? 1 : 0;
        return Math.min(1.0, (double) txCompleted / txExpected);
    }

    /**
     * The tx-count against the bytes expected this phase, e.g. {@code "tx +512 of 1024 bytes"}
     * (512 still to come), {@code "tx -16 of 1024 bytes (16 more than expected)"} (a complete-tx
     * may come before its expect-tx), or {@code "tx 0"} without transactions this phase.
     */
    @Override
    public String detail() {
        if (!hasTx()) return "tx " + tx;
        String of = " of " + txExpected + " bytes";
        return tx >= 0 ? "tx +" + tx + of : "tx " + tx + of + " (" + -tx + " more than expected)";
    }
}
