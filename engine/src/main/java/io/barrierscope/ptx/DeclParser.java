package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.List;

/**
 * Declarations: {@code .reg} registers, variables in addressable state spaces (with alignment,
 * vectors, arrays and initialisers) and the parameters of a function header.
 */
final class DeclParser {
    static final long MAX_BYTES = 256L << 20;
    static final long MAX_INIT_BYTES = 64L << 20;

    /**
     * Why a variable past {@link #MAX_BYTES} is refused and what to do instead: the emulator holds
     * every variable's bytes in the Java heap (copied for each run, shadowed by the race detector),
     * where real hardware maps device memory. {@code bytes} is what it declares, or -1 when that
     * passes 2^63; {@code atLeast} when more dimensions follow.
     */
    static String tooLarge(long bytes, boolean atLeast) {
        return "too large: " + (bytes < 0 ? "this variable declares more than 2^63 bytes"
                : "this variable declares " + (atLeast ? "at least " : "") + bytes + " bytes")
                + "; a variable holds at most 256 MiB (" + MAX_BYTES + " bytes) here, as BarrierScope keeps each one's bytes in"
                + " the Java heap (copied for each run and shadowed by the race detector): declare only what the kernel"
                + " touches, or pass the data as a launch-file buffer argument (docs/reliability.md, \"Variable sizes\")";
    }

    /** As {@link #tooLarge}, for an initialiser past {@link #MAX_INIT_BYTES} ({@code bytes} of it, at least). */
    static String initTooLarge(long bytes) {
        return "too large: the initialiser reaches " + bytes + " bytes; one holds at most 64 MiB (" + MAX_INIT_BYTES
                + " bytes) here, as the parse holds its bytes while reading them: initialise the rest at run time"
                + " or from a launch-file buffer (docs/reliability.md, \"Variable sizes\")";
    }

    private final Cursor c;
    private final PtxParser p;

    DeclParser(Cursor c, PtxParser p) {
        this.c = c;
        this.p = p;
    }

    /** After {@code .reg}: {@code [.vN] .type name[<N>] (, name[<N>])* ;} */
    void regDecl(FnBuilder fn) {
        Token typeTok = c.peek();
        if (typeTok.isDot(".v2") || typeTok.isDot(".v4") || typeTok.isDot(".v8")) {
            throw c.error(typeTok, "vector registers are not supported");
        }
        ScalarType type = type(true);
        do {
            Token n = c.expectIdent("register name");
            if (c.peek().is("<")) {
                c.next();
                int count = c.expectSmallInt("register count", FnBuilder.MAX_REGISTERS);
                c.expect(">");
                p.budget.registers(count, n); // counted before a million registers are made
                fn.declareRange(c, n, n.text(), count, type);
            } else {
                p.budget.registers(1, n);
                fn.declareRegister(c, n, n.text(), type);
            }
        } while (c.accept(","));
        c.expect(";");
    }

    /** Reads a type dot-word. */
    ScalarType type(boolean allowPred) {
        Token t = c.peek();
        ScalarType type = t.kind() == Token.Kind.DOT ? ScalarType.fromName(t.text()) : null;
        if (type == null) throw c.error(t, t.kind() == Token.Kind.DOT ? "unknown type " + t.describe() : "expected a type");
        if (type == ScalarType.PRED && !allowPred) throw c.error(t, "predicates must be declared in .reg");
        c.next();
        return type;
    }

    /**
     * A variable declaration after its state space has been consumed; declares one or more names.
     * {@code fn} is null at module scope.
     */
    List<Variable> varDecl(StateSpace space, boolean extern, FnBuilder fn) {
        int align = 0;
        int vector = 1;
        ScalarType type = null;
        while (type == null) {
            Token t = c.peek();
            if (t.isDot(".align")) {
                c.next();
                align = alignment();
            } else if (t.isDot(".v2") || t.isDot(".v4") || t.isDot(".v8")) {
                c.next();
                vector = t.text().charAt(2) - '0';
            } else if (t.isDot(".attribute")) {
                c.next();
                skipAttribute();
            } else if (t.isDot(".ptr")) {
                c.next();
            } else {
                type = type(false);
            }
        }
        skipPointerAttributes();
        List<Variable> out = new ArrayList<>();
        do {
            out.add(oneVariable(space, extern, align, vector, type));
        } while (c.accept(","));
        c.expect(";");
        for (Variable v : out) {
            if (fn != null) {
                fn.declareVariable(c, v);
                fn.variables.add(v);
            } else {
                p.declareModuleVariable(v);
            }
        }
        return out;
    }

