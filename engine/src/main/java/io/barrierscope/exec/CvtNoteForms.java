package io.barrierscope.exec;

import io.barrierscope.ptx.Instruction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The cvt forms that 9.7.9.21's Target ISA and PTX ISA notes name, read from the instruction's
 * type qualifiers (destination first, then source), for {@link TargetNotes} and
 * {@link PtxVersionNotes}.
 */
final class CvtNoteForms {
    private CvtNoteForms() {}

    private static final Set<String> TYPES = Set.of(".u8", ".s8", ".u16", ".s16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f16x2",
            ".bf16", ".bf16x2", ".tf32", ".f32", ".f64", ".e4m3x2", ".e5m2x2");
    private static final Set<String> INT_F16_F64 = Set.of(".u8", ".s8", ".u16", ".s16", ".u32", ".s32", ".u64", ".s64", ".f16", ".f64");

    /** {destination, source} type qualifiers of a cvt, or an empty list for anything else. */
    private static List<String> types(Instruction in) {
        List<String> out = new ArrayList<>();
        if (!in.opcode().equals("cvt")) return out;
        for (String m : in.modifiers()) if (TYPES.contains(m)) out.add(m);
        return out.size() == 2 ? out : List.of();
    }

    /** cvt with .e4m3x2 or .e5m2x2 as either type. */
    static boolean fp8(Instruction in) { return types(in).contains(".e4m3x2") || types(in).contains(".e5m2x2"); }

    /** The .relu modifier, or a .f16x2, .bf16, .bf16x2 or .tf32 destination. */
    static boolean reluOrAmpereDestination(Instruction in) {
        List<String> t = types(in);
        return !t.isEmpty() && (in.has(".relu") || Set.of(".f16x2", ".bf16", ".bf16x2", ".tf32").contains(t.get(0)));
    }

    /** cvt.f32.bf16. */
    static boolean f32FromBf16(Instruction in) { return types(in).equals(List.of(".f32", ".bf16")); }

    /** cvt.f32.bf16 with .ftz. */
    static boolean f32FromBf16Ftz(Instruction in) { return f32FromBf16(in) && in.has(".ftz"); }

    /** cvt.bf16.{integer, f16, f64, bf16} and cvt.{integer, f16, f64}.bf16. */
    static boolean bf16WithIntegerF16OrF64(Instruction in) {
        List<String> t = types(in);
        if (t.isEmpty()) return false;
        return (t.get(0).equals(".bf16") && (INT_F16_F64.contains(t.get(1)) || t.get(1).equals(".bf16")))
                || (t.get(1).equals(".bf16") && INT_F16_F64.contains(t.get(0)));
    }

    /** cvt.{rn,rz}.satfinite.tf32.f32. */
    static boolean tf32SatfiniteRnRz(Instruction in) {
        return types(in).equals(List.of(".tf32", ".f32")) && in.has(".satfinite") && (in.has(".rn") || in.has(".rz"));
    }

    /** cvt.satfinite.{f16, bf16, f16x2, bf16x2}.f32. */
    static boolean halfSatfiniteFromF32(Instruction in) {
        List<String> t = types(in);
        return !t.isEmpty() && in.has(".satfinite") && t.get(1).equals(".f32") && Set.of(".f16", ".bf16", ".f16x2", ".bf16x2").contains(t.get(0));
    }
}
