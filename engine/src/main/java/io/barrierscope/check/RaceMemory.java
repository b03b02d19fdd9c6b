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
     * What the clock counts read from a kernel's PTX, read once per program (Program.analysis): whether
     * its lanes can take clocks of their own ({@link #lanesTakeClocksOfTheirOwn}), whether it issues
     * async operations ({@link #issuesAsyncOperations}) and their id kinds ({@link #idKinds}), and the
     * places its mbarrier inits can name ({@link MbarrierPlaces#count}: -1 unknown, 0 without mbarriers).
     */
    record KernelFacts(boolean lanesOwnClocks, boolean async, int idKinds, long mbarrierPlaces, boolean staysInCluster,
                       int threadHolders) {
        static KernelFacts of(Module module) {
            boolean own = lanesTakeClocksOfTheirOwn(module);
            return new KernelFacts(own, own && issuesAsyncOperations(module), own ? RaceMemory.idKinds(module) : 1,
                    own && hasOpcode(module, "mbarrier") ? MbarrierPlaces.count(module) : 0, own && synchronizesWithinClusters(module),
                    own ? clockHoldersPerThread(module) : 1);
        }

        /** The facts of {@code program}'s module, worked out once per program (launch checks and each run's budget share them). */
        static KernelFacts of(io.barrierscope.exec.Program program) {
            return program.analysis(KernelFacts.class, p -> of(p.module));
        }

        /** The CTAs whose ids one clock can carry: its cluster's when the kernel synchronizes within clusters only. */
        long ctasPerClock(long ctas, long clusterCtas) { return staysInCluster && clusterCtas >= 1 ? Math.min(ctas, clusterCtas) : ctas; }
    }

    /**
     * Whether no instruction of the module can take a clock from outside its cluster: none names
     * {@code .gpu} or {@code .sys}, every fence, {@code membar}, atomic, reduction and strong load or
     * store names {@code .cta} or {@code .cluster} (their default scope is {@code .gpu}, and
     * {@code membar.gl} is one), so every release a thread acquires, and every location a relaxed read
     * leaves for a fence, is of its own cluster (a clock released out of scope is never joined:
     * ScopedSync's moral strength); CTA barriers, {@code barrier.cluster}, mbarriers (a wait observes
     * its own CTA's, arrived on from the cluster) and async copies (their issuer and destinations one
     * cluster, PTX ISA 9.7.9.25) stay within it. A clock of such a kernel carries its cluster's chunks only.
     */
    static boolean synchronizesWithinClusters(Module module) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                if (in.has(".gpu") || in.has(".sys")) return false;
                boolean scoped = in.has(".cta") || in.has(".cluster");
                switch (in.opcode()) {
                    case "membar", "atom", "red", "multimem" -> {
                        if (!scoped && !in.has(".async")) return false;
                    }
                    case "fence" -> {
                        if (!scoped && !in.has(".proxy")) return false;
                    }
                    case "ld", "st", "ldu" -> {
                        for (String m : STRONG_MODIFIERS) if (in.has(m) && !scoped) return false;
                    }
                    default -> { }
                }
            }
        }
        return true;
    }

    /** As {@link #joinedClockBytes(Module, long, long, long, long)} for a launch without clusters (one CTA each). */
    public static long joinedClockBytes(Module module, long ctas, long slotsPerCta, long sharedBytesPerCta) {
        return joinedClockBytes(module, ctas, 1, slotsPerCta, sharedBytesPerCta);
    }

    /**
     * Heap bytes of clocks beyond {@link #stateBytes} a run of this launch holds at most, for
     * {@code ctas} CTAs in clusters of {@code clusterCtas} (a clock carries its cluster's chunks only when
     * the kernel synchronizes within clusters: {@link #synchronizesWithinClusters}), of {@code slotsPerCta} thread slots and
     * {@code sharedBytesPerCta} of shared memory: none unless a thread can take a clock its warp does
     * not share (an instruction of {@link #lanesTakeClocksOfTheirOwn}). Never more than the
     * detector's cap ({@link RaceDetector#JOINED_CLOCK_CAP}). The mbarrier objects a CTA can hold are
     * the places the kernel's inits can name ({@link MbarrierPlaces}), one per 8 bytes of shared
     * memory when one is not known.
     *
     * <ul>
     * <li>With an async operation (cp.*, st.async, red.async): {@link #asyncClockReservation}, which
     * the run keeps its clocks within ({@link #runClockCap}: past it detection stops with a note).
     * <li>Else in several CTAs, where a thread can acquire what other CTAs released: every clock the
     * detector can hold, at its largest ({@link #heldClocksBound}); counting the whole cap for every
     * such launch refused small cluster samples at -Xmx128m.
     * <li>Else in one CTA every clock is within its ids, and what {@link #stateBytes} leaves out is
     * each mbarrier's phase clocks (its builder and its completed phase, each with a chunk per agent
     * kind at most).
     * </ul>
     */
    public static long joinedClockBytes(Module module, long ctas, long clusterCtas, long slotsPerCta, long sharedBytesPerCta) {
        return joinedClockBytes(KernelFacts.of(module), ctas, clusterCtas, slotsPerCta, sharedBytesPerCta);
    }

    /** As {@link #joinedClockBytes(Module, long, long, long, long)}, with the facts {@code program} already holds. */
    public static long joinedClockBytes(io.barrierscope.exec.Program program, long ctas, long clusterCtas, long slotsPerCta, long sharedBytesPerCta) {
        return joinedClockBytes(KernelFacts.of(program), ctas, clusterCtas, slotsPerCta, sharedBytesPerCta);
    }

    static long joinedClockBytes(KernelFacts k, long ctas, long clusterCtas, long slotsPerCta, long sharedBytesPerCta) {
        if (!k.lanesOwnClocks()) return 0;
        long mbarriers = MbarrierPlaces.perCta(k.mbarrierPlaces(), sharedBytesPerCta);
        long perClock = k.ctasPerClock(ctas, clusterCtas);
        if (k.async()) return asyncClockReservation(k.idKinds(), ctas, perClock, slotsPerCta, mbarriers, k.threadHolders());
        if (ctas > 1) return Math.min(RaceDetector.JOINED_CLOCK_CAP, heldClocksBound(ctas, perClock, slotsPerCta, mbarriers, false));
        long phaseClock = 64 + 16L * RaceDetector.KINDS + RaceDetector.KINDS * (16 + 4 * slotsPerCta);
        return Math.min(RaceDetector.JOINED_CLOCK_CAP, mbarriers * 2 * phaseClock);
    }

    /**
     * The bytes of clocks beyond {@link #stateBytes} a run of this launch may hold before detection
     * stops (RaceClockBudget's cap): the launch's {@link #asyncClockReservation} when its kernel has an
     * async operation (what it counts rests on that, not on a bound), else
     * {@link RaceDetector#JOINED_CLOCK_CAP}. Depends on the launch alone, so it stops at the same step every run.
     */
    static long runClockCap(KernelFacts k, long ctas, long clusterCtas, long slotsPerCta, long sharedBytesPerCta) {
        if (!k.async()) return RaceDetector.JOINED_CLOCK_CAP;
        long r = joinedClockBytes(k, ctas, clusterCtas, slotsPerCta, sharedBytesPerCta);
        return r > 0 ? r : RaceDetector.JOINED_CLOCK_CAP;
    }

    /**
     * Bytes of clocks beyond {@link #stateBytes} a launch whose kernel has an async operation keeps,
     * counted in advance and kept by the run (past it detection stops at that step, with a note): an
     * async operation in flight keeps its issuer's clock of the moment, and nothing bounds how many
     * are in flight before the launch runs, so this is a reservation, not a bound. Its holders, each
     * at its largest (a builder's object, flags and a reference per chunk, {@code KINDS * ctas}, and a
     * full chunk of ids per CTA a clock can carry, {@code ctasPerClock}, and id kind the kernel
     * raises, {@code idKinds}): per mbarrier its builders and completed phases (two, four in several
     * CTAs, where peers arrive); per thread slot one clock kept by its copies in flight past its own;
     * and in several CTAs, where a thread's clocks carry other CTAs' chunks, per thread slot
     * {@code threadHolders} ({@link #clockHoldersPerThread}: its base and the fences and pending
     * acquires the kernel can leave it), per warp its shared base and per CTA its barriers' 20
     * builders and completed clocks. (In one CTA {@link #stateBytes} counts each thread's clock of its
     * own.) It is made an eighth larger than their sum, since the run stops once its clocks pass the
     * reservation less an eighth: a run that holds no more than those holders never stops. Never
     * more than {@link RaceDetector#JOINED_CLOCK_CAP}.
     */
    static long asyncClockReservation(int idKinds, long ctas, long ctasPerClock, long slotsPerCta, long mbarriersPerCta,
                                      int threadHolders) {
        long refs = RaceDetector.KINDS * ctas;
        long perHolder = 48 + 8 * refs + 16 + refs + idKinds * ctasPerClock * (16 + 4 * slotsPerCta);
        long holders = 2 * ctas * mbarriersPerCta + ctas * slotsPerCta;
        if (ctas > 1) holders += threadHolders * ctas * slotsPerCta + ctas * (slotsPerCta / 32) + 20 * ctas + 2 * ctas * mbarriersPerCta;
        long sum = holders > Long.MAX_VALUE / 16 / perHolder ? Long.MAX_VALUE / 16 : holders * perHolder;
        return Math.min(RaceDetector.JOINED_CLOCK_CAP, sum + (sum + 6) / 7);
    }

    /**
     * The clocks one thread slot can hold at once as this kernel can set them (RaceClockBudget.liveBytes
     * counts seven places): its base; one per scope of fence or {@code membar} the kernel has (a fence
     * sets the thread's fence clocks of its scope and the narrower ones to one clock: ScopedSync.fence);
     * and its pending acquires, three when a strong write makes locations a relaxed read can leave for
     * a fence (ScopedSync.read), two when an mbarrier wait is relaxed (RaceMbarriers.acquire), else none.
     */
    static int clockHoldersPerThread(Module module) {
        boolean[] fenceScopes = new boolean[3];
        boolean relaxedWait = false;
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                String op = in.opcode();
                if ((op.equals("fence") && !in.has(".proxy")) || op.equals("membar")) {
                    fenceScopes[in.has(".cta") ? 0 : in.has(".cluster") ? 1 : 2] = true;
                }
                if (op.equals("mbarrier") && (in.has(".try_wait") || in.has(".test_wait")) && in.has(".relaxed")) relaxedWait = true;
            }
        }
        int fences = (fenceScopes[0] ? 1 : 0) + (fenceScopes[1] ? 1 : 0) + (fenceScopes[2] ? 1 : 0);
        return 1 + fences + (locationStateBytes(module) > 0 ? 3 : relaxedWait ? 2 : 0);
    }

    /**
     * The id kinds a clock of this module can hold entries of: threads', and the agents of each kind
     * of async operation it issues (an agent's id is raised by its copy completing, or by a wait for
     * its group: RaceAsyncCopies): cp.async (and its mbarrier arrive), bulk copies to global memory
     * (their reads and writes), and the copies that complete on an mbarrier (bulk and tensor copies to
     * shared memory, st.async, red.async).
     */
    static int idKinds(Module module) {
        boolean cp = false, bulkOut = false, mbar = false;
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                String op = in.opcode();
                if ((op.equals("st") || op.equals("red")) && in.has(".async")) mbar = true;
                if (!op.equals("cp")) continue;
                if (!in.has(".bulk")) cp = true;
                else if (in.has(".global") && in.modifiers().indexOf(".global") == 1 + in.modifiers().indexOf(".bulk")
                        + (in.has(".tensor") ? 2 : 0)) bulkOut = true;
                else mbar = true;
            }
        }
        return 1 + (cp ? 1 : 0) + (bulkOut ? 2 : 0) + (mbar ? 1 : 0);
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
     * the per-CTA cluster builder and completed clock (4 + 16); per mbarrier ({@code mbarriersPerCta}
     * of them, MbarrierPlaces) its two builders and two completed phases. An async operation in
     * flight (cp.async, bulk and tensor copies, st.async, red.async) keeps the issuer's clock of the
     * moment, and nothing bounds how many are in flight before the launch runs: with
     * {@code asyncOperations} there is no bound ({@link #asyncClockReservation} instead).
     */
    static long heldClocksBound(long ctas, long slotsPerCta, long mbarriersPerCta, boolean asyncOperations) {
        return heldClocksBound(ctas, ctas, slotsPerCta, mbarriersPerCta, asyncOperations);
    }

    /** {@link #heldClocksBound(long, long, long, boolean)} with chunks of {@code ctasPerClock} CTAs at most in a clock (KernelFacts.ctasPerClock). */
    static long heldClocksBound(long ctas, long ctasPerClock, long slotsPerCta, long mbarriersPerCta, boolean asyncOperations) {
        if (asyncOperations) return Long.MAX_VALUE;
        long refs = RaceDetector.KINDS * ctas;
        // A builder (object, reference array, owned flags) is larger than a clock with the same chunks.
        long perHolder = 48 + 8 * refs + 16 + refs + ctasPerClock * (16 + 4 * slotsPerCta);
        long holders = 7 * ctas * slotsPerCta + ctas * (slotsPerCta / 32) + 20 * ctas + 4 * ctas * mbarriersPerCta;
        return holders > Long.MAX_VALUE / perHolder ? Long.MAX_VALUE : holders * perHolder;
    }

    /**
     * The mbarrier objects one CTA of this program can hold ({@link MbarrierPlaces}): the places its
     * inits can name, one per 8 bytes of {@code sharedBytesPerCta} when they cannot be followed, 0
     * without an mbarrier instruction.
     */
    public static long mbarriersPerCta(io.barrierscope.exec.Program program, long sharedBytesPerCta) {
        KernelFacts k = KernelFacts.of(program);
        return k.lanesOwnClocks() ? MbarrierPlaces.perCta(k.mbarrierPlaces(), sharedBytesPerCta) : 0;
    }

    /** Whether the program issues an async operation (cp.*, st.async, red.async): one that can be in flight. */
    public static boolean issuesAsyncOperations(io.barrierscope.exec.Program program) { return KernelFacts.of(program).async(); }

    /** The detector's live bytes per mbarrier besides its clocks (its state object and map entry) and per copy in flight (its view and entry). */
    public static final long MBARRIER_STATE_BYTES = 64 + 56;
    public static final long IN_FLIGHT_VIEW_BYTES = RaceCheckpoint.IN_FLIGHT_ENTRY_BYTES;
    /** The maps' own objects in a checkpoint's copy of the detector's mbarriers and copies in flight (RaceCheckpoint#syncObjectBytes). */
    public static final long CHECKPOINT_MAPS_BYTES = RaceCheckpoint.MAPS_BYTES;

    /**
     * Bytes one checkpoint's copy of the detector's state of one mbarrier takes
     * (RaceCheckpoint#syncObjectBytes): its entries, clock array and init record, and the objects and
     * reference arrays of its two builders' snapshots ({@code KINDS * ctas} references each).
     */
    public static long mbarrierCopyBytes(long ctas) {
        return RaceCheckpoint.MBARRIER_ENTRY_BYTES + 2 * (32 + 8L * RaceDetector.KINDS * ctas);
    }

    /** The bytes of clocks beyond what the launch counts per thread that this run keeps before detection stops (its RaceClockBudget's cap). */
    public static long runClockCap(RaceDetector d) { return d.clockBudget.cap; }

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
