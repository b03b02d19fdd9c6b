package io.barrierscope.exec;

import io.barrierscope.sync.CtaBarrierUnit;

/**
 * The whole state of one launch as plain arrays (struct of arrays), so a checkpoint is a few
 * array copies and the inner loop allocates nothing. Threads live in slots: slot =
 * warp * 32 + lane, warp = cta * warpsPerCta + warp-in-CTA; lanes past the end of a partial last
 * warp do not exist (never in {@link #existMask}).
 */
public final class Machine {
    private static final java.lang.invoke.VarHandle STATUS8 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    public final Program program;
    public final Dim3 grid;
    public final Dim3 block;
    public final Dim3 cluster;
    public final int ctas;
    public final int threadsPerCta;
    public final int warpsPerCta;
    public final int warps;
    public final int slots;
    public final int regsPerThread;

    public final int[] pc;
    public final byte[] status;
    public final long[] regs;
    /** What a waiting thread waits on: barrier id (CTA barrier) or member mask (warp sync). */
    public final int[] waitArg;
    /** For warp sync: the op kind key the thread waits with; for CTA barriers the thread count. */
    public final int[] waitArg2;
    public final long[] wakeTime;
    /** A value a waiting thread carries: the bar.red predicate. */
    public final long[] waitValue;
    /** The carry flag of each thread's condition code (add.cc / addc and friends). */
    public final byte[] carry;
    /** Return PCs of calls in progress, per slot (lazily allocated). */
    public final int[][] callStack;
    public final int[] callDepth;

    /**
     * Per warp: every existing lane is known to have the same PC. Cleared by any per-lane PC
     * change, re-established by {@link Policy#sameLanes}; it only spares a scan, never decides.
     */
    public final boolean[] uniform;

    /** Lanes of each warp that are RUNNABLE. */
    public final int[] runMask;
    /** Lanes of each warp that exist and have not exited or trapped. */
    public final int[] liveMask;
    /** Lanes of each warp that exist. */
    public final int[] existMask;
    /** Warps of each CTA with at least one live lane, as a bitmask (at most 32 warps per CTA). */
    public final int[] liveWarps;

    public final CtaBarrierUnit[] ctaBarriers;
    /** Per CTA, its cluster's barrier (shared by the CTAs of a cluster). */
    public final io.barrierscope.sync.ClusterBarrier[] clusterBarriers;
    /** Per thread: the barrier.cluster phase it arrived in and has not yet waited for, or -1. */
    public final long[] clusterArrivedPhase;
    public final io.barrierscope.sync.MbarrierUnit mbarriers;
    public final io.barrierscope.sync.AsyncCopyUnit async;
    /** The wgmma-groups of every warp. */
    public final WgmmaGroups wgmma;
    /** The setmaxnreg register pools and warpgroup bookkeeping. */
    public final RegisterPool registers;
    /** Per thread: the mbarrier key, its version and the thread's effect count at its last failed poll. */
    public final long[] lastPollKey;
    public final long[] lastPollVersion;
    public final long[] lastPollEffects;

    public final Memory memory;

    /** The race detector, or null when detection is off (semantics.md section 8). */
    public MemoryModelHook race;

    /** Per-lane scratch for warp-wide exchanges (shfl, match), so a step allocates nothing. */
    public final long[] laneScratch = new long[32];
    /** Scratch for the distinct member masks of one warp-sync step. */
    public final int[] maskScratch = new int[32];

    /** Told of every status change (a wait begins or ends, a park, an exit); null while nobody listens. */
    public StatusObserver statusObserver;
    /**
     * Status changes being gathered for the observer: lanes of one warp changing from one status to
     * another in a row (a barrier releasing a warp) are told once, not 32 times. The interpreter
     * flushes before every other event, so the order of events is kept.
     */
    private boolean statusPending;
    private int psWarp;
    private int psLanes;
    private byte psFrom;
    private byte psTo;

    /** Warps with at least one live lane; zero means every thread has exited. */
    public int liveWarpCount;

    /** Whether the launch is an explicit cluster launch (%is_explicit_cluster). */
    public boolean explicitCluster;

