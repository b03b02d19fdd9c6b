package io.barrierscope.app.session;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.RegisterPool;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.exec.WgmmaGroups;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.ClusterBarrierSync;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import io.barrierscope.sync.MbarrierWaitOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies every thread's state out of a live run into a {@link ThreadsState}: lanes grouped per
 * warp by state, PC and wait, and what each group waits on in words. Engine thread only; it reads
 * machine arrays and never changes them.
 *
 * <p>Incremental: one instance follows one run and keeps the records it made last. A warp whose
 * lane groups come out the same keeps its old record (the same object), and a capture where no
 * warp changed returns the previous {@link ThreadsState} itself, so the threads pane rebuilds only
 * the rows of warps that moved. A step changes one warp (a barrier's completion a CTA), so a
 * step's capture allocates for those alone; the rest is a scan of primitive arrays.
 */
final class ThreadCapture {
    private final LaunchedRun run;
    private List<ThreadsState.Cta> ctas;
    private ThreadsState.Warp[] warps;
    private ThreadsState last;
    // Scratch for one warp's grouping: at most 32 groups.
    private final long[] keys = new long[32];
    private final int[] masks = new int[32];
    private final int[] firsts = new int[32];
    // The lane state each warp's record was made from, to find the warps that changed by comparing
    // arrays (a vectorised scan) rather than regrouping every warp's lanes at every capture.
    private byte[] seenStatus;
    private int[] seenPc;
    private int[] seenWaitArg;
    private long[] seenWaitValue;
    private int[] seenExist;

    ThreadCapture(LaunchedRun run) { this.run = run; }

    /** Every thread's state now: the previous result itself when no warp changed. */
    ThreadsState capture() {
        Machine m = run.machine();
        Op[] code = run.program().code;
        if (ctas == null) {
            ctas = ctas(m);
            warps = new ThreadsState.Warp[m.warps];
            seenStatus = new byte[m.status.length];
            seenPc = new int[m.pc.length];
            seenWaitArg = new int[m.waitArg.length];
            seenWaitValue = new long[m.waitValue.length];
            seenExist = new int[m.warps];
        }
        boolean changed = last == null;
        for (int w = 0; w < m.warps; w++) {
            ThreadsState.Warp old = warps[w];
            boolean asSeen = old != null && lanesAsSeen(m, w);
            List<ThreadsState.LaneGroup> groups = asSeen
                    ? regroupAsBefore(m, code, w, old.groups()) : groups(m, code, w, old == null ? null : old.groups());
            if (!asSeen) remember(m, w);
            if (old != null && groups == old.groups()) continue;
            warps[w] = new ThreadsState.Warp(w, m.ctaOfWarp(w), m.warpInCta(w), m.existMask[w], groups);
            changed = true;
        }
        if (changed) last = new ThreadsState(m.grid, m.block, m.cluster, ctas, List.of(warps));
        return last;
    }

    /** Whether the warp's lanes have the state its record was made from (so they group as before). */
    private boolean lanesAsSeen(Machine m, int w) {
        int from = w << 5;
        int to = from + 32;
        return seenExist[w] == m.existMask[w]
                && java.util.Arrays.mismatch(seenStatus, from, to, m.status, from, to) < 0
                && java.util.Arrays.mismatch(seenPc, from, to, m.pc, from, to) < 0
                && java.util.Arrays.mismatch(seenWaitArg, from, to, m.waitArg, from, to) < 0
                && java.util.Arrays.mismatch(seenWaitValue, from, to, m.waitValue, from, to) < 0;
    }

    private void remember(Machine m, int w) {
        int from = w << 5;
        System.arraycopy(m.status, from, seenStatus, from, 32);
        System.arraycopy(m.pc, from, seenPc, from, 32);
        System.arraycopy(m.waitArg, from, seenWaitArg, from, 32);
        System.arraycopy(m.waitValue, from, seenWaitValue, from, 32);
        seenExist[w] = m.existMask[w];
    }

    /**
     * The groups of a warp whose lanes are as they were: the same lanes together; only what a
     * waiting group waits on can read differently (a barrier's count moved on), so only those
     * are made again. {@code old} itself when nothing reads differently.
     */
    private static List<ThreadsState.LaneGroup> regroupAsBefore(Machine m, Op[] code, int w, List<ThreadsState.LaneGroup> old) {
        ThreadsState.LaneGroup[] out = null;
        for (int g = 0; g < old.size(); g++) {
            ThreadsState.LaneGroup was = old.get(g);
            if (was.status() == ThreadStatus.RUNNABLE || was.status() == ThreadStatus.EXITED) continue;
            int slot = (w << 5) + Integer.numberOfTrailingZeros(was.lanes());
            ThreadsState.LaneGroup now = group(m, code, was.lanes(), slot, was);
            if (now == was) continue;
            if (out == null) out = old.toArray(new ThreadsState.LaneGroup[0]);
            out[g] = now;
        }
        return out == null ? old : List.of(out);
    }

    /** The CTAs with their names and clusters: fixed for a run, made once. */
    private static List<ThreadsState.Cta> ctas(Machine m) {
        List<ThreadsState.Cta> ctas = new ArrayList<>(m.ctas);
        for (int c = 0; c < m.ctas; c++) {
            int first = m.memory.clusterMembers[c][0];
            Dim3 id = m.grid.unflatten(first);
            Dim3 cl = new Dim3(id.x() / m.cluster.x(), id.y() / m.cluster.y(), id.z() / m.cluster.z());
            int clusterIndex = cl.x() + cl.y() * (m.grid.x() / m.cluster.x())
                    + cl.z() * (m.grid.x() / m.cluster.x()) * (m.grid.y() / m.cluster.y());
            ctas.add(new ThreadsState.Cta(c, StateCapture.ctaName(m, c), clusterIndex, "cluster " + cl));
        }
        return List.copyOf(ctas);
    }

    /**
     * The warp's existing lanes grouped by what they are doing, in order of their lowest lane;
     * {@code old} itself when every group is as it was.
     */
    private List<ThreadsState.LaneGroup> groups(Machine m, Op[] code, int w, List<ThreadsState.LaneGroup> old) {
        int n = 0;
        for (int l = m.existMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = (w << 5) + lane;
            long key = key(m, s);
            int g = 0;
            while (g < n && keys[g] != key) g++;
            if (g == n) {
                keys[n] = key;
                masks[n] = 0;
                firsts[n] = s;
                n++;
            }
            masks[g] |= 1 << lane;
        }
        boolean same = old != null && old.size() == n;
        ThreadsState.LaneGroup[] out = new ThreadsState.LaneGroup[n];
        for (int g = 0; g < n; g++) {
            ThreadsState.LaneGroup was = same ? old.get(g) : null;
            ThreadsState.LaneGroup now = group(m, code, masks[g], firsts[g], was);
            same &= now == was;
            out[g] = now;
        }
        return same ? old : List.of(out);
    }

    /** One group's record; {@code was} itself when it would be equal to it. */
    private static ThreadsState.LaneGroup group(Machine m, Op[] code, int lanes, int s, ThreadsState.LaneGroup was) {
        byte st = m.status[s];
        boolean gone = st == ThreadStatus.EXITED;
        int pc = m.pc[s];
        if (was != null && was.lanes() == lanes && was.status() == st && was.pc() == pc
                && (st == ThreadStatus.RUNNABLE || gone)) {
            return was; // nothing it waits on: lanes, state and PC say it all
        }
        Instruction in = !gone && pc >= 0 && pc < code.length ? code[pc].insn : null;
        ThreadsState.LaneGroup now = new ThreadsState.LaneGroup(lanes, st, pc, in == null ? 0 : in.pos().line(),
                in == null ? null : in.loc(), waitsOn(m, code, s), waitsOnKey(m, s));
        return now.equals(was) ? was : now;
    }

    /** Lanes with the same key are in the same situation: status, PC and what they wait on. */
    private static long key(Machine m, int s) {
        byte st = m.status[s];
        if (st == ThreadStatus.EXITED) return -1;
        long wait = switch (st) {
            case ThreadStatus.MBAR_WAIT, ThreadStatus.PARKED -> m.waitValue[s] * 31 + m.waitArg[s];
            case ThreadStatus.RUNNABLE, ThreadStatus.TRAPPED -> 0;
            default -> m.waitArg[s];
        };
        return ((long) st << 56) ^ ((long) m.pc[s] << 24) ^ wait;
    }

    /** What a thread waits on, in words; "" when it does not wait. */
    static String waitsOn(Machine m, Op[] code, int s) {
        byte st = m.status[s];
        int cta = m.ctaOfSlot(s);
        switch (st) {
            case ThreadStatus.BAR_GATHER:
                return "bar " + m.waitArg[s] + " · gathering its warp";
            case ThreadStatus.BAR_WAIT: {
                int id = m.waitArg[s];
                CtaBarrier b = m.ctaBarriers[cta].get(id);
                return "bar " + id + " · gen " + b.generation + " · " + b.arrivedCount() + "/"
                        + b.warpsNeeded(m.liveWarps[cta]) + " warps";
            }
            case ThreadStatus.WARP_SYNC:
                return "warp sync · mask 0x" + String.format("%08x", m.waitArg[s]);
            case ThreadStatus.MBAR_WAIT:
            case ThreadStatus.PARKED:
                return mbarrierWait(m, code, s);
            case ThreadStatus.CLUSTER_GATHER:
                return "barrier.cluster · gathering its warp";
            case ThreadStatus.CLUSTER_WAIT: {
                ClusterBarrier cb = m.clusterBarriers[cta];
                return "barrier.cluster · phase " + cb.phase + " · " + cb.arrived + "/"
                        + ClusterBarrierSync.liveThreads(m, cb) + " threads";
            }
            case ThreadStatus.ASYNC_WAIT: {
                if (m.waitArg2[s] == WgmmaGroups.WAITING) return "wgmma.wait_group " + m.waitArg[s];
                if (m.waitArg2[s] == RegisterPool.REGISTERS) return "setmaxnreg";
                boolean bulk = m.waitArg2[s] == 1;
                return groupWait(bulk, m.waitArg[s], m.async.pendingGroupAges(s, bulk));
            }
            case ThreadStatus.SLEEPING:
                return "nanosleep · until cycle " + m.wakeTime[s];
            default:
                return "";
        }
    }

    /**
     * A wait_group N in words: it waits until every committed group older than the thread's newest
     * N has completed (PTX ISA 9.7.9.25.3, 9.7.9.25.6), not until "at most N are pending" (copies
     * complete out of order). {@code ages}: the groups still in flight, 1 for the newest committed.
     */
    static String groupWait(boolean bulk, int n, long[] ages) {
        int older = 0;
        for (long a : ages) if (a > n) older++;
        return (bulk ? "bulk async-group" : "cp.async group") + " · until "
                + (n == 0 ? "every committed group" : "every group older than the newest " + n)
                + " has completed (" + older + " of them still in flight)";
    }

    /** The barrier a thread waits on, as the barriers pane keys it; null when it waits on none of the pane's. */
    static BarrierKey waitsOnKey(Machine m, int s) {
        int cta = m.ctaOfSlot(s);
        switch (m.status[s]) {
            case ThreadStatus.BAR_GATHER:
            case ThreadStatus.BAR_WAIT:
                return new BarrierKey(BarrierKey.Kind.CTA_BARRIER, cta, m.waitArg[s]);
            case ThreadStatus.MBAR_WAIT:
            case ThreadStatus.PARKED: {
                Mbarrier b = m.mbarriers.get(m.waitValue[s]);
                return b == null ? null : new BarrierKey(BarrierKey.Kind.MBARRIER, b.cta, b.offset);
            }
            case ThreadStatus.CLUSTER_GATHER:
            case ThreadStatus.CLUSTER_WAIT:
                return new BarrierKey(BarrierKey.Kind.CLUSTER_BARRIER, m.clusterBarriers[cta].firstCta, 0);
            default:
                return null;
        }
    }

    /** E.g. "mbarrier full+8 (shared 0x18) · phase 3 · waits for parity 1". */
    private static String mbarrierWait(Machine m, Op[] code, int s) {
        Mbarrier b = m.mbarriers.get(m.waitValue[s]);
        if (b == null) return "mbarrier";
        StringBuilder sb = new StringBuilder("mbarrier ").append(MbarrierOp.name(m, b.offset));
        if (b.cta != m.ctaOfSlot(s)) sb.append(" of ").append(StateCapture.ctaName(m, b.cta));
        sb.append(" · phase ").append(b.phase);
        int pc = m.pc[s];
        if (pc >= 0 && pc < code.length && code[pc] instanceof MbarrierWaitOp wait) {
            if (wait.isParity()) sb.append(" · waits for parity ").append(wait.operandValue(m, s) & 1);
            else sb.append(" · waits with a token");
        }
        return sb.toString();
    }
}
