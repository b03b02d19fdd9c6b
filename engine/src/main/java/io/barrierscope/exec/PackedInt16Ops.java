package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;

/**
 * Packed 16-bit integer SIMD arithmetic (PTX ISA 9.7.1.1 add, 9.7.1.13 min, 9.7.1.14 max; PTX
 * ISA 8.0, sm_90): {@code add.{u16x2,s16x2}}, {@code min/max.{u16x2,s16x2}} and
 * {@code min/max.relu.s16x2} on .b32 operands, each 16-bit half (bits 0-15, 16-31) on its own:
 * add wraps modulo 2^16; min and max compare the halves as unsigned (.u16x2) or signed (.s16x2)
 * and .relu then makes a negative result 0. nvcc emits them for CUDA's {@code __vadd2},
 * {@code __vsub2} (an add of the negated halves), {@code __vmaxs2}, {@code __vminu2} and kin.
 * The ISA lists no {@code .sat} for them and no packed {@code sub} for sm_90: refused by name.
 */
final class PackedInt16Ops extends LaneOp {
    private final boolean add;
    private final boolean max;
    private final boolean signed;
    private final boolean relu;
    private final int d;
    private final Src a, b;

    private PackedInt16Ops(boolean add, boolean max, boolean signed, boolean relu, int d, Src a, Src b) {
        this.add = add;
        this.max = max;
        this.signed = signed;
        this.relu = relu;
        this.d = d;
        this.a = a;
        this.b = b;
    }

    /** Whether the instruction names a packed 16-bit integer type. */
    static boolean names(CompileContext c) { return c.has(".u16x2") || c.has(".s16x2"); }

    static Op compile(CompileContext c, String opc) {
        String mn = c.insn().mnemonic();
        boolean s = c.has(".s16x2");
        if (s == c.has(".u16x2") || !c.types().isEmpty()) throw c.error(mn + " needs exactly one type, .u16x2 or .s16x2");
        if (!opc.equals("add") && !opc.equals("min") && !opc.equals("max")) {
            throw c.error("unsupported instruction " + mn + " (the ISA's packed 16-bit integer forms for sm_90 are add, min and max"
                    + " on .u16x2/.s16x2, and min/max.relu on .s16x2; PTX ISA 9.7.1)");
        }
        for (String m : c.insn().modifiers()) {
            boolean ok = m.equals(".u16x2") || m.equals(".s16x2") || (m.equals(".relu") && !opc.equals("add"));
            if (!ok) throw c.error("unsupported instruction " + mn + " (" + m + " does not apply to " + opc + " on packed 16-bit integers)");
        }
        boolean relu = c.has(".relu");
        if (relu && !s) throw c.error("unsupported instruction " + mn + " (.relu applies to .s16x2 only)");
        c.expectOperands(3, 3);
        c.expectB32Registers(3, opc + " on packed 16-bit integers");
        return new PackedInt16Ops(opc.equals("add"), opc.equals("max"), s, relu, c.dst(0), c.src(1, ScalarType.B32), c.src(2, ScalarType.B32));
    }

    private long half(long v, int i) {
        long x = (v >>> (16 * i)) & 0xFFFF;
        return signed && x >= 0x8000 ? x - 0x10000 : x;
    }

    @Override
    protected void lane(Machine m, int t) {
        long x = a.get(m, t);
        long y = b.get(m, t);
        long r = 0;
        for (int i = 0; i < 2; i++) {
            long p = half(x, i);
            long q = half(y, i);
            long v = add ? p + q : max ? Math.max(p, q) : Math.min(p, q);
            if (relu && v < 0) v = 0;
            r |= (v & 0xFFFF) << (16 * i);
        }
        if (d >= 0) m.setReg(t, d, r);
    }
}
