package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * atom and red with vector type (PTX ISA 9.7.13.5, 9.7.13.6): {@code .v2}/{@code .v4} {@code .f32}
 * {@code .add}; {@code .v2}/{@code .v4}/{@code .v8} {@code .f16}/{@code .bf16} and {@code .v2}/{@code .v4}
 * {@code .f16x2}/{@code .bf16x2} {@code .add}/{@code .min}/{@code .max} with {@code .noftz}, the ISA's
 * table. "may be used only with .global space and with generic addressing where the address points
 * to .global space"; "the atomicity is guaranteed separately for each of the individual scalar
 * elements", so each element is its own read-modify-write. f32 adds flush as scalar global ones do;
 * half adds keep subnormals; min/max follow the half min/max rules (a NaN operand is ignored, two
 * NaNs give the canonical NaN, -0 is below +0), **our decision**: the atom text gives none.
 */
final class AtomVectorOps {
    private AtomVectorOps() {}

    static Op compile(CompileContext c, boolean returns) {
        String mn = c.insn().mnemonic();
        String sec = AtomForms.section(returns ? "atom" : "red");
        int n = c.has(".v8") ? 8 : c.has(".v4") ? 4 : 2;
        ScalarType t = c.type();
        String op = c.has(".add") ? "add" : c.has(".min") ? "min" : c.has(".max") ? "max" : null;
        boolean pair = t == ScalarType.F16X2 || t == ScalarType.BF16X2;
        boolean half = t == ScalarType.F16 || t == ScalarType.BF16;
        boolean listed = op != null && switch (t) {
            case F32 -> op.equals("add") && n != 8 && !c.has(".noftz");
            case F16, BF16 -> c.has(".noftz");
            case F16X2, BF16X2 -> n != 8 && c.has(".noftz");
            default -> false;
        };
        if (!listed) {
            throw c.error(mn + ": not in the ISA's table of vector atomics (PTX ISA " + sec + ": .v2/.v4 .f32 .add; .v2/.v4/.v8 .f16/.bf16 "
                    + "and .v2/.v4 .f16x2/.bf16x2 .add/.min/.max, the half types with .noftz)");
        }
        int sp = c.spaceOf();
        if (sp != Space.GLOBAL && sp != Space.GENERIC) {
            throw c.error(mn + ": a vector " + (returns ? "atom" : "red") + " may be used only with .global or a generic address (PTX ISA " + sec + ")");
        }
        int first = returns ? 1 : 0;
        c.expectOperands(first + 2, first + 3);
        if (c.operandCount() > first + 2 && !c.has(".L2::cache_hint")) throw c.error(mn + ": a cache-policy operand needs .L2::cache_hint");
        ScalarType reg = t == ScalarType.F32 ? ScalarType.F32 : half ? ScalarType.B16 : ScalarType.B32;
        int[] d = new int[n];
        if (returns) {
            List<Operand> ds = elements(c, c.operand(0), n, sec);
            for (int i = 0; i < n; i++) d[i] = c.dst(ds.get(i));
        }
        List<Operand> bs = elements(c, c.operand(first + 1), n, sec);
        Src[] b = new Src[n];
        for (int i = 0; i < n; i++) b[i] = c.src(bs.get(i), reg);
        CompileContext.Addr addr = c.address(c.operand(first), sp);
        Src gen = addr.address();
        int size = t == ScalarType.F32 || pair ? 4 : 2;
        FloatFormat f = t == ScalarType.F32 ? null : NarrowFloatCvt.format(t);
        String opn = op;
        return new MemoryOps.CheckedOp((m, th) -> {
            long base = gen.get(m, th);
            if (sp == Space.GENERIC && Space.ofGeneric(base) != Space.GLOBAL) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, base, mn + ": generic address 0x" + Long.toHexString(base) + " points to "
                        + Space.name(Space.ofGeneric(base)) + " memory; a vector atomic may be used only where it points to .global (PTX ISA " + sec + ")");
            }
            m.memory.checkVectorAlignment(Space.GLOBAL, base, size * n, th);
            // Every source element is read before any destination is written (d and b may share registers).
            long[] bvs = new long[n];
            for (int i = 0; i < n; i++) bvs[i] = b[i].get(m, th);
            for (int i = 0; i < n; i++) {
                long a = base + (long) i * size;
                long old = m.memory.load(Space.GLOBAL, a, size, th);
                long bv = bvs[i];
                long nv = f == null ? MemoryOps.addF32(old, bv, true)
                        : opn.equals("add") ? HalfOps.addNoFtz(f, pair, old, bv) : minMax(f, pair, opn.equals("min"), old, bv);
                m.memory.store(Space.GLOBAL, a, size, nv, th);
                if (returns && d[i] >= 0) m.setReg(th, d[i], old);
            }
        });
    }

    private static List<Operand> elements(CompileContext c, Operand o, int n, String sec) {
        if (!(o instanceof Operand.Vector v) || v.elements().size() != n) {
            throw c.error(c.insn().mnemonic() + " needs a brace-enclosed vector of " + n + " elements (PTX ISA " + sec + ")");
        }
        return v.elements();
    }

    private static long minMax(FloatFormat f, boolean pair, boolean isMin, long a, long b) {
        long out = 0;
        for (int h = 0; h < (pair ? 2 : 1); h++) {
            int xa = (int) (a >>> (16 * h)) & 0xFFFF;
            int xb = (int) (b >>> (16 * h)) & 0xFFFF;
            double x = f.decode(xa);
            double y = f.decode(xb);
            int r;
            if (Double.isNaN(x) && Double.isNaN(y)) r = f.canonicalNaN();
            else if (Double.isNaN(x)) r = xb;
            else if (Double.isNaN(y)) r = xa;
            else r = (isMin ? Math.min(x, y) : Math.max(x, y)) == x ? xa : xb;
            out |= (long) (r & 0xFFFF) << (16 * h);
        }
        return out;
    }
}