    /**
     * The grid-barrier workspace a cooperative launch gets from the driver (a zeroed device
     * address that %envreg1:%envreg2 hold; cooperative groups' grid.sync() counts arrivals there),
     * 0 for any other launch. Fixed for the run, so snapshots need not keep it.
     */
    public long gridWorkspace;

    /** Virtual time in cycles. */
    public long cycles;
    /** Warp steps executed. */
    public long steps;
    /** Thread instructions executed (guard-true lanes). */
    public long threadInstructions;

    public Machine(Program program, Dim3 grid, Dim3 block, Dim3 cluster, Memory memory) {
        this.program = program;
        this.grid = grid;
        this.block = block;
        this.cluster = cluster;
        this.ctas = (int) grid.volume();
        this.threadsPerCta = (int) block.volume();
        this.warpsPerCta = (threadsPerCta + 31) / 32;
        this.warps = ctas * warpsPerCta;
        this.slots = warps * 32;
        this.regsPerThread = program.regsPerThread;
        this.memory = memory;
        pc = new int[slots];
        status = new byte[slots];
        regs = new long[Math.multiplyExact(slots, regsPerThread)];
        waitArg = new int[slots];
        waitArg2 = new int[slots];
        wakeTime = new long[slots];
        waitValue = new long[slots];
        carry = new byte[slots];
        lastPollKey = new long[slots];
        java.util.Arrays.fill(lastPollKey, -1);
        lastPollVersion = new long[slots];
        lastPollEffects = new long[slots];
        mbarriers = new io.barrierscope.sync.MbarrierUnit();
        async = new io.barrierscope.sync.AsyncCopyUnit(slots);
        wgmma = new WgmmaGroups(warps, warpsPerCta, program);
        registers = new RegisterPool(warps, warpsPerCta, threadsPerCta, program.kernel == null ? null : program.kernel.directives());
        callStack = new int[slots][];
        callDepth = new int[slots];
        runMask = new int[warps];
        uniform = new boolean[warps];
        liveMask = new int[warps];
        existMask = new int[warps];
        liveWarps = new int[ctas];
        ctaBarriers = new CtaBarrierUnit[ctas];
        for (int c = 0; c < ctas; c++) ctaBarriers[c] = new CtaBarrierUnit(c);
        int lastWarpLanes = threadsPerCta - (warpsPerCta - 1) * 32;
        int lastMask = lastWarpLanes == 32 ? -1 : (1 << lastWarpLanes) - 1;
        for (int w = 0; w < warps; w++) {
            int m = (w % warpsPerCta == warpsPerCta - 1) ? lastMask : -1;
            existMask[w] = m;
            liveMask[w] = m;
            runMask[w] = m;
            liveWarps[w / warpsPerCta] |= 1 << (w % warpsPerCta);
        }
        liveWarpCount = warps;
        memory.clusterMembers = new int[ctas][];
        memory.ctaExited = new boolean[ctas];
        clusterBarriers = new io.barrierscope.sync.ClusterBarrier[ctas];
        for (int c = 0; c < ctas; c++) {
            int[] members = new int[(int) cluster.volume()];
            Dim3 id = grid.unflatten(c);
            int bx = id.x() / cluster.x() * cluster.x();
            int by = id.y() / cluster.y() * cluster.y();
            int bz = id.z() / cluster.z() * cluster.z();
            for (int r = 0; r < members.length; r++) {
                Dim3 o = cluster.unflatten(r);
                members[r] = (bx + o.x()) + (by + o.y()) * grid.x() + (bz + o.z()) * grid.x() * grid.y();
            }
            memory.clusterMembers[c] = members;
            clusterBarriers[c] = c == members[0] ? new io.barrierscope.sync.ClusterBarrier(c) : clusterBarriers[members[0]];
        }
        clusterArrivedPhase = new long[slots];
        java.util.Arrays.fill(clusterArrivedPhase, -1);
        for (int s = 0; s < slots; s++) {
            pc[s] = program.entryPc;
            if ((existMask[s >> 5] & (1 << (s & 31))) == 0) status[s] = ThreadStatus.EXITED;
        }
    }

