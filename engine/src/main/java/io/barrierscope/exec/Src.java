package io.barrierscope.exec;

/** A compiled source operand: yields the raw 64-bit value for one thread slot. */
@FunctionalInterface
public interface Src {
    long get(Machine m, int t);

    static Src imm(long v) { return (m, t) -> v; }

    static Src reg(int index) {
        return (m, t) -> m.regs[m.regIndex(t, index)];
    }

    static Src notPred(int index) {
        return (m, t) -> m.regs[m.regIndex(t, index)] ^ 1L;
    }
}
