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

    FenceOp(int scope) { this.scope = scope; }

    @Override
    protected void lane(Machine m, int t) {
        if (m.race != null) m.race.fence(t, scope);
    }
}
