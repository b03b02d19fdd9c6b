package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.List;

/**
 * Instruction operands. Registers, special registers, variables in scope and constants are
 * resolved here; labels and functions become {@link OpNode.Name}s that the linker binds later.
 */
final class OperandParser {
    private final Cursor c;
    private final PtxParser p;
    private final FnBuilder fn;
    /** For call: parentheses are argument lists, not constant expressions. */
    private final boolean isCall;
    /** For bra/brx: a bare name is a label. */
    private final boolean isBranch;
    private final String opcode;
    /** A video instruction (PTX ISA 9.7.18): its register operands may carry a selector or a minus sign. */
    private final boolean isVideo;

    OperandParser(Cursor c, PtxParser p, FnBuilder fn, String opcode) {
        this.c = c;
        this.opcode = opcode;
        this.p = p;
        this.fn = fn;
        this.isCall = opcode.equals("call");
        this.isBranch = opcode.equals("bra") || opcode.equals("brx");
        this.isVideo = VIDEO_OPCODE.matcher(opcode).matches();
    }

    private static final java.util.regex.Pattern VIDEO_OPCODE =
            java.util.regex.Pattern.compile("v(add|sub|absdiff|min|max|avrg|set)[24]?|vshl|vshr|vmad");

    /**
     * A video instruction's register operand with its optional selector or mask suffix; which
     * selectors an instruction takes is checked when it is compiled. Any other suffix is an error.
     */
    private Operand videoOperand(Token t, Register reg, boolean minus) {
        Token n = c.peek();
        String sel = null;
        if (n.kind() == Token.Kind.DOT && Cursor.adjacent(t, n) && VIDEO_SELECTOR.matcher(n.text()).matches()) {
            c.next();
            sel = n.text().substring(1);
        } else {
            rejectComponent(t);
        }
        Operand.Reg r = new Operand.Reg(reg, false);
        return sel == null && !minus ? r : new Operand.Video(r, sel, minus);
    }

    /** Operands up to (not including) the ';'. */
    List<OpNode> operands() {
        List<OpNode> ops = new ArrayList<>();
        if (c.peek().is(";")) return ops;
        do {
            ops.add(operand(true));
        } while (c.accept(","));
        return ops;
    }

    private OpNode operand(boolean allowNesting) {
        Token t = c.peek();
        if (t.is("{")) {
            if (!allowNesting) throw c.error(t, "unexpected '{'");
            OpNode v = new OpNode.Vec(list("{", "}"));
            if (!c.peek().is("|")) return v;
            c.next(); // a vector destination with a predicate: tex/tld4 d|p (PTX ISA 9.7.10.3)
            return new OpNode.Pair(v, simple());
        }
        if (t.is("[")) {
            if (!allowNesting) throw c.error(t, "unexpected '['");
            return address();
        }
        if (t.is("(") && isCall) {
            if (!allowNesting) throw c.error(t, "unexpected '('");
            return new OpNode.Parens(list("(", ")"));
        }
        OpNode first = simple();
        if (c.peek().is("|") && !(first instanceof OpNode.Done d && d.op() instanceof Operand.Imm)) {
            c.next();
            return new OpNode.Pair(first, simple());
        }
        return first;
    }

    /** A bracketed list of simple operands, e.g. a vector {a, b} or call arguments (a, b). */
    private List<OpNode> list(String open, String close) {
        c.expect(open);
        List<OpNode> out = new ArrayList<>();
        if (!c.peek().is(close)) {
            do {
                out.add(operand(false));
            } while (c.accept(","));
        }
        c.expect(close);
        return out;
    }

    /** A register, special register, sink, name or constant. */
    private OpNode simple() {
        Token t = c.peek();
        if (isVideo && t.is("-") && c.peek(1).kind() == Token.Kind.IDENT && fn.lookupRegister(c.peek(1).text()) != null) {
            c.next();
            Token r = c.next();
            return new OpNode.Done(videoOperand(r, fn.lookupRegister(r.text()), true));
        }
        if (t.is("!") && c.peek(1).kind() == Token.Kind.IDENT) {
            c.next();
            Token r = c.next();
            Register reg = fn.lookupRegister(r.text());
            if (reg == null) throw c.error(r, undeclared(r));
            return new OpNode.Done(new Operand.Reg(reg, true));
        }
        if (t.kind() == Token.Kind.IDENT) {
            c.next();
            return name(t);
        }
        if (ConstExpr.startsExpr(t)) {
            ConstExpr.Value v = ConstExpr.parse(c);
            return new OpNode.Done(new Operand.Imm(v.bits(), v.kind()));
        }
        throw c.error(t, "expected an operand, found " + t.describe());
    }

    private OpNode name(Token t) {
        String text = t.text();
        if (text.equals("_")) return new OpNode.Done(new Operand.Sink());
        Register reg = fn.lookupRegister(text);
        if (reg != null) {
            if (isVideo) return new OpNode.Done(videoOperand(t, reg, false));
            rejectComponent(t);
            return new OpNode.Done(new Operand.Reg(reg, false));
        }
        if (text.startsWith("%")) {
            Operand.Special sp = special(t);
            if (sp == null) throw c.error(t, undeclared(t));
            return new OpNode.Done(sp);
        }
        if (isBranch) return new OpNode.Name(t, 0, true, fn.scopeId());
        // WARP_SZ is PTX's predefined constant for the warp size
        if (text.equals("WARP_SZ") && lookupVariable(text) == null) return new OpNode.Done(new Operand.Imm(32, Operand.ImmKind.INT));
        long offset = offset();
        Variable v = lookupVariable(text);
        if (v != null) return new OpNode.Done(new Operand.Symbol(text, v, null, offset));
        if (fn.isPrototype(text)) return new OpNode.Done(new Operand.Symbol(text, null, null, offset));
        return new OpNode.Name(t, offset, false, fn.scopeId());
    }

