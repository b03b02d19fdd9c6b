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
    /** Builders per CTA: its 16 CTA barriers, its cluster's barrier (counted at every CTA) and its own relaxed-arrive one. */
    static final int BUILDERS_PER_CTA = 18;

    /**
     * Heap bytes of the detector's state besides its shadow and read sets (counted by
     * launch/MemoryEstimate), for {@code ctas} CTAs of {@code slotsPerCta} thread slots (whole
     * warps): a vector clock has a reference per id chunk ({@code 4 * ctas} chunks, one per CTA
     * and agent kind) and chunks of {@code slotsPerCta} ints. Per thread: {@link #BYTES_PER_THREAD}
     * and one clock of its own (a reference array and one chunk; its other chunks are shared
     * with the barriers it synchronized through, by reference). Per CTA: {@link #BUILDERS_PER_CTA}
     * builders, each a reference array, an owned flag per chunk and one chunk of its own, and the
     * completed clocks they keep (a reference array each). Clocks stay this small for barrier- and
     * flag-structured kernels; per-location state (the flags' and mbarriers' published clocks) is
     * not counted (docs/reliability.md).
     */
    public static long stateBytes(long ctas, long slotsPerCta) {
        long chunks = RaceDetector.KINDS * ctas;
        long clock = 16 + 8 * chunks + 16 + 4 * slotsPerCta;
        long builder = 32 + 9 * chunks + 16 + 4 * slotsPerCta;
        long perCta = BUILDERS_PER_CTA * (builder + 16 + 8 * chunks);
        return ctas * slotsPerCta * (BYTES_PER_THREAD + clock) + ctas * perCta;
    }
}
