package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.ScalarType;

/**
 * The forms of {@code atom} and {@code red} the ISA writes (PTX ISA 9.7.13.5, 9.7.13.6), checked at
 * load, and the address rules it leaves undefined otherwise, checked per lane. The operation and
 * type lists: "The bit-size operations are .and, .or, .xor, .cas (compare-and-swap), and .exch"
 * take the bit-size types; "The integer operations are .add, .inc, .dec, .min, .max" the integer
 * types; "The floating-point operation .add" .f32 and .f64 (the half types are {@code atomHalf}'s).
 */
final class AtomForms {
    private AtomForms() {}

    /** The ISA section of {@code opc}: red 9.7.13.6, atom 9.7.13.5. */
    static String section(String opc) { return opc.equals("red") ? "9.7.13.6" : "9.7.13.5"; }

    /** Refuses, naming the rule, a form of atom/red that 9.7.13.5/9.7.13.6 do not list. */
    static void check(CompileContext c, String opc, String op, boolean vector) {
        String mn = c.insn().mnemonic();
        String sec = section(opc);
        int sp = c.spaceOf();
        if (sp != Space.GLOBAL && sp != Space.SHARED && sp != Space.GENERIC) {
            throw c.error(mn + ": " + opc + " takes .global, .shared{::cta, ::cluster} or a generic address, not "
                    + Space.name(sp) + " (PTX ISA " + sec + ": \".space = { .global, .shared{::cta, ::cluster} }\")");
        }
        if (opc.equals("red")) {
            if (c.has(".acquire") || c.has(".acq_rel")) {
                throw c.error(mn + ": red takes .relaxed or .release only (PTX ISA 9.7.13.6: \".sem = {.relaxed, .release}\")");
            }
            if (op.equals("cas") || op.equals("exch")) {
                throw c.error(mn + ": red has no ." + op + " (PTX ISA 9.7.13.6: .op is .and, .or, .xor, .add, .inc, .dec, .min or .max)");
            }
        }
        if (sp == Space.SHARED && c.has(".L2::cache_hint")) {
            throw c.error(mn + ": .L2::cache_hint is only supported for .global or a generic address of global memory (PTX ISA " + sec + ")");
        }
        ScalarType t = c.type();
        if (vector || HalfOps.isHalf(t) || t == ScalarType.B128) return;
        boolean bitOp = op.equals("and") || op.equals("or") || op.equals("xor") || op.equals("cas") || op.equals("exch");
        boolean ok = switch (t) {
            case B32, B64 -> bitOp;
            case B16 -> op.equals("cas") && opc.equals("atom");
            case U32, U64, S32, S64 -> !bitOp;
            case F32, F64 -> op.equals("add");
            default -> false;
        };
        if (!ok) {
            throw c.error(mn + ": ." + op + " is not defined on ." + t.ptxName() + " (PTX ISA " + sec
                    + ": the bit-size operations .and, .or, .xor" + (opc.equals("atom") ? ", .cas, .exch" : "")
                    + " take .b32, .b64" + (opc.equals("atom") ? " (.cas also .b16)" : "")
                    + "; the integer operations .add, .inc, .dec, .min, .max take .u32, .u64, .s32, .s64; the floating-point .add takes .f32, .f64)");
        }
    }

    /**
     * The address of an atom/red, with the ISA's two generic-address rules: "where the address points
     * to .global or .shared space" (else undefined: {@code memory-fault}), and .L2::cache_hint "only
     * ... for generic addressing where the address points to the .global state space".
     */
    static Src address(CompileContext c, CompileContext.Addr addr, String opc) {
        Src a = MemoryOps.ctaWindow(c, addr);
        if (addr.space() != Space.GENERIC) return a;
        String mn = c.insn().mnemonic();
        String sec = section(opc);
        boolean hint = c.has(".L2::cache_hint");
        return (m, t) -> {
            long g = a.get(m, t);
            int s = Space.ofGeneric(g);
            if (s != Space.GLOBAL && s != Space.SHARED) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, g, mn + ": generic address 0x" + Long.toHexString(g) + " points to "
                        + Space.name(s) + " memory; " + opc + " may be used only where the address points to .global or .shared (PTX ISA " + sec + ")");
            }
            if (hint && s != Space.GLOBAL) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, g, mn + ": generic address 0x" + Long.toHexString(g)
                        + " points to shared memory; .L2::cache_hint is only supported where it points to .global (PTX ISA " + sec + ")");
            }
            return g;
        };
    }
}