    /**
     * The machine's whole run state for a checkpoint (opaque): every per-thread and per-warp
     * array, the counters, copies of the barrier objects, mbarriers, copies in flight and memory.
     * Scratch arrays and the status observer are not state.
     */
    public static final class Saved {
        private final Program program;
        private final int[] pc;
        private final byte[] status;
        private final long[] regs;
        private final int[] waitArg;
        private final int[] waitArg2;
        private final long[] wakeTime;
        private final long[] waitValue;
        private final byte[] carry;
        /** Per slot the live part of its call stack (null when empty); null when no thread is in a call. */
        private final int[][] callStack;
        private final int[] callDepth;
        private final boolean[] uniform;
        private final int[] runMask;
        private final int[] liveMask;
        private final int[] existMask;
        private final int[] liveWarps;
        private final long[] clusterArrivedPhase;
        private final long[] lastPollKey;
        private final long[] lastPollVersion;
        private final long[] lastPollEffects;
        private final int liveWarpCount;
        private final boolean explicitCluster;
        private final long cycles;
        private final long steps;
        private final long threadInstructions;
        private final io.barrierscope.sync.CtaBarrierUnit[] ctaBarriers;
        /** Copies of the cluster barriers, at the index of each cluster's first CTA only (the others alias it). */
        private final io.barrierscope.sync.ClusterBarrier[] clusterBarriers;
        private final io.barrierscope.sync.Mbarrier[] mbarriers;
        private final io.barrierscope.sync.AsyncCopyUnit.Saved async;
        private final WgmmaGroups.Saved wgmma;
        private final RegisterPool.Saved registers;
        private final Memory.Saved memory;
        private final MemoryModelHook.Snapshot race;

        private Saved(Machine m) {
            program = m.program;
            pc = m.pc.clone();
            status = m.status.clone();
            regs = allZero(m.regs) ? null : m.regs.clone();
            waitArg = m.waitArg.clone();
            waitArg2 = m.waitArg2.clone();
            wakeTime = m.wakeTime.clone();
            waitValue = m.waitValue.clone();
            carry = m.carry.clone();
            callDepth = m.callDepth.clone();
            int[][] cs = null;
            for (int s = 0; s < m.slots; s++) {
                if (m.callDepth[s] == 0) continue;
                if (cs == null) cs = new int[m.slots][];
                cs[s] = java.util.Arrays.copyOf(m.callStack[s], m.callDepth[s]);
            }
            callStack = cs;
            uniform = m.uniform.clone();
            runMask = m.runMask.clone();
            liveMask = m.liveMask.clone();
            existMask = m.existMask.clone();
            liveWarps = m.liveWarps.clone();
            clusterArrivedPhase = m.clusterArrivedPhase.clone();
            lastPollKey = m.lastPollKey.clone();
            lastPollVersion = m.lastPollVersion.clone();
            lastPollEffects = m.lastPollEffects.clone();
            liveWarpCount = m.liveWarpCount;
            explicitCluster = m.explicitCluster;
            cycles = m.cycles;
            steps = m.steps;
            threadInstructions = m.threadInstructions;
            ctaBarriers = new io.barrierscope.sync.CtaBarrierUnit[m.ctas];
            clusterBarriers = new io.barrierscope.sync.ClusterBarrier[m.ctas];
            for (int c = 0; c < m.ctas; c++) {
                ctaBarriers[c] = m.ctaBarriers[c].copy();
                if (m.clusterBarriers[c].firstCta == c) clusterBarriers[c] = m.clusterBarriers[c].copy();
            }
            mbarriers = m.mbarriers.save();
            async = m.async.save();
            wgmma = m.wgmma.save();
            registers = m.registers.save();
            memory = m.memory.save();
            race = m.race == null ? null : m.race.save();
        }

        public long steps() { return steps; }
        public long cycles() { return cycles; }

