package io.barrierscope.ptx;

import java.util.List;

/**
 * An operand as parsed, before names that can only be resolved later (labels at the end of the
 * function, functions and late variables at the end of the module) are bound. {@link Name} is
 * bound where its function ends ({@link ParsedFunction}); {@link Global}, {@link Calls} and
 * {@link Fails} are what is left for the linker.
 */
sealed interface OpNode {

    /** Fully resolved already. */
    record Done(Operand op) implements OpNode {}

    /**
     * A name not yet bound. {@code labelOnly} for branch targets; {@code offset} from {@code name+8};
     * {@code scope} is the block it was used in, for block-scoped labels.
     */
    record Name(Token tok, long offset, boolean labelOnly, int scope) implements OpNode {}

    record Vec(List<OpNode> elements) implements OpNode {}

    record Parens(List<OpNode> elements) implements OpNode {}

    record Pair(OpNode first, OpNode second) implements OpNode {}

    /** {@code [base+offset]}; base null for an absolute address. */
    record Addr(OpNode base, long offset) implements OpNode {}

    /** A name that is no label of its function: a module variable or a function, bound at the end of the module. */
    record Global(Token tok, long offset) implements OpNode {}

    /** A {@code .calltargets} list's functions, bound at the end of the module. */
    record Calls(List<Token> names) implements OpNode {}

    /** A name its function's blocks refused (an undefined label), reported when the linker reaches it. */
    record Fails(Token at, String message) implements OpNode {}
}
