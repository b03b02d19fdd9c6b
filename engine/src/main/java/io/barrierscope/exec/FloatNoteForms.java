package io.barrierscope.exec;

import static io.barrierscope.exec.InstructionForms.*;

import io.barrierscope.ptx.Instruction;

/**
 * The f32/f64 arithmetic forms (PTX ISA 9.7.3) that the Target and PTX ISA notes name, for
 * {@link TargetNotes} and {@link PtxVersionNotes}: read from the opcode and qualifiers only.
 */
final class FloatNoteForms {
    private FloatNoteForms() {}

    /** One of the opcodes on .f32 (not a half-precision or cvt form). */
    static boolean f32(Instruction in, String... opcodes) { return op(in, opcodes) && in.has(".f32") && !half(in); }

    /** One of the opcodes on .f64. */
    static boolean f64(Instruction in, String... opcodes) { return op(in, opcodes) && in.has(".f64") && !half(in); }

    /** Any rounding modifier .rn, .rz, .rm, .rp (".rnd" in the notes). */
    static boolean rnd(Instruction in) { return any(in, ".rn", ".rz", ".rm", ".rp"); }

    /** A directed rounding modifier .rz, .rm, .rp. */
    static boolean directed(Instruction in) { return any(in, ".rz", ".rm", ".rp"); }
}
