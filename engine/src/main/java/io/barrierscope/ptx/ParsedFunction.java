package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A function whose header (and body, if it has one) has been read. Its {@link FnBuilder} is
 * finished here where the body ends and dropped: the block scopes, tokens and lookup maps of a
 * function are needed only inside its body (labels and registers are block-scoped), so a module
 * of many functions holds one builder at a time and, for each function, only its
 * {@link Function} and its instructions with the names that need the whole module (functions,
 * module variables declared later, the {@code .file} names of its {@code .loc}s) still open. The
 * linker fills the function's instruction list from them (docs/reliability.md, "A PTX file costs
 * its text and what the parse keeps").
 */
final class ParsedFunction {
    /** An instruction with its block-scoped names bound and its position made. */
    record Insn(String opcode, List<String> modifiers, Operand.Reg guard, List<OpNode> operands, SourcePos pos,
                int locFile, int locLine, int locCol, boolean hasLoc, String text, int[] locInlined) {}

    final Function function;
    /** The list {@link #function}'s instructions view, filled by the linker. */
    final List<Instruction> body;
    /** Its instructions until linked; null after. */
    List<Insn> pending;

    private ParsedFunction(Function function, List<Instruction> body, List<Insn> pending) {
        this.function = function;
        this.body = body;
        this.pending = pending;
    }

    /** Builds the function from {@code fb} and binds its labels and branch-target lists, which live in its blocks. */
    static ParsedFunction finish(FnBuilder fb, String file) {
        int n = fb.insns.size();
        List<Instruction> body = new ArrayList<>(n);
        Function f = new Function(fb.name, fb.entry, fb.hasBody, List.copyOf(fb.params), List.copyOf(fb.returns),
                List.copyOf(fb.registers), List.copyOf(fb.variables),
                n == 0 ? Collections.emptyList() : Collections.unmodifiableList(body),
                fb.labels.isEmpty() ? Collections.emptyMap() : Collections.unmodifiableMap(new LinkedHashMap<>(fb.labels)),
                fb.directives(), fb.nameTok.pos(file));
        List<Insn> pending = new ArrayList<>(n);
        for (FnBuilder.PendingInsn pi : fb.insns) {
            List<OpNode> ops = new ArrayList<>(pi.operands().size());
            for (OpNode o : pi.operands()) ops.add(bind(o, fb));
            pending.add(new Insn(pi.opcode(), pi.modifiers(), pi.guard(), List.copyOf(ops), pi.posTok().pos(file),
                    pi.locFile(), pi.locLine(), pi.locCol(), pi.hasLoc(), pi.text(), pi.locInlined()));
        }
        return new ParsedFunction(f, body, pending);
    }

    /**
     * {@code n} with its names looked up in the blocks they were used in, as the linker did at the
     * end of the module: a label, then a branch-target list, else a name for the module. A mistake
     * found here is kept in place ({@link OpNode.Fails}) and reported when the linker reaches it,
     * so errors come in the same order as before (every syntax error of the file first).
     */
    private static OpNode bind(OpNode n, FnBuilder fb) {
        if (n instanceof OpNode.Done) return n;
        if (n instanceof OpNode.Vec v) return new OpNode.Vec(bindAll(v.elements(), fb));
        if (n instanceof OpNode.Parens ps) return new OpNode.Parens(bindAll(ps.elements(), fb));
        if (n instanceof OpNode.Pair pr) return new OpNode.Pair(bind(pr.first(), fb), bind(pr.second(), fb));
        if (n instanceof OpNode.Addr a) return new OpNode.Addr(a.base() == null ? null : bind(a.base(), fb), a.offset());
        if (!(n instanceof OpNode.Name nm)) return n;
        Token t = nm.tok();
        String name = t.text();
        Integer target = fb.lookupLabel(nm.scope(), name);
        if (target != null) {
            if (nm.offset() != 0) return new OpNode.Fails(t, "a label cannot take an offset");
            return new OpNode.Done(new Operand.Label(name, target));
        }
        FnBuilder.TargetList tl = fb.lookupTargetList(nm.scope(), name);
        if (tl != null) {
            if (tl.calls()) return new OpNode.Calls(List.copyOf(tl.names()));
            // brx.idx names a list of labels: expand it to its members
            List<Operand> members = new ArrayList<>();
            for (Token m : tl.names()) {
                Integer idx = fb.lookupLabel(nm.scope(), m.text());
                if (idx == null) return new OpNode.Fails(m, "undefined label " + m.text());
                members.add(new Operand.Label(m.text(), idx));
            }
            return new OpNode.Done(new Operand.Vector(List.copyOf(members)));
        }
        if (nm.labelOnly()) return new OpNode.Fails(t, "undefined label " + name);
        return new OpNode.Global(t, nm.offset());
    }

    private static List<OpNode> bindAll(List<OpNode> nodes, FnBuilder fb) {
        List<OpNode> out = new ArrayList<>(nodes.size());
        for (OpNode n : nodes) out.add(bind(n, fb));
        return out;
    }
}
