package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code createpolicy} (PTX ISA 9.7.9.18): makes the 64-bit opaque cache-eviction policy that
 * {@code .L2::cache_hint} operands take: {@code createpolicy.fractional.primary{.secondary}.b64
 * policy{, fraction}}, {@code createpolicy.range{.global}.primary{.secondary}.b64 policy, [a],
 * primary-size, total-size} and {@code createpolicy.cvt.L2.b64 policy, access-property}. The
 * engine has no cache, so the value only has to be deterministic: the qualifiers' encoding (and
 * the fraction's bits), which every policy consumer here treats as a hint. The operand rules are
 * checked where they are constants: the fraction in (0.0, 1.0] and primary-size <= total-size.
 */
final class CreatepolicyOp {
    private CreatepolicyOp() {}

    private static final List<String> PRIMARY = List.of(".L2::evict_last", ".L2::evict_normal", ".L2::evict_first", ".L2::evict_unchanged");
    private static final List<String> SECONDARY = List.of(".L2::evict_first", ".L2::evict_unchanged");

    static Op compile(CompileContext c) {
        String name = c.insn().mnemonic();
        if (!c.has(".b64")) throw c.error(name + ": createpolicy makes a .b64 policy (PTX ISA 9.7.9.18)");
        int d = c.dst(0);
        if (c.has(".cvt")) {
            if (!c.has(".L2")) throw c.error(name + ": the conversion form is createpolicy.cvt.L2.b64 (PTX ISA 9.7.9.18)");
            c.expectOperands(2, 2);
            Src prop = c.src(1, ScalarType.B64);
            return new FnOp((m, t) -> m.setReg(t, d, 0x3L << 60 | (prop.get(m, t) & 0x0FFF_FFFF_FFFF_FFFFL)));
        }
        boolean fractional = c.has(".fractional");
        if (fractional == c.has(".range")) throw c.error(name + ": createpolicy is .fractional, .range or .cvt.L2 (PTX ISA 9.7.9.18)");
        // The primary priority is the first eviction qualifier, the optional secondary the second.
        List<String> ev = c.insn().modifiers().stream().filter(mod -> mod.startsWith(".L2::evict")).toList();
        if (ev.isEmpty() || ev.size() > 2 || !PRIMARY.contains(ev.get(0)) || ev.size() == 2 && !SECONDARY.contains(ev.get(1))) {
            throw c.error(name + ": needs a primary priority (.L2::evict_last, _normal, _first or _unchanged) and optionally a "
                    + "secondary one (.L2::evict_first or _unchanged) (PTX ISA 9.7.9.18)");
        }
        long kind = (fractional ? 1L : 2L) << 60 | (long) PRIMARY.indexOf(ev.get(0)) << 56
                | (ev.size() == 2 ? SECONDARY.indexOf(ev.get(1)) : 1L) << 52;
        if (fractional) {
            c.expectOperands(1, 2);
            if (c.operandCount() == 1) return new FnOp((m, t) -> m.setReg(t, d, kind | Float.floatToRawIntBits(1.0f)));
            Operand f = c.operand(1);
            if (f instanceof Operand.Imm imm) {
                float v = imm.kind() == Operand.ImmKind.INT ? imm.value() : imm.kind() == Operand.ImmKind.FLOAT32
                        ? Float.intBitsToFloat((int) imm.value()) : (float) Double.longBitsToDouble(imm.value());
                if (!(v > 0f && v <= 1f)) throw c.error(name + ": the fraction must be in (0.0, 1.0], not " + v + " (PTX ISA 9.7.9.18)");
                long bits = Float.floatToRawIntBits(v) & 0xFFFFFFFFL;
                return new FnOp((m, t) -> m.setReg(t, d, kind | bits));
            }
            // A fraction in a register is not checked: the policy is a hint the engine does not act on.
            Src fr = c.src(1, ScalarType.F32);
            return new FnOp((m, t) -> m.setReg(t, d, kind | fr.get(m, t) & 0xFFFFFFFFL));
        }
        c.expectOperands(4, 4);
        if (c.spaceOf() != Space.GLOBAL && c.spaceOf() != Space.GENERIC) throw c.error(name + ": a range policy covers .global memory");
        c.address(c.operand(1), c.spaceOf());
        // "primary-size <= total-size" is checked for constants; register sizes only shape a hint.
        long[] imms = new long[2];
        for (int i = 0; i < 2; i++) if (c.operand(2 + i) instanceof Operand.Imm imm) imms[i] = imm.value(); else imms[i] = -1;
        if (imms[0] >= 0 && imms[1] >= 0 && imms[0] > imms[1]) {
            throw c.error(name + ": primary-size " + imms[0] + " is larger than total-size " + imms[1] + " (PTX ISA 9.7.9.18)");
        }
        Src primary = c.src(2, ScalarType.U32);
        c.src(3, ScalarType.U32);
        return new FnOp((m, t) -> m.setReg(t, d, kind | primary.get(m, t) & 0xFFFFFFFFL));
    }
}
