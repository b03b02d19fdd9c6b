package io.barrierscope.sync;

/**
 * One mbarrier object (PTX ISA 9.7.13.15), kept beside the 8 shared-memory bytes it lives in:
 * its current phase (a full counter; parity is the low bit), pending and expected arrivals,
 * tx-count, and for diagnostics whether a wait observed the last completion. {@code version}
 * changes with every state change, so a thread polling it can tell whether anything happened.
 */
public final class Mbarrier {
    public static final int MAX_COUNT = (1 << 20) - 1;

    public final int cta;
    public final int offset;
    public boolean valid;
    public long phase;
    public int pending;
    public int expected;
    public long tx;
    /** Arrive-on operations so far in the current phase. */
    public int arrivals;
    /**
     * Who made those arrive-ons, in order (thread slots; a thread may arrive more than once), so a
     * deadlock explanation can name the threads that have not arrived (semantics.md 6). The first
     * {@link #arrivals} entries are valid; emptied with each phase.
     */
    private int[] arrivedSlots = new int[8];
    /**
     * Per warp of the object's CTA, the lanes that arrived in some completed phase of this
     * incarnation (null until a phase completes), so an explanation never says a thread that
     * arrived and then exited never arrived.
     */
    private int[] everArrived;
    /** Bytes (transactions) expected and completed so far in the current phase, for explanations. */
    public long txExpected;
    public long txCompleted;
    /** Whether some test_wait/try_wait returned true since the last phase completion (phase 0: nothing to observe). */
    public boolean observedPrevious = true;
    public long version;
    /** How many times this place was initialized: a state token names the incarnation it came from. */
    public int inits;
    /** PC of the init, for messages. */
    public int initPc = -1;
    /**
     * Threads now suspended in a try_wait on this object (MBAR_WAIT) and parked on it (PARKED):
     * kept by {@link MbarrierSync} at every change of those statuses, so a phase completion or
     * state change with nobody waiting scans no thread. Derived from the machine's statuses, and
     * saved and restored with them.
     */
    public int suspended;
    public int parked;

    public Mbarrier(int cta, int offset) {
        this.cta = cta;
        this.offset = offset;
    }

    /** A copy, for a checkpoint. */
    public Mbarrier copy() {
        Mbarrier b = new Mbarrier(cta, offset);
        b.copyFrom(this);
        return b;
    }

    /** Copies every field of {@code o} (the same object: CTA and offset) into this one. */
    public void copyFrom(Mbarrier o) {
        if (o.cta != cta || o.offset != offset) throw new IllegalArgumentException("mbarrier copied to another place");
        valid = o.valid;
        phase = o.phase;
        pending = o.pending;
        expected = o.expected;
        tx = o.tx;
        arrivals = o.arrivals;
        // A copy, never shared: arrivals append in place.
        arrivedSlots = java.util.Arrays.copyOf(o.arrivedSlots, Math.max(8, o.arrivals));
        everArrived = o.everArrived == null ? null : o.everArrived.clone();
        txExpected = o.txExpected;
        txCompleted = o.txCompleted;
        observedPrevious = o.observedPrevious;
        version = o.version;
        initPc = o.initPc;
        inits = o.inits;
        suspended = o.suspended;
        parked = o.parked;
    }

    /** Heap bytes of this object: its fields and its arrays of arrivals (what a checkpoint's copy of it costs). */
    public long bytes() {
        return BYTES + 16 + 4L * arrivedSlots.length + (everArrived == null ? 0 : 16 + 4L * everArrived.length);
    }

    /** Heap bytes of an object's fields (header, 16 fields and two array references). */
    public static final long BYTES = 96;

    public int parity() { return (int) (phase & 1); }

    /** Counts an arrive-on by thread {@code slot} in the current phase. */
    public void noteArrival(int slot) {
        if (arrivals == arrivedSlots.length) arrivedSlots = java.util.Arrays.copyOf(arrivedSlots, arrivals * 2);
        arrivedSlots[arrivals++] = slot;
    }

    /** The threads that arrived in the current phase, in order of their arrive-ons (repeats included). */
    public int[] arrivedThisPhase() { return java.util.Arrays.copyOf(arrivedSlots, arrivals); }

    /** The transaction bytes the phase still waits for (0 when none, or when more arrived than expected). */
    public long pendingTxBytes() { return tx > 0 ? tx : 0; }

    /** The phase is complete when no arrival and no transaction is pending. */
    public boolean canComplete() { return pending == 0 && tx == 0; }

    public void init(int count, int pc) {
        valid = true;
        phase = 0;
        pending = count;
        expected = count;
        tx = 0;
        arrivals = 0;
        everArrived = null;
        txExpected = 0;
        txCompleted = 0;
        observedPrevious = true;
        initPc = pc;
        inits++;
        version++;
    }

    /**
     * Remembers the current phase's arrivals by threads of the CTA whose warps start at
     * {@code firstWarp} ({@code warps} of them); called as the phase completes.
     */
    public void keepArrivals(int firstWarp, int warps) {
        if (everArrived == null) everArrived = new int[warps];
        for (int i = 0; i < arrivals; i++) {
            int w = (arrivedSlots[i] >> 5) - firstWarp;
            if (w >= 0 && w < warps) everArrived[w] |= 1 << (arrivedSlots[i] & 31);
        }
    }

    /** Lanes of the CTA's warp {@code warpInCta} that arrived in some completed phase of this incarnation. */
    public int arrivedBefore(int warpInCta) {
        return everArrived == null || warpInCta >= everArrived.length ? 0 : everArrived[warpInCta];
    }

    /** Moves to the next phase: pending arrivals reset to the expected count. */
    public void completePhase() {
        phase++;
        pending = expected;
        arrivals = 0;
        txExpected = 0;
        txCompleted = 0;
        observedPrevious = false;
        version++;
    }

    @Override
    public String toString() {
        return "phase " + phase + " (parity " + parity() + "), pending " + pending + " of " + expected + " arrivals, tx-count " + tx;
    }
}