    /** One function parameter or return value: {@code .param ...} or {@code .reg .type name}. */
    Variable param(FnBuilder fn) {
        Token kw = c.peek();
        if (kw.isDot(".reg")) {
            c.next();
            ScalarType type = type(true);
            Token n = c.expectIdent("parameter name");
            // A .b128 register is moved only by ld, st and mov (semantics.md, "Instructions"); calls copy one slot.
            if (type == ScalarType.B128) throw c.error(n, "a .reg .b128 function parameter is not supported");
            p.budget.registers(1, n);
            Register r = fn.declareRegister(c, n, n.text(), type);
            Variable v = p.newVariable(n, n.text(), StateSpace.REG, r.type(), 0, 1, 1, false, null);
            fn.declareVariable(c, v);
            return v;
        }
        if (!kw.isDot(".param")) throw c.error(kw, "expected '.param'");
        c.next();
        int align = 0;
        int vector = 1;
        ScalarType type = null;
        while (type == null) {
            Token t = c.peek();
            if (t.isDot(".align")) {
                c.next();
                align = alignment();
            } else if (t.isDot(".v2") || t.isDot(".v4") || t.isDot(".v8")) {
                c.next();
                vector = t.text().charAt(2) - '0';
            } else if (t.isDot(".ptr")) {
                c.next();
            } else {
                type = type(true);
            }
        }
        skipPointerAttributes();
        Variable v = oneVariable(StateSpace.PARAM, false, align, vector, type);
        fn.declareVariable(c, v);
        return v;
    }

    /** {@code .ptr [.space] [.align N]} after a parameter type: the pointee's, so not recorded. */
    private void skipPointerAttributes() {
        if (!c.acceptDot(".ptr")) return;
        Token t = c.peek();
        if (t.kind() == Token.Kind.DOT && StateSpace.fromDirective(t.text()) != null) c.next();
        if (c.acceptDot(".align")) alignment();
    }

    private void skipAttribute() {
        c.expect("(");
        while (!c.peek().is(")")) {
            Token t = c.next();
            if (t.kind() == Token.Kind.EOF || t.is(";")) throw c.error(t, "expected ')'");
        }
        c.next();
    }

    private int alignment() {
        Token t = c.peek();
        int a = c.expectSmallInt("alignment", 1 << 20);
        if (a <= 0 || Integer.bitCount(a) != 1) throw c.error(t, "alignment must be a power of two");
        return a;
    }

    private Variable oneVariable(StateSpace space, boolean extern, int align, int vector, ScalarType type) {
        Token n = c.expectIdent("variable name");
        long elemBytes = (long) type.bytes() * vector;
        List<Long> dims = new ArrayList<>();
        boolean unsized = false;
        Token tooBig = null; // the first dimension past the limit, refused once all are read (to say the bytes)
        while (c.peek().is("[")) {
            Token open = c.next();
            if (c.peek().is("]")) {
                if (!dims.isEmpty()) throw c.error(c.peek(), "only the first dimension may be omitted");
                unsized = true;
                dims.add(-1L);
            } else {
                Token dt = c.peek();
                long d = ConstExpr.parseInt(c);
                if (d < 0) throw c.error(dt, "negative array size");
                if (d > MAX_BYTES && tooBig == null) tooBig = dt;
                dims.add(d);
            }
            c.expect("]");
            if (dims.size() > 8) throw c.error(open, "too many array dimensions");
        }
        if (tooBig != null) throw c.error(tooBig, tooLarge(declaredBytes(dims, elemBytes), false));
        // elements per outermost index (the vector counts as an innermost dimension)
        long inner = 1;
        for (int i = 1; i < dims.size(); i++) inner = mulChecked(n, inner, dims.get(i), elemBytes, true);
        long count = unsized ? -1 : mulChecked(n, inner, dims.isEmpty() ? 1 : dims.get(0), elemBytes, false);
        byte[] init = null;
        if (c.peek().is("=")) {
            c.next();
            // a declared size is zero-padded at once: {0} for 16M words is 64 MiB, held twice while copied
            if (count > 0) p.budget.peak(2 * Math.min(count * elemBytes, MAX_INIT_BYTES), n);
            Initialiser in = new Initialiser(c, type, vector, dims, count, inner, elemBytes);
            init = in.parse();
            count = in.count();
        }
        return p.newVariable(n, n.text(), space, type, align, vector, count, extern, init);
    }

    /** The bytes the dimensions declare, or -1 past 2^63. */
    private static long declaredBytes(List<Long> dims, long elemBytes) {
        long r = elemBytes;
        for (long d : dims) {
            if (d < 0) continue;
            if (Math.multiplyHigh(r, d) != 0 || r * d < 0) return -1;
            r *= d;
        }
        return r;
    }

    /** {@code a * b} elements, refused past {@link #MAX_BYTES}; {@code partial} while outer dimensions are still to multiply. */
    private long mulChecked(Token at, long a, long b, long elemBytes, boolean partial) {
        long r;
        try {
            r = Math.multiplyExact(a, b);
            long bytes = Math.multiplyExact(r, elemBytes);
            if (bytes > MAX_BYTES) throw c.error(at, tooLarge(bytes, partial));
        } catch (ArithmeticException e) {
            throw c.error(at, tooLarge(-1, false));
        }
        return r;
    }
}
