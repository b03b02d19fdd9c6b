package io.barrierscope.check;

import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import java.util.IdentityHashMap;
import java.util.Map;

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

    /** As {@link #stateBytes(long, long, boolean)} for a kernel whose lanes never take a clock of their own. */
    public static long stateBytes(long ctas, long slotsPerCta) { return stateBytes(ctas, slotsPerCta, false); }

    /**
     * Heap bytes of the detector's state besides its shadow and read sets (counted by
     * launch/MemoryEstimate), for {@code ctas} CTAs of {@code slotsPerCta} thread slots (whole
     * warps). A vector clock has a reference per id chunk ({@code KINDS * ctas} chunks, one per CTA
     * and agent kind) and chunks of {@code slotsPerCta} ints, shared between clocks by reference.
     * Per thread: {@link #BYTES_PER_THREAD}. Per warp: one full chunk of its own (a converged warp's
     * lanes share one clock base). A chunk by warp (VectorClock: one int per warp, what converged
     * warps with equal lane clocks release into) is 32 times smaller, but a flag-structured kernel's
     * per-lane acquires and any lane-specific release make full ones, so a full chunk is counted. Per CTA: one clock's reference array (the clock its barrier
     * completes, which its warps then share; a barrier's builder lives only until then). This is
     * what barrier- and flag-structured kernels hold (measured on 2048 CTAs of 32 threads, 64 of
     * 1024 and 256 of 256: docs/reliability.md).
     *
     * <p>With {@code lanesOwnClocks} (the kernel has an instruction that orders one lane on its
     * own: {@link #lanesTakeClocksOfTheirOwn}), every thread may hold a clock of its own besides:
     * a lane of a diverged warp that syncs or acquires alone gets a clock that is its own object,
     * reference array and chunk of its CTA's ids ({@link #ownClockBytes}). Clocks joined from other
     * CTAs' chunks by flags, several barriers filling at once and per-location state (the flags'
     * and mbarriers' published clocks) hold more and are not counted.
     */
    public static long stateBytes(long ctas, long slotsPerCta, boolean lanesOwnClocks) {
        long chunks = RaceDetector.KINDS * ctas;
        long warps = ctas * ((slotsPerCta + 31) / 32);
        long shared = ctas * slotsPerCta * BYTES_PER_THREAD + warps * (16 + 4 * slotsPerCta) + ctas * (16 + 8 * chunks);
        return lanesOwnClocks ? shared + ctas * slotsPerCta * ownClockBytes(ctas, slotsPerCta) : shared;
    }

    /**
     * Heap bytes of the per-location synchronization state at most: the detector's cap
     * ({@link RaceDetector#LOCATION_STATE_CAP}, past which it stops) when the kernel has a strong
     * write (an atomic, a reduction, an ordered or volatile st, an async reduction), which keeps a
     * location's last strong write and the clocks released to it by each CTA and scope; none
     * otherwise. Only a strong write makes a location ({@code ScopedSync.write}): a strong load,
     * a fence, an mbarrier or cluster barrier with .release/.acquire and a plain copy
     * (cp.async, cp.async.bulk) keep none, so they are not charged 64 MiB a run never uses.
     */
    public static long locationStateBytes(Module module) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                if (writesALocationStrongly(in)) return RaceDetector.LOCATION_STATE_CAP;
            }
        }
        return 0;
    }

    private static boolean writesALocationStrongly(Instruction in) {
        switch (in.opcode()) {
            case "atom", "red", "multimem" -> {
                return true;
            }
            case "cp" -> {
                return in.has(".reduce"); // cp.reduce.async.bulk(.tensor): an async reduction
            }
            case "st" -> {
                for (String m : STRONG_MODIFIERS) if (in.has(m)) return true;
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Heap bytes of clocks beyond {@link #stateBytes} at most, for a launch of {@code ctas} CTAs of
     * {@code slotsPerCta} thread slots and {@code sharedBytesPerCta} of shared memory: none unless a
     * thread can take a clock its warp does not share (an instruction of
     * {@link #lanesTakeClocksOfTheirOwn}). In several CTAs a thread can acquire what other CTAs
     * released, so every clock the detector holds is counted at its largest
     * ({@link #heldClocksBound}), never more than the detector's cap
     * ({@link RaceDetector#JOINED_CLOCK_CAP}, past which it stops: RaceClockBudget); counting the
     * whole cap for every such launch refused small cluster samples at -Xmx128m. In one CTA every
     * clock is within its ids, and what the formula leaves out is each mbarrier's phase clocks (its
     * builder and its completed phase, each with a chunk per agent kind at most): one mbarrier per 8
     * bytes of shared memory at most, never more than the cap. Counting the whole cap there refused
     * one-CTA TMA samples under {@code explore --jobs 2} at -Xmx256m for clocks they never hold.
     */
    public static long joinedClockBytes(Module module, long ctas, long slotsPerCta, long sharedBytesPerCta) {
        if (!lanesTakeClocksOfTheirOwn(module)) return 0;
        boolean mbarriers = hasOpcode(module, "mbarrier");
        if (ctas > 1) {
            return Math.min(RaceDetector.JOINED_CLOCK_CAP, heldClocksBound(ctas, slotsPerCta, mbarriers ? sharedBytesPerCta : 0,
                    issuesAsyncOperations(module)));
        }
        if (!mbarriers) return 0;
        long perClock = 64 + 16L * RaceDetector.KINDS + RaceDetector.KINDS * (16 + 4 * slotsPerCta);
        return Math.min(RaceDetector.JOINED_CLOCK_CAP, sharedBytesPerCta / 8 * 2 * perClock);
    }

    /**
     * The most heap the detector's clocks can take as RaceClockBudget.liveBytes counts them (each
     * distinct clock, builder and chunk once), {@link Long#MAX_VALUE} when it has no bound: every
     * holder of a clock or builder, each at its largest (a reference per chunk, {@code KINDS * ctas}
     * of them, every chunk full: {@code slotsPerCta} ints), so whatever they share it is an upper
     * bound. Without async operations only the threads' own ids are ever raised (an agent's id is
     * raised by its copy completing, or a wait_group, RaceAsyncCopies), so only the {@code ctas}
     * chunks of threads' ids can be non-null. Holders: per thread slot its base, fence, pending acquire and the scoped state's four
     * (7); per warp its shared base (kept while a lane has a base of its own); per CTA its 16
     * barriers' builders, its cluster barrier's builder and completed clock, and
     * the per-CTA cluster builder and completed clock (4 + 16); per mbarrier (one per 8 bytes of
     * {@code mbarrierBytesPerCta}) its two builders and two completed phases. An async operation in
     * flight (cp.async, bulk and tensor copies, st.async, red.async) keeps the issuer's clock of the
     * moment, and nothing bounds how many are in flight before the launch runs: with
     * {@code asyncOperations} there is no bound.
     */
    static long heldClocksBound(long ctas, long slotsPerCta, long mbarrierBytesPerCta, boolean asyncOperations) {
        if (asyncOperations) return Long.MAX_VALUE;
        long refs = RaceDetector.KINDS * ctas;
        // A builder (object, reference array, owned flags) is larger than a clock with the same chunks.
        long perHolder = 48 + 8 * refs + 16 + refs + ctas * (16 + 4 * slotsPerCta);
        long holders = 7 * ctas * slotsPerCta + ctas * (slotsPerCta / 32) + 20 * ctas + 4 * ctas * (mbarrierBytesPerCta / 8);
        return holders > Long.MAX_VALUE / perHolder ? Long.MAX_VALUE : holders * perHolder;
    }

    private static boolean hasOpcode(Module module, String opcode) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) if (in.opcode().equals(opcode)) return true;
        }
        return false;
    }

    /** Whether the module issues an async operation whose issuer's clock the detector keeps while it is in flight. */
    static boolean issuesAsyncOperations(Module module) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                String op = in.opcode();
                if (op.equals("cp") || ((op.equals("st") || op.equals("red")) && in.has(".async"))) return true;
            }
        }
        return false;
    }

    /**
     * Heap bytes of one checkpoint's copy of the per-location map at most, for a location state of
     * {@code locationStateBytes}: a checkpoint shares the locations' records but copies the map, one
     * entry (40 bytes) per location, and a location is counted at least 128 bytes live
     * (ScopedSync.bytesOf: its entry and key, record and two empty arrays).
     */
    public static long locationMapCopyBytes(long locationStateBytes) { return locationStateBytes / 128 * 40; }

    private static final String[] STRONG_MODIFIERS = {".relaxed", ".acquire", ".release", ".acq_rel", ".sc", ".volatile", ".mmio"};

    /** One clock a lane holds alone: the object (16), its reference array and one chunk of its CTA's ids. */
    static long ownClockBytes(long ctas, long slotsPerCta) {
        return 16 + (16 + 8 * RaceDetector.KINDS * ctas) + (16 + 4 * slotsPerCta);
    }

    /**
     * Whether the module has an instruction after which one lane can hold a clock its warp's other
     * lanes do not share: a warp sync of some lanes ({@code bar.warp.sync}), an acquire ({@code ld}
     * or {@code atom} with {@code .acquire}, {@code .acq_rel} or {@code .sc}, a fence or
     * {@code membar} taking what relaxed loads saw, an mbarrier wait, {@code barrier.cluster}), or
     * the wait for an async copy ({@code cp.async} groups, bulk groups). CTA barriers alone release
     * every waiter with one shared clock, diverged or not.
     */
    public static boolean lanesTakeClocksOfTheirOwn(Module module) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                switch (in.opcode()) {
                    case "fence", "membar", "mbarrier", "cp" -> {
                        return true;
                    }
                    case "bar" -> {
                        if (in.has(".warp")) return true;
                    }
                    case "barrier" -> {
                        if (in.has(".cluster")) return true;
                    }
                    default -> { }
                }
                if (in.has(".acquire") || in.has(".acq_rel") || in.has(".sc")) return true;
            }
        }
        return false;
    }

    /**
     * Heap bytes of the clocks the detector's threads hold now, counted as {@link #stateBytes}
     * counts them: each distinct clock's object and reference array, each distinct chunk once.
     * For tests that check the estimate against a run.
     */
    static long heldClockBytes(RaceDetector d) {
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        long bytes = 0;
        for (int t = 0; t < d.slots; t++) {
            VectorClock v = d.baseOf(t);
            if (v == null || seen.put(v, Boolean.TRUE) != null) continue;
            bytes += 16 + 16 + 8L * v.chunks.length;
            for (int[] ch : v.chunks) {
                if (ch != null && seen.put(ch, Boolean.TRUE) == null) bytes += 16 + 4L * ch.length;
            }
        }
        return bytes;
    }
}
