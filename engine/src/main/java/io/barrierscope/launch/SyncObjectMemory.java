package io.barrierscope.launch;

import io.barrierscope.check.RaceMemory;
import io.barrierscope.exec.Program;
import io.barrierscope.sync.AsyncCopyUnit;
import io.barrierscope.sync.Mbarrier;

/**
 * What a launch's mbarrier objects and asynchronous operations in flight take, in the run and in
 * each of explore's fork checkpoints (docs/reliability.md, "Memory is counted before it is spent"):
 * counted before the launch runs by {@link MemoryEstimate}.
 *
 * <p>The mbarrier objects a CTA can hold are bounded by the places its inits can name
 * (RaceMemory#mbarriersPerCta). The operations in flight are bounded by
 * {@link AsyncCopyUnit#cap} (past it an issue is the diagnostic {@code async-in-flight}), which the
 * run's own state is counted at. A checkpoint's copies are counted at one operation in flight per
 * thread slot and at most one copy of each object, and explore keeps only the fork checkpoints whose
 * copies fit that ({@code Machine.Saved#syncObjectBytes}; a checkpoint dropped only costs re-running
 * a prefix), so what it counts is what the checkpoints hold at most.
 */
public final class SyncObjectMemory {
    private SyncObjectMemory() {}

    /**
     * Bytes of one machine's mbarrier object with its arrivals of one phase (one per thread slot of its
     * CTA; more arrive-ons in one phase grow it, and a fork checkpoint holding more is not kept).
     */
    static long objectBytes(long slotsPerCta) {
        return Mbarrier.BYTES + 16 + 4 * Math.max(8, slotsPerCta) + 16 + 4 * ((slotsPerCta + 31) / 32);
    }

    /** The live run's mbarrier objects and operations in flight at most (the latter at the cap), with the detector's state of each when {@code race}. */
    public static long liveBytes(Program program, long ctas, long slotsPerCta, long sharedBytesPerCta, boolean race) {
        long objects = ctas * RaceMemory.mbarriersPerCta(program, sharedBytesPerCta);
        long b = objects * (objectBytes(slotsPerCta) + (race ? RaceMemory.MBARRIER_STATE_BYTES : 0));
        if (RaceMemory.issuesAsyncOperations(program)) {
            b += ctas * slotsPerCta * AsyncCopyUnit.IN_FLIGHT_PER_THREAD
                    * (AsyncCopyUnit.BYTES_PER_OPERATION + (race ? RaceMemory.IN_FLIGHT_VIEW_BYTES : 0));
        }
        return b;
    }

    /**
     * One fork checkpoint's copies of the mbarrier objects (the machine's, and the detector's maps of
     * them when {@code race}) and of one operation in flight per thread slot (its reference and record,
     * and the detector's entry and view): what explore keeps each fork checkpoint's copies within.
     */
    public static long checkpointBytes(Program program, long ctas, long slotsPerCta, long sharedBytesPerCta, boolean race) {
        long objects = ctas * RaceMemory.mbarriersPerCta(program, sharedBytesPerCta);
        // The machine's array of objects and its async unit (each thread's two group counters), the detector's two maps.
        long b = 16 + 64 + 16 * ctas * slotsPerCta + (race ? RaceMemory.CHECKPOINT_MAPS_BYTES : 0)
                + objects * (8 + objectBytes(slotsPerCta) + (race ? RaceMemory.mbarrierCopyBytes(ctas) : 0));
        if (RaceMemory.issuesAsyncOperations(program)) {
            b += ctas * slotsPerCta * (8 + 120 + (race ? RaceMemory.IN_FLIGHT_VIEW_BYTES : 0));
        }
        return b;
    }
}
