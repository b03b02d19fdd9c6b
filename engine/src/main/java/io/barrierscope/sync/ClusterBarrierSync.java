package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;

/**
 * The rules of barrier.cluster (semantics.md section 5): per-thread arrive then wait, each
 * thread arriving once per phase; a wait passes once every non-exited thread of the cluster
 * arrived in the phase the waiter arrived in. Re-checked when threads exit.
 */
public final class ClusterBarrierSync {
    private ClusterBarrierSync() {}

    /** Processes the warp's lanes once all its live lanes are at a barrier.cluster instruction. */
    static void tryGather(Interpreter x, int warp) {
        Machine m = x.machine();
        int base = warp << 5;
        int live = m.liveMask[warp];
        int gathered = 0;
        for (int l = live; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (m.status[base + lane] == ThreadStatus.CLUSTER_GATHER) gathered |= 1 << lane;
        }
        if (gathered == 0 || gathered != live) return;
        int first = base + Integer.numberOfTrailingZeros(gathered);
        ClusterBarrierOp op0 = (ClusterBarrierOp) x.op(m.pc[first]);
        for (int g = gathered; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            ClusterBarrierOp op = (ClusterBarrierOp) x.op(m.pc[s]);
            if (m.pc[s] != m.pc[first] && (op.aligned || op0.aligned)) {
                x.report(DiagnosticCode.CLUSTER_BARRIER_DIVERGENCE, "threads of " + m.warpName(warp) + " reached aligned "
                        + "barrier.cluster through different instructions, at " + x.where(m.pc[first]) + " and at "
                        + x.where(m.pc[s]) + "; .aligned requires the whole warp to execute the same one (PTX ISA 9.7.13.3)",
                        new int[] {m.pc[first], m.pc[s]}, new int[] {first, s},
                        BarrierRefs.clusterBarrier(m, m.ctaOfWarp(warp), "barrier.cluster"));
                return;
            }
        }
        ClusterBarrier cb = m.clusterBarriers[m.ctaOfWarp(warp)];
        for (int g = gathered; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            ClusterBarrierOp op = (ClusterBarrierOp) x.op(m.pc[s]);
            if (op.wait) {
                long arrivedIn = m.clusterArrivedPhase[s];
                if (arrivedIn < 0) {
                    x.report(DiagnosticCode.CLUSTER_BARRIER_WAIT_WITHOUT_ARRIVE, m.threadName(s) + " executed barrier.cluster.wait at "
                            + x.where(m.pc[s]) + " without a barrier.cluster.arrive before it (PTX ISA 9.7.13.3)",
                            new int[] {m.pc[s]}, new int[] {s},
                            BarrierRefs.clusterBarrier(m, m.ctaOfSlot(s), "barrier.cluster"));
                    return;
                }
                if (cb.phase > arrivedIn) pass(m, s, cb);
                else m.setStatus(s, ThreadStatus.CLUSTER_WAIT);
            } else {
                if (m.clusterArrivedPhase[s] >= 0) {
                    x.report(DiagnosticCode.CLUSTER_BARRIER_OVER_ARRIVAL, m.threadName(s) + " arrived on barrier.cluster again at "
                            + x.where(m.pc[s]) + " before waiting for the phase it arrived in (phase "
                            + m.clusterArrivedPhase[s] + "); each thread arrives once per phase (PTX ISA 9.7.13.3)",
                            new int[] {m.pc[s]}, new int[] {s},
                            BarrierRefs.clusterBarrier(m, m.ctaOfSlot(s), "barrier.cluster"));
                    return;
                }
                m.clusterArrivedPhase[s] = cb.phase;
                cb.arrived++;
                if (m.race != null) m.race.clusterArrive(s, cb.firstCta, op.relaxed);
                m.memory.effects[s]++;
                if (x.observed()) x.emit(SyncEvent.CLUSTER_ARRIVE, s, cb.firstCta, cb.phase, 0);
                m.pc[s]++;
                m.setStatus(s, ThreadStatus.RUNNABLE);
            }
        }
        m.uniform[warp] = false;
        checkComplete(x, cb);
    }

    private static void pass(Machine m, int s, ClusterBarrier cb) {
        if (m.race != null) m.race.clusterAcquire(s, cb.firstCta);
        m.clusterArrivedPhase[s] = -1;
        m.pc[s]++;
        m.uniform[s >> 5] = false;
        m.setStatus(s, ThreadStatus.RUNNABLE);
    }

    /** Live threads of the cluster whose CTA is {@code cb.firstCta}'s. */
    public static int liveThreads(Machine m, ClusterBarrier cb) {
        int n = 0;
        for (int cta : m.memory.clusterMembers[cb.firstCta]) {
            int w0 = m.firstWarpOfCta(cta);
            for (int w = w0; w < w0 + m.warpsPerCta; w++) n += Integer.bitCount(m.liveMask[w]);
        }
        return n;
    }

    static void checkComplete(Interpreter x, ClusterBarrier cb) {
        Machine m = x.machine();
        if (cb.arrived == 0 || cb.arrived < liveThreads(m, cb)) return;
        cb.phase++;
        cb.arrived = 0;
        if (m.race != null) m.race.clusterComplete(cb.firstCta);
        if (x.observed()) x.emit(SyncEvent.CLUSTER_COMPLETE, -1, cb.firstCta, cb.phase - 1, 0);
        for (int cta : m.memory.clusterMembers[cb.firstCta]) {
            int w0 = m.firstWarpOfCta(cta);
            for (int w = w0; w < w0 + m.warpsPerCta; w++) {
                for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
                    int s = (w << 5) + Integer.numberOfTrailingZeros(l);
                    if (m.status[s] == ThreadStatus.CLUSTER_WAIT && m.clusterArrivedPhase[s] < cb.phase) pass(m, s, cb);
                }
            }
        }
    }

    /** Exited threads no longer count: the barrier may complete; their warp may now be gathered. */
    public static void onExit(Interpreter x, int warp, int exitedLanes) {
        Machine m = x.machine();
        ClusterBarrier cb = m.clusterBarriers[m.ctaOfWarp(warp)];
        int base = warp << 5;
        for (int l = exitedLanes; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            if (m.clusterArrivedPhase[s] == cb.phase) cb.arrived--;
        }
        tryGather(x, warp);
        if (!x.finished()) checkComplete(x, cb);
    }
}
