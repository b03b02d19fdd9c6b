package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * Integer dot products and sum of absolute difference (PTX ISA 9.7.1): {@code dp4a.atype.btype
 * d, a, b, c} adds to c the four products of a's and b's bytes; {@code dp2a.mode.atype.btype}
 * the two products of a's 16-bit halves with b's bytes 0 and 1 ({@code .lo}) or 2 and 3
 * ({@code .hi}); {@code .s32} operands' parts are sign-extended, {@code .u32} ones zero-extended;
 * the sum wraps modulo 2^32. {@code sad.type d, a, b, c} is c + |a - b|, wrapping in the type's
 * width (CUDA's __dp4a, __dp2a_lo/hi, __sad, __usad).
 */
final class DotOps extends LaneOp {
    private final int kind; // 4: dp4a, 2: dp2a, 0: sad
    private final boolean hi;
    private final boolean aSigned;
    private final boolean bSigned;
    private final ScalarType sadType;
    private final int d;
    private final Src a, b, c;

    private DotOps(int kind, boolean hi, boolean aSigned, boolean bSigned, ScalarType sadType, int d, Src a, Src b, Src c) {
        this.kind = kind;
        this.hi = hi;
        this.aSigned = aSigned;
        this.bSigned = bSigned;
        this.sadType = sadType;
        this.d = d;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    static Op compile(CompileContext c, String opc) {
        c.expectOperands(4, 4);
        if (opc.equals("sad")) {
            ScalarType t = c.type();
            // .type = {.u16, .u32, .u64, .s16, .s32, .s64}: no bit-size types (their signedness is not given).
            if (t.isFloat() || t.bits() < 16 || t.bits() > 64 || t == ScalarType.PRED || t.ptxName().startsWith("b")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (sad takes 16-, 32- and 64-bit integers)");
            }
            return new DotOps(0, false, false, false, t, c.dst(0), c.src(1, t), c.src(2, t), c.src(3, t));
        }
        List<ScalarType> ts = c.types();
        if (ts.size() != 2 || ts.stream().anyMatch(t -> t != ScalarType.S32 && t != ScalarType.U32)) {
            throw c.error(c.insn().mnemonic() + " needs two types, each .u32 or .s32");
        }
        boolean hi = c.has(".hi");
        if (opc.equals("dp2a") && hi == c.has(".lo")) throw c.error(c.insn().mnemonic() + " needs .lo or .hi");
        if (opc.equals("dp4a") && (c.has(".lo") || c.has(".hi"))) throw c.error(c.insn().mnemonic() + ": .lo/.hi go with dp2a");
        boolean as = ts.get(0) == ScalarType.S32;
        boolean bs = ts.get(1) == ScalarType.S32;
        return new DotOps(opc.equals("dp4a") ? 4 : 2, hi, as, bs, null, c.dst(0), c.src(1, ScalarType.B32), c.src(2, ScalarType.B32),
                c.src(3, ScalarType.B32));
    }

    private static long part(long v, int shift, int bits, boolean signed) {
        long x = (v >>> shift) & ((1L << bits) - 1);
        return signed && (x >>> (bits - 1)) != 0 ? x - (1L << bits) : x;
    }

    @Override
    protected void lane(Machine m, int t) {
        long x = a.get(m, t);
        long y = b.get(m, t);
        long z = c.get(m, t);
        long r;
        if (kind == 0) {
            long xa = Values.norm(x, sadType);
            long ya = Values.norm(y, sadType);
            boolean less = sadType.isSigned() ? xa < ya : Long.compareUnsigned(xa, ya) < 0;
            r = Values.trunc(z + (less ? ya - xa : xa - ya), sadType.bits());
        } else {
            r = z;
            if (kind == 4) {
                for (int i = 0; i < 4; i++) r += part(x, 8 * i, 8, aSigned) * part(y, 8 * i, 8, bSigned);
            } else {
                int base = hi ? 2 : 0;
                for (int i = 0; i < 2; i++) r += part(x, 16 * i, 16, aSigned) * part(y, 8 * (base + i), 8, bSigned);
            }
            r &= 0xFFFFFFFFL;
        }
        if (d >= 0) m.setReg(t, d, r);
    }
}