        /**
         * Heap bytes of this checkpoint's copies of the mbarrier objects and the operations in flight,
         * the machine's and the race detector's (its phase clocks and in-flight views): what
         * launch/MemoryEstimate counts per fork checkpoint as "mbarrier and in-flight copies", and what
         * explore keeps a fork checkpoint within (docs/reliability.md).
         */
        public long syncObjectBytes() {
            long b = 16 + 8L * mbarriers.length + async.bytes();
            for (io.barrierscope.sync.Mbarrier o : mbarriers) b += o.bytes();
            return b + (race == null ? 0 : race.syncObjectBytes());
        }

        /** Whether the register file was all zero and is not kept (see {@link Machine#allZero}). */
        public boolean registersOmitted() { return regs == null; }

        /** Approximate heap bytes. */
        public long bytes() {
            long b = 512 + 4L * pc.length + status.length + (regs == null ? 0 : 8L * regs.length) + 4L * (waitArg.length + waitArg2.length)
                    + 8L * (wakeTime.length + waitValue.length) + carry.length + 4L * callDepth.length + uniform.length
                    + 4L * (runMask.length + liveMask.length + existMask.length + liveWarps.length)
                    + 8L * (clusterArrivedPhase.length + lastPollKey.length + lastPollVersion.length + lastPollEffects.length)
                    + ctaBarriers.length * (16L * 96 + 100) + clusterBarriers.length * 40L
                    + wgmma.bytes() + registers.bytes() + memory.bytes() + (race == null ? 0 : race.bytes() - race.syncObjectBytes())
                    + syncObjectBytes();
            if (callStack != null) {
                b += 4L * callStack.length;
                for (int[] r : callStack) if (r != null) b += 16 + 4L * r.length;
            }
            return b;
        }
    }

    public Saved save() { return new Saved(this); }

    /**
     * Puts the machine back into the state of {@link #save}, in place: the same arrays and barrier
     * objects (views and the status observer stay attached). Checked first, so a checkpoint of
     * another launch changes nothing.
     */
    public void restore(Saved s) {
        if (s.program != program) throw new IllegalArgumentException("the checkpoint is of another launch (another program)");
        if ((s.regs != null && s.regs.length != regs.length) || s.pc.length != pc.length || s.ctaBarriers.length != ctas || !s.memory.fits(memory)) {
            throw new IllegalArgumentException("the checkpoint is of another launch shape");
        }
        if ((s.race != null) != (race != null)) {
            throw new IllegalArgumentException("the checkpoint was taken with race detection " + (s.race != null ? "on" : "off"));
        }
        for (int c = 0; c < ctas; c++) {
            if ((s.clusterBarriers[c] != null) != (clusterBarriers[c].firstCta == c)) {
                throw new IllegalArgumentException("the checkpoint is of another cluster shape");
            }
        }
        int n = slots;
        System.arraycopy(s.pc, 0, pc, 0, n);
        System.arraycopy(s.status, 0, status, 0, n);
        if (s.regs == null) java.util.Arrays.fill(regs, 0);
        else System.arraycopy(s.regs, 0, regs, 0, regs.length);
        System.arraycopy(s.waitArg, 0, waitArg, 0, n);
        System.arraycopy(s.waitArg2, 0, waitArg2, 0, n);
        System.arraycopy(s.wakeTime, 0, wakeTime, 0, n);
        System.arraycopy(s.waitValue, 0, waitValue, 0, n);
        System.arraycopy(s.carry, 0, carry, 0, n);
        System.arraycopy(s.callDepth, 0, callDepth, 0, n);
        if (s.callStack != null) {
            for (int t = 0; t < n; t++) {
                int[] row = s.callStack[t];
                if (row == null) continue;
                if (callStack[t] == null) callStack[t] = new int[CallOp.MAX_DEPTH];
                System.arraycopy(row, 0, callStack[t], 0, row.length);
            }
        }
        System.arraycopy(s.uniform, 0, uniform, 0, warps);
        System.arraycopy(s.runMask, 0, runMask, 0, warps);
        System.arraycopy(s.liveMask, 0, liveMask, 0, warps);
        System.arraycopy(s.existMask, 0, existMask, 0, warps);
        System.arraycopy(s.liveWarps, 0, liveWarps, 0, ctas);
        System.arraycopy(s.clusterArrivedPhase, 0, clusterArrivedPhase, 0, n);
        System.arraycopy(s.lastPollKey, 0, lastPollKey, 0, n);
        System.arraycopy(s.lastPollVersion, 0, lastPollVersion, 0, n);
        System.arraycopy(s.lastPollEffects, 0, lastPollEffects, 0, n);
        liveWarpCount = s.liveWarpCount;
        explicitCluster = s.explicitCluster;
        cycles = s.cycles;
        steps = s.steps;
        threadInstructions = s.threadInstructions;
        for (int c = 0; c < ctas; c++) {
            ctaBarriers[c].copyFrom(s.ctaBarriers[c]);
            // Copy into each cluster's one shared object, so the CTAs of a cluster still alias it.
            if (s.clusterBarriers[c] != null) clusterBarriers[c].copyFrom(s.clusterBarriers[c]);
        }
        mbarriers.restore(s.mbarriers);
        async.restore(s.async);
        wgmma.restore(s.wgmma);
        registers.restore(s.registers);
        memory.restore(s.memory);
        if (race != null) race.restore(s.race);
    }

