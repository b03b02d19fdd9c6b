package io.barrierscope.exec;

import io.barrierscope.ptx.Instruction;

/**
 * Instruction-shape tests that {@link TargetNotes} and {@link PtxVersionNotes} both key their
 * notes on (opcode and qualifiers only); each note table keeps its own entries and message.
 */
final class InstructionForms {
    private InstructionForms() {}

    /** The opcode with every one of the qualifiers. */
    static boolean is(Instruction in, String opcode, String... mods) {
        if (!in.opcode().equals(opcode)) return false;
        for (String m : mods) if (!in.has(m)) return false;
        return true;
    }

    /** At least one of the qualifiers. */
    static boolean any(Instruction in, String... mods) {
        for (String m : mods) if (in.has(m)) return true;
        return false;
    }

    /** One of the opcodes. */
    static boolean op(Instruction in, String... opcodes) {
        for (String o : opcodes) if (in.opcode().equals(o)) return true;
        return false;
    }

    /** fence{.sem}.scope, the thread fence: the proxy and operation fences take .acquire/.release under their own notes. */
    static boolean threadFence(Instruction in) {
        return in.opcode().equals("fence") && !any(in, ".proxy", ".mbarrier_init", ".op_restrict");
    }

    /** atom, or red but red.async (which has notes of its own). */
    static boolean atomOrRed(Instruction in) { return in.opcode().equals("atom") || (in.opcode().equals("red") && !in.has(".async")); }

    /** The half-precision instruction types of 9.7.4 (f16 and bf16, scalar and x2). */
    static boolean half(Instruction in) { return any(in, ".f16", ".f16x2", ".bf16", ".bf16x2"); }

    static boolean bf16(Instruction in) { return any(in, ".bf16", ".bf16x2"); }

    /** cp{.reduce}.async.bulk{.prefetch}{.tensor} and the bulk commit/wait_group. */
    static boolean bulk(Instruction in) { return is(in, "cp", ".async", ".bulk"); }

    /** cp.async, cp.async.commit_group, cp.async.wait_group/wait_all (the non-bulk copies). */
    static boolean nonBulkCpAsync(Instruction in) { return is(in, "cp", ".async") && !any(in, ".bulk", ".reduce", ".mbarrier"); }
}
