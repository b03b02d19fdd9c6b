package io.barrierscope.explore;

import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The symmetric-warp reduction (docs/explore.md): at a warp decision point, of several alternatives that
 * are symmetric only one is explored. Two warps of one CTA are symmetric when their control state
 * is equal lane by lane (lane i of one against lane i of the other, so convergence groups are
 * compared as relative lane patterns): which lanes exist, live and can run; every lane's PC (so
 * the same next instruction), status, call stack and what it waits on (barrier id and count,
 * warp-sync mask, mbarrier and phase, wake time, cluster-barrier phase, the poll it would park on,
 * asynchronous-copy groups in flight); which of the CTA's sixteen barriers each has arrived at;
 * and the registers {@link ControlRegisters} selects. Two warps at the same position of different
 * CTAs are symmetric when the whole CTAs are (every warp so, and their barriers and mbarriers
 * equal), and only in launches without multi-CTA clusters.
 *
 * <p>Why one representative suffices: a finding's cause is its diagnostic code and source lines,
 * never a warp's identity, and the schedules after choosing one of two symmetric warps mirror
 * those after choosing the other, with the warps' roles swapped, as long as the kernel treats
 * them alike from here on. That holds for the control state compared; it is a heuristic for what
 * is not compared: shared and global memory contents, the race detector's history, and branches
 * yet to be computed from the warp's identity (docs/explore.md, "Symmetric warps").
 *
 * <p>The class holding the decision's chosen warp is represented by it (its schedule is the
 * parent's own run, already explored); any other class by its lowest warp index. Pure function
 * of the machine state, so deterministic.
 */
final class WarpSymmetry {
    private final int[] keyRegs;
    /** CTA pairs compared during one decision (by {@code x * ctas + y}): many warp pairs share one. */
    private final Map<Long, Boolean> ctaPairs = new HashMap<>();

    WarpSymmetry(Program p) { keyRegs = ControlRegisters.of(p); }

    /** The registers compared, as absolute indices (tests). */
    int[] keyRegisters() { return keyRegs.clone(); }

    /**
     * Keeps in {@code alts[0..n)}, in their order, one warp of each symmetry class: none of the
     * class of {@code chosen}, else the lowest-numbered. Returns how many are kept.
     */
    int reduce(Machine m, int chosen, long[] alts, int n) {
        // Classes are the transitive closure (union-find): a swap of two warps of a CTA and a swap
        // of two CTAs compose, so warp 5 of CTA 1 is symmetric to warp 0 of CTA 0 through warp 4.
        // Every relation compared is an equality of state, so the closure is found without trying
        // every pair (a launch of thousands of warps offers thousands at each decision): warps are
        // compared within their CTA, and across CTAs through classes of mirrored CTAs.
        int[] w = new int[n + 1];
        int[] parent = new int[n + 1];
        w[0] = chosen;
        for (int i = 0; i < n; i++) w[i + 1] = (int) alts[i];
        for (int i = 0; i <= n; i++) parent[i] = i;
        Map<Integer, List<Integer>> byCta = new TreeMap<>();
        for (int i = 0; i <= n; i++) byCta.computeIfAbsent(m.ctaOfWarp(w[i]), k -> new ArrayList<>()).add(i);
        for (List<Integer> same : byCta.values()) {
            for (int x = 0; x < same.size(); x++) {
                for (int y = x + 1; y < same.size(); y++) {
                    int i = same.get(x);
                    int j = same.get(y);
                    if (root(parent, i) != root(parent, j) && equivalent(m, w[i], w[j])) union(parent, i, j);
                }
            }
        }
        if (byCta.size() > 1 && crossCtaPossible(m)) {
            // Each CTA joins the first earlier CTA it mirrors (mirroring is an equality, so comparing
            // with one CTA of each class decides it); warps at one position in mirrored CTAs are symmetric.
            List<Integer> reps = new ArrayList<>();
            Map<Integer, Integer> classOf = new HashMap<>();
            for (int cta : byCta.keySet()) {
                int rep = cta;
                for (int r : reps) {
                    if (symmetricCtas(m, r, cta)) { rep = r; break; }
                }
                if (rep == cta) reps.add(cta);
                classOf.put(cta, rep);
            }
            Map<Long, Integer> first = new HashMap<>();
            for (int i = 0; i <= n; i++) {
                long key = (long) classOf.get(m.ctaOfWarp(w[i])) * m.warpsPerCta + m.warpInCta(w[i]);
                Integer f = first.putIfAbsent(key, i);
                if (f != null) union(parent, f, i);
            }
        }
        // Keep, in order, the lowest warp of each class but the chosen warp's (root 0).
        int[] lowest = new int[n + 1];
        Arrays.fill(lowest, Integer.MAX_VALUE);
        for (int i = 1; i <= n; i++) {
            int r = root(parent, i);
            lowest[r] = Math.min(lowest[r], w[i]);
        }
        int chosenClass = root(parent, 0);
        int k = 0;
        for (int i = 1; i <= n; i++) {
            int r = root(parent, i);
            if (r != chosenClass && lowest[r] == w[i]) alts[k++] = w[i];
        }
        return k;
    }