    public int ctaOfWarp(int warp) { return warp / warpsPerCta; }

    /** The rank of a CTA in its cluster. */
    public int rankOf(int cta) {
        int[] members = memory.clusterMembers[cta];
        for (int r = 0; r < members.length; r++) if (members[r] == cta) return r;
        throw new IllegalStateException();
    }
    public int ctaOfSlot(int slot) { return (slot >> 5) / warpsPerCta; }
    public int warpInCta(int warp) { return warp % warpsPerCta; }
    /** Thread index within its CTA (linear). */
    public int tidOfSlot(int slot) { return ((slot >> 5) % warpsPerCta) * 32 + (slot & 31); }
    public int firstWarpOfCta(int cta) { return cta * warpsPerCta; }

    public boolean exists(int slot) { return (existMask[slot >> 5] & (1 << (slot & 31))) != 0; }

    private void noteStatus(int w, int bit, byte from, byte to) {
        if (statusPending) {
            if (psWarp == w && psFrom == from && psTo == to && (psLanes & bit) == 0) {
                psLanes |= bit;
                return;
            }
            flushStatus();
        }
        statusPending = true;
        psWarp = w;
        psLanes = bit;
        psFrom = from;
        psTo = to;
    }

    /** Tells the observer the status changes gathered so far. */
    public void flushStatus() {
        if (!statusPending) return;
        statusPending = false;
        if (statusObserver != null) statusObserver.statusChanged(psWarp, psLanes, psFrom, psTo);
    }

    private static final long[] ZEROS = new long[4096];

    /**
     * Whether every register is 0, as at the start of a run: a checkpoint then keeps no copy of
     * the register file, usually the largest part of the state (compared a block at a time with
     * the vectorized mismatch, which stops at the first non-zero register).
     */
    static boolean allZero(long[] a) {
        for (int i = 0; i < a.length; i += ZEROS.length) {
            int n = Math.min(ZEROS.length, a.length - i);
            if (java.util.Arrays.mismatch(a, i, i + n, ZEROS, 0, n) >= 0) return false;
        }
        return true;
    }

    /** Whether the 32 status bytes from {@code base} all equal {@code s}, compared eight at a time. */
    private boolean allStatus(int base, byte s) {
        long want = (s & 0xFFL) * 0x0101010101010101L;
        for (int i = 0; i < 32; i += 8) if ((long) STATUS8.get(status, base + i) != want) return false;
        return true;
    }

    /**
     * Whether all 32 lanes of a full warp have status {@code s}, have the same PC and carry wait
     * argument {@code arg}: the test for releasing a converged waiting warp in one go.
     */
    public boolean wholeWarpWaiting(int warp, byte s, int arg) {
        int base = warp << 5;
        if (existMask[warp] != -1) return false;
        if (!allStatus(base, s)) return false;
        int p = pc[base];
        boolean same = true;
        for (int i = base; i < base + 32; i++) same &= pc[i] == p & waitArg[i] == arg;
        return same;
    }

