package io.barrierscope.check;

/**
 * What the race detector holds besides its shadow and read sets, counted before a launch runs
 * (launch/MemoryEstimate; docs/reliability.md, "Memory is counted before it is spent").
 */
public final class RaceMemory {
    private RaceMemory() {}

    /**
     * Heap bytes of each thread's fixed state: the clocks of the thread and its three agents (16),
     * its base, fence and pending-acquire references (24), the scoped state's per-thread arrays
     * ({@code ScopedSync.BYTES_PER_THREAD}) and the proxy fences' three per-thread arrays (20).
     */
    public static final long BYTES_PER_THREAD = 16 + 24 + ScopedSync.BYTES_PER_THREAD + 20;
    /**
     * Heap bytes of the detector's state besides its shadow and read sets (counted by
     * launch/MemoryEstimate), for {@code ctas} CTAs of {@code slotsPerCta} thread slots (whole
     * warps). A vector clock has a reference per id chunk ({@code 4 * ctas} chunks, one per CTA
     * and agent kind) and chunks of {@code slotsPerCta} ints, shared between clocks by reference.
     * Per thread: {@link #BYTES_PER_THREAD}. Per warp: one full chunk of its own (a converged warp's
     * lanes share one clock base). A chunk by warp (VectorClock: one int per warp, what converged
     * warps with equal lane clocks release into) is 32 times smaller, but a flag-structured kernel's
     * per-lane acquires and any lane-specific release make full ones, so a full chunk is counted. Per CTA: one clock's reference array (the clock its barrier
     * completes, which its warps then share; a barrier's builder lives only until then). This is
     * what barrier- and flag-structured kernels hold (measured on 2048 CTAs of 32 threads, 64 of
     * 1024 and 256 of 256: docs/reliability.md); lanes that diverge for good, several barriers
     * filling at once and per-location state (the flags' and mbarriers' published clocks) hold
     * more and are not counted, so a launch is never refused for state it would not hold.
     */
    public static long stateBytes(long ctas, long slotsPerCta) {
        long chunks = RaceDetector.KINDS * ctas;
        long warps = ctas * ((slotsPerCta + 31) / 32);
        return ctas * slotsPerCta * BYTES_PER_THREAD + warps * (16 + 4 * slotsPerCta) + ctas * (16 + 8 * chunks);
    }
}
