package io.barrierscope.exec;

import static io.barrierscope.exec.InstructionForms.*;

import io.barrierscope.ptx.Instruction;

/**
 * The mma shape and type families (PTX ISA 9.7.14.5.14) its Target and PTX ISA notes name, for
 * {@link TargetNotes} and {@link PtxVersionNotes}: read from the qualifiers (shape, then
 * .dtype.atype.btype.ctype) only.
 */
final class MmaNoteForms {
    private MmaNoteForms() {}

    /** Dense mma: mma.sp has notes of its own (9.7.14.6) and is refused as not modelled, so these do not speak for it. */
    static boolean mma(Instruction in) { return in.opcode().equals("mma") && !any(in, ".sp", ".sp::ordered_metadata"); }

    static boolean fp8(Instruction in) { return mma(in) && any(in, ".e4m3", ".e5m2"); }

    /** .f16 A/B (not the .f16 accumulator of an fp8 mma) with the shape. */
    static boolean f16(Instruction in, String shape) { return mma(in) && in.has(shape) && in.has(".f16") && !fp8(in); }

    static boolean bf16(Instruction in) { return mma(in) && in.has(".bf16"); }

    static boolean tf32(Instruction in) { return mma(in) && in.has(".tf32"); }

    /** .u8/.s8 with .m16n8k16 or .m16n8k32. */
    static boolean int8Sm80(Instruction in) { return mma(in) && any(in, ".s8", ".u8") && any(in, ".m16n8k16", ".m16n8k32"); }

    /** .f64 with .m8n8k4. */
    static boolean f64M8n8k4(Instruction in) { return mma(in) && in.has(".m8n8k4") && in.has(".f64"); }

    /** An fp8 mma with .f16 dtype/ctype. */
    static boolean fp8F16Accumulator(Instruction in) { return fp8(in) && in.has(".f16"); }
}