    /**
     * Changes the status of {@code lanes} of {@code warp} at once (a barrier releasing a warp):
     * the same as {@link #setStatus} per lane, with the masks and the observer told once.
     */
    public void setStatusLanes(int warp, int lanes, byte s) { setStatusLanes(warp, lanes, s, true); }

    /**
     * {@link #setStatusLanes(int, int, byte)}, telling the observer only if {@code tell}: a caller
     * that reports the change as part of a paired event ({@link ExecutionListener#barrierArriveWait})
     * passes false, and returns whether the change was the plain one it reports (all lanes from
     * one status; anything else was told lane by lane as usual). Status changes gathered earlier
     * are told first either way, so the order of events is kept.
     */
    public boolean setStatusLanes(int warp, int lanes, byte s, boolean tell) {
        if (lanes == 0) return true;
        int base = warp << 5;
        byte from = status[base + Integer.numberOfTrailingZeros(lanes)];
        boolean same = s != ThreadStatus.EXITED && s != ThreadStatus.TRAPPED && from != s;
        if (lanes == -1 && same) {
            // A whole warp: compare and fill its 32 status bytes eight at a time.
            same = allStatus(base, from);
            if (same) java.util.Arrays.fill(status, base, base + 32, s);
        } else {
            for (int l = lanes; l != 0 && same; l &= l - 1) same = status[base + Integer.numberOfTrailingZeros(l)] == from;
            if (same) for (int l = lanes; l != 0; l &= l - 1) status[base + Integer.numberOfTrailingZeros(l)] = s;
        }
        if (!same) {
            for (int l = lanes; l != 0; l &= l - 1) setStatus(base + Integer.numberOfTrailingZeros(l), s);
            return false;
        }
        if (s == ThreadStatus.RUNNABLE) runMask[warp] |= lanes;
        else runMask[warp] &= ~lanes;
        if (statusObserver != null) {
            flushStatus();
            if (tell) statusObserver.statusChanged(warp, lanes, from, s);
        }
        return true;
    }

    /** Changes a thread's status, keeping the warp masks in step. */
    public void setStatus(int slot, byte s) {
        int w = slot >> 5;
        int bit = 1 << (slot & 31);
        byte old = status[slot];
        status[slot] = s;
        if (old != s && statusObserver != null) noteStatus(w, bit, old, s);
        if (s == ThreadStatus.RUNNABLE) runMask[w] |= bit;
        else runMask[w] &= ~bit;
        if (s == ThreadStatus.EXITED || s == ThreadStatus.TRAPPED) {
            if ((liveMask[w] & bit) != 0) {
                liveMask[w] &= ~bit;
                if (liveMask[w] == 0) {
                    liveWarps[ctaOfWarp(w)] &= ~(1 << warpInCta(w));
                    liveWarpCount--;
                    if (liveWarps[ctaOfWarp(w)] == 0) memory.ctaExited[ctaOfWarp(w)] = true;
                }
            }
        }
    }

    /**
     * Where register {@code index} of a thread slot lives: registers are stored warp by warp and
     * lane-contiguous ([warp][register][lane]), so an instruction for a whole warp touches 32
     * adjacent longs.
     */
    public int regIndex(int slot, int index) { return (slot & ~31) * regsPerThread + (index << 5) + (slot & 31); }

    public long reg(int slot, int index) { return regs[regIndex(slot, index)]; }
    public void setReg(int slot, int index, long v) { regs[regIndex(slot, index)] = v; }

    /** Human name of a slot: cta (x,y,z) thread (x,y,z). */
    public String threadName(int slot) {
        Dim3 c = grid.unflatten(ctaOfSlot(slot));
        Dim3 t = block.unflatten(tidOfSlot(slot));
        return "CTA " + c + " thread " + t;
    }

    /** Human name of a warp: CTA (x,y,z) warp n. */
    public String warpName(int warp) {
        return "CTA " + grid.unflatten(ctaOfWarp(warp)) + " warp " + warpInCta(warp);
    }

    public boolean allExited() { return liveWarpCount == 0; }
}