    private static void union(int[] parent, int i, int j) {
        int ri = root(parent, i);
        int rj = root(parent, j);
        if (ri != rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }

    /** Whether two CTAs can mirror each other at all now (see {@link #symmetricCtas}). */
    private static boolean crossCtaPossible(Machine m) {
        return m.cluster.volume() == 1 && m.async.isEmpty();
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    }

    /** Whether warps {@code a} and {@code b} are symmetric now (see the class comment). */
    boolean symmetric(Machine m, int a, int b) {
        ctaPairs.clear();
        return equivalent(m, a, b);
    }

    private boolean equivalent(Machine m, int a, int b) {
        if (a == b) return true;
        int ca = m.ctaOfWarp(a);
        int cb = m.ctaOfWarp(b);
        if (ca == cb) {
            int ia = m.warpInCta(a);
            int ib = m.warpInCta(b);
            for (CtaBarrier bar : m.ctaBarriers[ca].barriers) {
                if (((bar.arrivedWarps >>> ia) & 1) != ((bar.arrivedWarps >>> ib) & 1)) return false;
            }
            return sameWarp(m, a, b, false);
        }
        if (m.warpInCta(a) != m.warpInCta(b)) return false;
        long pair = (long) Math.min(ca, cb) * m.ctas + Math.max(ca, cb);
        Boolean known = ctaPairs.get(pair);
        if (known == null) ctaPairs.put(pair, known = symmetricCtas(m, ca, cb));
        return known;
    }

    /**
     * Whether CTAs {@code x} and {@code y} mirror each other, so that swapping them (warp by warp
     * at the same position) maps the state to itself but for data. Only without clusters of more
     * than one CTA, where CTAs meet only in global memory: a cluster's CTAs differ by rank and
     * reach into each other's shared memory. With no copy in flight (they name their CTA's memory).
     */
    private boolean symmetricCtas(Machine m, int x, int y) {
        if (m.cluster.volume() != 1 || !m.async.isEmpty()) return false;
        if (m.liveWarps[x] != m.liveWarps[y] || m.memory.ctaExited[x] != m.memory.ctaExited[y]) return false;
        CtaBarrier[] bx = m.ctaBarriers[x].barriers;
        CtaBarrier[] by = m.ctaBarriers[y].barriers;
        for (int i = 0; i < bx.length; i++) if (!sameBarrier(bx[i], by[i])) return false;
        ClusterBarrier kx = m.clusterBarriers[x];
        ClusterBarrier ky = m.clusterBarriers[y];
        if (kx.phase != ky.phase || kx.arrived != ky.arrived) return false;
        int nx = 0;
        int ny = 0;
        for (Mbarrier b : m.mbarriers.all()) {
            if (b.cta == y) ny++;
            if (b.cta != x) continue;
            nx++;
            Mbarrier o = m.mbarriers.get(MbarrierUnit.key(y, b.offset));
            if (o == null || !sameMbarrier(b, o)) return false;
        }
        if (nx != ny) return false;
        int w0 = m.firstWarpOfCta(x);
        int w1 = m.firstWarpOfCta(y);
        for (int q = 0; q < m.warpsPerCta; q++) if (!sameWarp(m, w0 + q, w1 + q, true)) return false;
        return true;
    }

    private static boolean sameBarrier(CtaBarrier p, CtaBarrier q) {
        return p.generation == q.generation && p.arrivedWarps == q.arrivedWarps && p.count == q.count
                && Arrays.equals(p.firstPc, q.firstPc) && Arrays.equals(p.firstAligned, q.firstAligned)
                && p.redPopc == q.redPopc && p.redAnd == q.redAnd && p.redOr == q.redOr;
    }

    private static boolean sameMbarrier(Mbarrier p, Mbarrier q) {
        return p.valid == q.valid && p.phase == q.phase && p.pending == q.pending && p.expected == q.expected && p.tx == q.tx
                && p.arrivals == q.arrivals && p.txExpected == q.txExpected && p.txCompleted == q.txCompleted
                && p.observedPrevious == q.observedPrevious && p.version == q.version && p.initPc == q.initPc && p.inits == q.inits;
    }

    /** Per-warp control state; {@code otherCta}: mbarrier keys are compared by offset (each names its own CTA's). */
    private boolean sameWarp(Machine m, int a, int b, boolean otherCta) {
        if (m.existMask[a] != m.existMask[b] || m.liveMask[a] != m.liveMask[b] || m.runMask[a] != m.runMask[b]) return false;
        int live = m.liveMask[a];
        for (int l = m.existMask[a]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (!sameLane(m, (a << 5) + lane, (b << 5) + lane, otherCta)) return false;
        }
        if (!sameRegisters(m, a, b, live)) return false;
        return m.async.isEmpty() || sameCopiesInFlight(m, a, b, live);
    }

    private static boolean sameLane(Machine m, int sa, int sb, boolean otherCta) {
        byte st = m.status[sa];
        if (st != m.status[sb]) return false;
        if (st == ThreadStatus.EXITED || st == ThreadStatus.TRAPPED) return true;
        if (m.pc[sa] != m.pc[sb]) return false;
        boolean mbar = st == ThreadStatus.MBAR_WAIT || st == ThreadStatus.PARKED; // waitValue holds an mbarrier key
        if (st != ThreadStatus.RUNNABLE && (m.waitArg[sa] != m.waitArg[sb] || m.waitArg2[sa] != m.waitArg2[sb]
                || !sameKey(m.waitValue[sa], m.waitValue[sb], otherCta && mbar) || m.wakeTime[sa] != m.wakeTime[sb])) return false;
        if (m.clusterArrivedPhase[sa] != m.clusterArrivedPhase[sb]) return false;
        // What its next poll of an unchanged mbarrier would do (park or not): semantics.md section 9.
        if (!sameKey(m.lastPollKey[sa], m.lastPollKey[sb], otherCta) || m.lastPollVersion[sa] != m.lastPollVersion[sb]) return false;
        if ((m.memory.effects[sa] == m.lastPollEffects[sa]) != (m.memory.effects[sb] == m.lastPollEffects[sb])) return false;
        int depth = m.callDepth[sa];
        if (depth != m.callDepth[sb]) return false;
        return depth == 0 || Arrays.equals(m.callStack[sa], 0, depth, m.callStack[sb], 0, depth);
    }

    /** Equal mbarrier keys; across CTAs the same offset in each one's own shared memory (-1: none). */
    private static boolean sameKey(long p, long q, boolean byOffset) {
        if (!byOffset || p == -1 || q == -1) return p == q;
        return (p & 0xFFFFFFFFL) == (q & 0xFFFFFFFFL);
    }

    private boolean sameRegisters(Machine m, int a, int b, int live) {
        int ra = a * 32 * m.regsPerThread;
        int rb = b * 32 * m.regsPerThread;
        long[] regs = m.regs;
        for (int r : keyRegs) {
            int pa = ra + (r << 5);
            int pb = rb + (r << 5);
            if (live == -1) {
                if (!Arrays.equals(regs, pa, pa + 32, regs, pb, pb + 32)) return false;
                continue;
            }
            for (int l = live; l != 0; l &= l - 1) {
                int lane = Integer.numberOfTrailingZeros(l);
                if (regs[pa + lane] != regs[pb + lane]) return false;
            }
        }
        return true;
    }

    /** Committed cp.async and bulk groups still in flight per lane, by age: what a wait_group waits on. */
    private static boolean sameCopiesInFlight(Machine m, int a, int b, int live) {
        for (int l = live; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int sa = (a << 5) + lane;
            int sb = (b << 5) + lane;
            // Which groups, by age, not how many: wait_group N waits for every group older than the newest N.
            if (!Arrays.equals(m.async.pendingGroupAges(sa, false), m.async.pendingGroupAges(sb, false))
                    || !Arrays.equals(m.async.pendingGroupAges(sa, true), m.async.pendingGroupAges(sb, true))) return false;
        }
        return true;
    }
}
