package io.barrierscope.exec;

/** A lane op given as a lambda; the common case for arithmetic, conversions and memory. */
public final class FnOp extends LaneOp {
    /** The work for one thread slot. */
    @FunctionalInterface
    public interface LaneFn {
        void run(Machine m, int t);
    }

    private final LaneFn fn;

    public FnOp(LaneFn fn) { this.fn = fn; }

    @Override
    protected void lane(Machine m, int t) { fn.run(m, t); }
}
