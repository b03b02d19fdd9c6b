package io.barrierscope.exec;

/**
 * {@code fence{.sc,.acq_rel}}, {@code membar} and {@code fence.mbarrier_init}: nothing changes in
 * the sequentially consistent execution, but for the race detector a fence acquires what earlier
 * relaxed loads observed and publishes the thread's work to later relaxed stores and arrives
 * (the fence + flag pattern, semantics.md section 8).
 */
final class FenceOp extends LaneOp {
    /** MemoryModelHook.SCOPE_*: which threads' operations the fence can synchronize with (semantics.md section 8). */
    private final int scope;
    /** fence.mbarrier_init: releases the thread's earlier mbarrier.init operations only (PTX ISA 9.7.13.4). */
    private final boolean initsOnly;

    FenceOp(int scope) { this(scope, false); }

    FenceOp(int scope, boolean initsOnly) {
        this.scope = scope;
        this.initsOnly = initsOnly;
    }

    @Override
    protected void lane(Machine m, int t) {
        if (m.race == null) return;
        if (initsOnly) m.race.fenceMbarrierInit(t);
        else m.race.fence(t, scope);
    }
}
