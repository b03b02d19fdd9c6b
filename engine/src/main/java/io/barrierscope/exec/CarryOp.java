package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;

/**
 * Extended-precision arithmetic (PTX ISA 9.7.2): {@code add.cc}, {@code addc{.cc}},
 * {@code sub.cc}, {@code subc{.cc}}, {@code mad{.lo,.hi}.cc} and {@code madc{.lo,.hi}{.cc}} on
 * 32/64-bit integers. The condition code's carry flag is per thread ({@link Machine#carry}); for
 * subtraction it holds the borrow. mad adds the low or high half of the full product a*b (signed
 * for .s32/.s64) to c, plus the carry for madc; the carry out is that of the unsigned addition.
 */
final class CarryOp extends LaneOp {
    private final boolean sub;
    private final boolean carryIn;
    private final boolean carryOut;
    private final int bits;
    private final int d;
    private final Src a;
    private final Src b;
    /** mad: the addend c, whether the high half of the product is taken, and whether it is signed. */
    private Src c;
    private boolean hi;
    private boolean signed;

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
        if (opc.startsWith("mad")) {
            boolean hi = c.has(".hi");
            if (hi == c.has(".lo") || c.has(".wide")) throw c.error(c.insn().mnemonic() + " needs .lo or .hi (no .wide with a carry chain)");
            c.expectOperands(4, 4);
            CarryOp op = new CarryOp(false, opc.equals("madc"), c.has(".cc"), t.bits(), c.dst(0), c.src(1, t), c.src(2, t));
            op.c = c.src(3, t);
            op.hi = hi;
            op.signed = t.isSigned();
            return op;
        }
        c.expectOperands(3, 3);
        boolean chained = opc.endsWith("c");
        return new CarryOp(opc.startsWith("sub"), chained, c.has(".cc"), t.bits(), c.dst(0), c.src(1, t), c.src(2, t));
    }

    @Override
    protected void lane(Machine m, int t) {
        long mask = bits == 64 ? -1L : 0xFFFFFFFFL;
        long x = a.get(m, t) & mask;
        long y = b.get(m, t) & mask;
        if (c != null) {
            // The product's half becomes the first addend; c the second.
            long pa = x;
            long pb = y;
            x = hi ? high(pa, pb) & mask : (pa * pb) & mask;
            y = c.get(m, t) & mask;
        }
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

    /** The high half of the full 2*bits-bit product of two bits-bit operands. */
    private long high(long x, long y) {
        if (bits == 32) {
            long p = signed ? (long) (int) x * (long) (int) y : x * y;
            return p >>> 32;
        }
        long h = Math.multiplyHigh(x, y);
        return signed ? h : h + ((x >> 63) & y) + ((y >> 63) & x); // the unsigned high half (Java 17 has no unsignedMultiplyHigh)
    }
}
