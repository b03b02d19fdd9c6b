package io.barrierscope.ptx;

import java.util.List;

/**
 * An operand as parsed, before names that can only be resolved later (labels at the end of the
 * function, functions and late variables at the end of the module) are bound.
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
}
