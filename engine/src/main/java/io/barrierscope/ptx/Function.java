package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;
import java.util.List;
import java.util.Map;

/**
 * An {@code .entry} (kernel) or {@code .func}. {@code registers} is indexed by {@link Register#index()}.
 * {@code variables} are the declarations inside the body ({@code .local}, {@code .shared},
 * scoped {@code .param}), each with a module-unique id. {@code labels} maps a label to the index
 * of the instruction that follows it. A function without a body (a {@code .extern} prototype such
 * as {@code vprintf}) has {@code instructions} empty and {@code hasBody} false.
 */
public record Function(String name, boolean entry, boolean hasBody, List<Variable> params,
                       List<Variable> returns, List<Register> registers, List<Variable> variables,
                       List<Instruction> instructions, Map<String, Integer> labels,
                       Directives directives, SourcePos pos) {}
