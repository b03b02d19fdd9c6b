package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;

/**
 * Extended-precision arithmetic (PTX ISA 9.7.2): {@code add.cc}, {@code addc{.cc}},
 * {@code sub.cc}, {@code subc{.cc}} on 32/64-bit integers. The condition code's carry flag is
 * per thread ({@link Machine#carry}); for subtraction it holds the borrow.
 */
final class CarryOp extends LaneOp {
    private final boolean sub;
    private final boolean carryIn;
    private final boolean carryOut;
    private final int bits;
    private final int d;
    private final Src a;
    private final Src b;

    private CarryOp(boolean sub, boolean carryIn, boolean carryOut, int bits, int d, Src a, Src b) {
        this.sub = sub;
        this.carryIn = carryIn;
        this.carryOut = carryOut;
        this.bits = bits;
        this.d = d;
        this.a = a;
        this.b = b;
    }

    static Op compile(CompileContext c, String opc) {
        ScalarType t = c.type();
        if (t.isFloat() || (t.bits() != 32 && t.bits() != 64)) throw c.error(c.insn().mnemonic() + " needs a 32- or 64-bit integer type");
        if (c.has(".sat")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.sat with a carry chain)");
        c.expectOperands(3, 3);
        boolean chained = opc.endsWith("c");
        return new CarryOp(opc.startsWith("sub"), chained, c.has(".cc"), t.bits(), c.dst(0), c.src(1, t), c.src(2, t));
    }

    @Override
    protected void lane(Machine m, int t) {
        long mask = bits == 64 ? -1L : 0xFFFFFFFFL;
        long x = a.get(m, t) & mask;
        long y = b.get(m, t) & mask;
        long cin = carryIn ? m.carry[t] : 0;
        long r;
        boolean out;
        if (sub) {
            r = x - y - cin;
            // Borrow when x < y + cin, compared without overflow.
            out = Long.compareUnsigned(x, y) < 0 || (cin != 0 && x == y);
        } else {
            r = x + y + cin;
            out = bits == 64 ? Long.compareUnsigned(r, x) < 0 || (cin != 0 && r == x) : (r >>> 32) != 0;
        }
        if (d >= 0) m.setReg(t, d, r & mask);
        if (carryOut) m.carry[t] = (byte) (out ? 1 : 0);
    }
}
