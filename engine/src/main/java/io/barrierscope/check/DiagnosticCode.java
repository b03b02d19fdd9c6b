package io.barrierscope.check;

/**
 * The stable diagnostic codes (semantics.md section 10). Codes are part of the report contract:
 * never rename one.
 */
public enum DiagnosticCode {
    BARRIER_DIVERGENCE("barrier-divergence", "aligned CTA barrier reached through different instructions"),
    BARRIER_MIXED_RED("barrier-mixed-red", "bar.red mixed with bar.sync/bar.arrive on one active barrier"),
    BARRIER_OVER_ARRIVAL("barrier-over-arrival", "a warp arrived twice on one barrier generation"),
    BARRIER_COUNT_MISMATCH("barrier-count-mismatch", "arrivals on one barrier generation disagree on the thread count"),
    BARRIER_BAD_COUNT("barrier-bad-count", "barrier thread count not a non-zero multiple of 32"),
    BARRIER_BAD_ID("barrier-bad-id", "barrier id outside 0..15"),
    BARRIER_COUNT_TOO_SMALL("barrier-count-too-small", "more warps arrived than the barrier's thread count allows"),
    WARP_SYNC_NOT_MEMBER("warp-sync-not-member", "executing thread not in the membermask"),
    WARP_SYNC_EXITED_MEMBER("warp-sync-exited-member", "membermask names a thread that has exited"),
    WARP_SYNC_MISMATCH("warp-sync-mismatch", "members of one mask met at different kinds of warp instruction"),
    SHFL_INACTIVE_SOURCE("shfl-inactive-source", "shfl.sync read from a lane outside the membermask"),
    MEMORY_FAULT("memory-fault", "out-of-bounds or unmapped address"),
    MISALIGNED_ACCESS("misaligned-access", "address not aligned to the access size"),
    TRAP("trap", "trap executed"),
    ASSERT_FAILED("assert-failed", "device assert failed"),
    DIVIDE_BY_ZERO("divide-by-zero", "integer division by zero"),
    CALL_DEPTH("call-depth", "call stack too deep"),
    BREAKPOINT("brkpt", "brkpt executed");

    private final String code;
    private final String summary;

    DiagnosticCode(String code, String summary) {
        this.code = code;
        this.summary = summary;
    }

    /** The kebab-case code used in reports and expect blocks. */
    public String code() { return code; }
    public String summary() { return summary; }

    public static DiagnosticCode byCode(String code) {
        for (DiagnosticCode c : values()) {
            if (c.code.equals(code)) return c;
        }
        return null;
    }
}