    private Variable lookupVariable(String name) {
        Variable v = fn.lookupVariable(name);
        return v != null ? v : p.moduleVariable(name);
    }

    /** A video instruction's byte or half-word selector or mask: .b followed by 1-4 of 0-7, .h by 1-2 of 0-3 (PTX ISA 9.7.18). */
    private static final java.util.regex.Pattern VIDEO_SELECTOR = java.util.regex.Pattern.compile("\\.(b[0-7]{1,4}|h[0-3]{1,2})");

    /**
     * A suffix written onto a register operand ({@code %r1.b0}, {@code %v.x}) is not taken: the
     * message names the suffix, the register and what such a suffix would be.
     */
    private void rejectComponent(Token t) {
        Token n = c.peek();
        if (n.kind() != Token.Kind.DOT || !Cursor.adjacent(t, n)) return;
        String form = t.text() + n.text();
        if (isVideo) {
            throw c.error(n, "unknown video selector or mask '" + form + "' of " + opcode + " (PTX ISA 9.7.18: .b0-.b3, .h0, .h1 on the scalar"
                    + " instructions' operands; .hxy, .bxyzw selectors and .h0/.h1/.h10, .b0-.b3210 masks on the SIMD ones)");
        }
        throw c.error(n, "unexpected " + n.describe() + " after register " + t.text() + " ('" + form + "'): operand suffixes such as"
                + " vector components and video selectors are not supported");
    }

    /** An optional {@code +expr} / {@code -expr} after a name; a sum of terms. */
    private long offset() {
        long off = 0;
        while ((c.peek().is("+") || c.peek().is("-")) && ConstExpr.startsExpr(c.peek(1))) {
            boolean minus = c.next().is("-");
            Token at = c.peek();
            long v = ConstExpr.parseTerm(c);
            if (v == Long.MIN_VALUE && minus) throw c.error(at, "offset out of range");
            off += minus ? -v : v;
        }
        return off;
    }

    /** {@code [reg]}, {@code [reg+off]}, {@code [sym+off]}, {@code [imm]}, {@code [base, {coords}]}. */
    private OpNode address() {
        c.expect("[");
        Token t = c.peek();
        OpNode base;
        long offset;
        if (t.kind() == Token.Kind.IDENT) {
            c.next();
            Register reg = fn.lookupRegister(t.text());
            if (reg != null) {
                rejectComponent(t);
                base = new OpNode.Done(new Operand.Reg(reg, false));
            } else if (t.text().startsWith("%")) {
                throw c.error(t, undeclared(t));
            } else {
                Variable v = lookupVariable(t.text());
                base = v != null ? new OpNode.Done(new Operand.Symbol(t.text(), v, null, 0))
                        : new OpNode.Name(t, 0, false, fn.scopeId());
            }
            offset = offset();
        } else if (ConstExpr.startsExpr(t)) {
            base = null;
            offset = ConstExpr.parseInt(c);
        } else {
            throw c.error(t, "expected an address, found " + t.describe());
        }
        if (c.peek().is(",")) {
            // texture, surface and tensor forms: [base, {coordinates}, ...]
            if (base == null) throw c.error(c.peek(), "expected ']'");
            List<OpNode> parts = new ArrayList<>();
            parts.add(base);
            while (c.accept(",")) parts.add(c.peek().is("{") ? new OpNode.Vec(list("{", "}")) : simple());
            base = new OpNode.Vec(parts);
        }
        if (!c.peek().is("]")) throw c.error(c.peek(), "expected ']'");
        c.next();
        return new OpNode.Addr(base, offset);
    }

    /** A special register such as %tid.x, %laneid, %envreg3, %pm0_64; null if the name is none. */
    private Operand.Special special(Token t) {
        String name = t.text();
        SpecialRegister k = SpecialRegister.byName(name);
        if (k != null && k != SpecialRegister.PM && k != SpecialRegister.ENVREG) {
            int comp = -1;
            Token d = c.peek();
            if (k.isVector() && d.kind() == Token.Kind.DOT && Cursor.adjacent(t, d)) {
                comp = switch (d.text()) {
                    case ".x" -> 0;
                    case ".y" -> 1;
                    case ".z" -> 2;
                    default -> throw c.error(d, "unknown component " + d.describe() + " of " + name);
                };
                c.next();
            }
            return new Operand.Special(k, comp);
        }
        int idx;
        if ((idx = indexAfter(name, "%envreg", "")) >= 0 && idx <= 31) {
            return new Operand.Special(SpecialRegister.ENVREG, idx);
        }
        if ((idx = indexAfter(name, "%pm", "_64")) >= 0 && idx <= 7) {
            return new Operand.Special(SpecialRegister.PM64, idx);
        }
        if ((idx = indexAfter(name, "%pm", "")) >= 0 && idx <= 7) {
            return new Operand.Special(SpecialRegister.PM, idx);
        }
        return null;
    }

    /** The number in prefix+digits+suffix (1-2 canonical digits), or -1. */
    private static int indexAfter(String name, String prefix, String suffix) {
        if (!name.startsWith(prefix) || !name.endsWith(suffix)) return -1;
        String digits = name.substring(prefix.length(), name.length() - suffix.length());
        if (digits.isEmpty() || digits.length() > 2 || (digits.length() > 1 && digits.charAt(0) == '0')) return -1;
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') return -1;
        }
        return Integer.parseInt(digits);
    }

    static String undeclared(Token t) { return "undeclared register " + t.text(); }
}
