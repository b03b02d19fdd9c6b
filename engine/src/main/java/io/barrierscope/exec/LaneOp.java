package io.barrierscope.exec;

/** An op that works lane by lane with no interaction between threads (arithmetic, loads, stores). */
public abstract class LaneOp extends Op {

    /** Executes for one thread slot. */
    protected abstract void lane(Machine m, int t);

    @Override
    public final void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            lane(m, base + Integer.numberOfTrailingZeros(a));
        }
        advance(m, warp, group);
    }
}
