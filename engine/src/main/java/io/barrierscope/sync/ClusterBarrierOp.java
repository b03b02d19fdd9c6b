package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.ThreadStatus;

/**
 * {@code barrier.cluster.arrive{.release,.relaxed}{.aligned}} and
 * {@code barrier.cluster.wait{.acquire}{.aligned}}. Each thread first waits for the non-exited
 * threads of its warp to reach a barrier.cluster instruction; see {@link ClusterBarrierSync}.
 */
public final class ClusterBarrierOp extends Op {
    public final boolean wait;
    public final boolean aligned;
    public final boolean relaxed;

    public ClusterBarrierOp(boolean wait, boolean aligned, boolean relaxed) {
        this.wait = wait;
        this.aligned = aligned;
        this.relaxed = relaxed;
    }


    @Override
    public boolean isSynchronizing() { return true; }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        advance(m, warp, group & ~active);
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) m.setStatus(base + Integer.numberOfTrailingZeros(a), ThreadStatus.CLUSTER_GATHER);
        ClusterBarrierSync.tryGather(x, warp);
    }
}
