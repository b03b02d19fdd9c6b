package io.barrierscope.app.session;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.ClusterBarrierSync;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import io.barrierscope.sync.MbarrierWaitOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies every thread's state out of a live run into a {@link ThreadsState}: lanes grouped per
 * warp by state, PC and wait, and what each group waits on in words. Engine thread only; it reads
 * machine arrays and never changes them.
 */
final class ThreadCapture {
    private ThreadCapture() {}

    static ThreadsState capture(LaunchedRun run) {
        Machine m = run.machine();
        Op[] code = run.program().code;
        List<ThreadsState.Cta> ctas = new ArrayList<>(m.ctas);
        for (int c = 0; c < m.ctas; c++) {
            int first = m.memory.clusterMembers[c][0];
            Dim3 id = m.grid.unflatten(first);
            Dim3 cl = new Dim3(id.x() / m.cluster.x(), id.y() / m.cluster.y(), id.z() / m.cluster.z());
            int clusterIndex = cl.x() + cl.y() * (m.grid.x() / m.cluster.x())
                    + cl.z() * (m.grid.x() / m.cluster.x()) * (m.grid.y() / m.cluster.y());
            ctas.add(new ThreadsState.Cta(c, StateCapture.ctaName(m, c), clusterIndex, "cluster " + cl));
        }
        List<ThreadsState.Warp> warps = new ArrayList<>(m.warps);
        for (int w = 0; w < m.warps; w++) {
            warps.add(new ThreadsState.Warp(w, m.ctaOfWarp(w), m.warpInCta(w), m.existMask[w], groups(m, code, w)));
        }
        return new ThreadsState(m.grid, m.block, m.cluster, List.copyOf(ctas), List.copyOf(warps));
    }

    /** The warp's existing lanes grouped by what they are doing, in order of their lowest lane. */
    private static List<ThreadsState.LaneGroup> groups(Machine m, Op[] code, int w) {
        Map<Long, Integer> byKey = new LinkedHashMap<>();
        Map<Long, Integer> firstSlot = new LinkedHashMap<>();
        for (int l = m.existMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = (w << 5) + lane;
            long key = key(m, s);
            byKey.merge(key, 1 << lane, (a, b) -> a | b);
            firstSlot.putIfAbsent(key, s);
        }
        List<ThreadsState.LaneGroup> out = new ArrayList<>(byKey.size());
        for (Map.Entry<Long, Integer> e : byKey.entrySet()) {
            int s = firstSlot.get(e.getKey());
            byte st = m.status[s];
            boolean gone = st == ThreadStatus.EXITED;
            int pc = m.pc[s];
            Instruction in = !gone && pc >= 0 && pc < code.length ? code[pc].insn : null;
            out.add(new ThreadsState.LaneGroup(e.getValue(), st, pc, in == null ? 0 : in.pos().line(),
                    in == null ? null : in.loc(), waitsOn(m, code, s), waitsOnKey(m, s)));
        }
        return List.copyOf(out);
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
                int expected = b.count > 0 ? (b.count + 31) / 32 : Integer.bitCount(m.liveWarps[cta]);
                return "bar " + id + " · gen " + b.generation + " · " + b.arrivedCount() + "/" + expected + " warps";
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
                boolean bulk = m.waitArg2[s] == 1;
                return (bulk ? "bulk async-group" : "cp.async group") + " · until ≤ " + m.waitArg[s]
                        + " pending (" + m.async.groupsInFlight(s, bulk) + " in flight)";
            }
            case ThreadStatus.SLEEPING:
                return "nanosleep · until cycle " + m.wakeTime[s];
            default:
                return "";
        }
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
