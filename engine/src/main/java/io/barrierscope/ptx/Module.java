package io.barrierscope.ptx;

import java.util.List;
import java.util.Map;

/**
 * A parsed PTX module. {@code files} maps {@code .file} indices to names; {@code variables} are
 * module-scope declarations in source order; {@code functions} are in source order, keyed by name.
 * {@code sourceLines} is the PTX text split into lines (for messages and the source view).
 */
public record Module(String sourceName, String version, List<String> target, int addressSize,
                     Map<Integer, String> files, List<Variable> variables,
                     Map<String, Function> functions, List<String> sourceLines) {

    public Function function(String name) { return functions.get(name); }

    /** The entries ({@code .entry}) in source order. */
    public List<Function> entries() {
        return functions.values().stream().filter(Function::entry).toList();
    }
}
