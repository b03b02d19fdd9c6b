package io.barrierscope.ptx;

import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.SourcePos;
import java.util.List;

/**
 * One PTX instruction as written. The mnemonic is split at dots: {@code ld.global.nc.v4.u32} has
 * {@code opcode} "ld" and {@code modifiers} [".global", ".nc", ".v4", ".u32"] in source order.
 * {@code guard} is the {@code @p}/{@code @!p} predicate or null. {@code loc} is the CUDA location of
 * the most recent {@code .loc} before it, or null. {@code text} is the instruction's source text.
 */
public record Instruction(int index, String opcode, List<String> modifiers, Operand.Reg guard,
                          List<Operand> operands, SourcePos pos, CudaLoc loc, String text) {

    public boolean has(String modifier) { return modifiers.contains(modifier); }

    /** The full mnemonic, e.g. {@code ld.global.u32}. */
    public String mnemonic() { return opcode + String.join("", modifiers); }
}
