package io.barrierscope.ptx;

import java.util.List;

/** An instruction operand as written, with names already resolved by the parser. */
public sealed interface Operand {

    /** A register; {@code negated} for a {@code !p} predicate source. */
    record Reg(Register reg, boolean negated) implements Operand {}

    /** A special register such as {@code %tid.x}; {@code component} is 0..2 for .x/.y/.z, else -1. */
    record Special(SpecialRegister kind, int component) implements Operand {}

    /** An immediate. For {@code FLOAT32}/{@code FLOAT64} the value holds the IEEE bits. */
    record Imm(long value, ImmKind kind) implements Operand {}

    enum ImmKind { INT, FLOAT32, FLOAT64 }

    /**
     * A variable or function name used as a value (its address) or call target, plus a constant offset.
     * Both are null for the {@code .callprototype} label named by an indirect call.
     */
    record Symbol(String name, Variable variable, Function function, long offset) implements Operand {
        // A call inside a recursive function refers back to that function, so the generated
        // record methods would recurse forever: compare and print the function by name only.
        @Override
        public boolean equals(Object o) {
            return o instanceof Symbol s && name.equals(s.name) && offset == s.offset
                    && java.util.Objects.equals(variable, s.variable)
                    && (function == null ? s.function == null : s.function != null && function.name().equals(s.function.name()));
        }

        @Override
        public int hashCode() { return java.util.Objects.hash(name, variable, offset, function == null ? null : function.name()); }

        @Override
        public String toString() {
            String what = variable != null ? "variable" : function != null ? "function" : "prototype";
            return "Symbol[" + name + (offset != 0 ? (offset > 0 ? "+" : "") + offset : "") + ", " + what + "]";
        }
    }

    /**
     * A memory operand {@code [base+offset]}; base is a Reg, a Symbol or null for an absolute address.
     * For the texture/surface/tensor forms {@code [base, {c0, c1}]} base is a Vector holding the
     * base and then the coordinate vector(s).
     */
    record Address(Operand base, long offset) implements Operand {}

    /** A branch target; {@code target} is the instruction index within the function. */
    record Label(String name, int target) implements Operand {}

    /** A brace vector {@code {a, b, c, d}}; also the expanded member list of a {@code .branchtargets} label. */
    record Vector(List<Operand> elements) implements Operand {}

    /** A parenthesised list, as in the return and argument lists of {@code call}. */
    record ParenList(List<Operand> elements) implements Operand {}

    /** The dual destination {@code d|p}. */
    record Pair(Operand first, Operand second) implements Operand {}

    /**
     * A register operand of a video instruction (PTX ISA 9.7.18) written with a byte/half-word
     * selector or mask ({@code %r2.b0}, {@code %r1.h10}: {@code selector} "b0", "h10", or null)
     * and/or a minus sign ({@code -%r3}, vmad's operand negation). Only the video instructions
     * are parsed into it; a plain register stays a {@link Reg}.
     */
    record Video(Reg reg, String selector, boolean minus) implements Operand {}

    /** The sink {@code _}. */
    record Sink() implements Operand {}
}
