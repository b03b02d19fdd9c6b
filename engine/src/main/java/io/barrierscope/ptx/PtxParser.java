package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parses the PTX that {@code nvcc -ptx} writes (PTX ISA 9.0) into a {@link Module}. Work is linear
 * in the input: every loop consumes a token or stops, recursion is depth-limited, and sizes taken
 * from the input are capped, so any text yields a Module or a located {@link PtxException}.
 */
public final class PtxParser {
    /** Real PTX nests a few blocks deep; the bound keeps scope lookups cheap on hostile input. */
    private static final int MAX_SCOPE_DEPTH = 256;

    final PtxSource src;
    final Cursor c;
    private final DeclParser decls;

    String version = "";
    final List<String> target = new ArrayList<>();
    int addressSize = 64;
    final Map<Integer, String> files = new TreeMap<>();
    final List<Variable> moduleVars = new ArrayList<>();
    private final Map<String, Variable> moduleVarByName = new HashMap<>();
    /** In order of first appearance; a definition replaces an earlier prototype. */
    final Map<String, ParsedFunction> functions = new LinkedHashMap<>();
    /** Function builders alive now and at most at once (one: each is finished where its body ends). */
    private int openBuilders;
    int peakOpenBuilders;
    private int nextVarId;
    /** What the module will keep, checked against the free heap as it grows. */
    final ModuleBudget budget;

    private PtxParser(PtxSource src, Cancellation cancel, ModuleBudget budget) {
        this.src = src;
        this.c = new Cursor(src, cancel);
        this.decls = new DeclParser(c, this);
        this.budget = budget;
        budget.src = src;
    }

    /** Parses a whole PTX module. Throws only {@link PtxException}. */
    public static Module parse(String sourceName, String text) { return parse(sourceName, text, Cancellation.NONE); }

    /**
     * As {@link #parse(String, String)}, telling {@code cancel} how far it has come every
     * {@value Cursor#CHECK_EVERY} tokens; throws {@link Cancellation.Cancelled} once it is cancelled.
     */
    public static Module parse(String sourceName, String text, Cancellation cancel) {
        return parseCounted(sourceName, text, cancel).module();
    }

    /** A parsed module, the most function builders that were alive at once while it was read, and the bytes its budget counted. */
    record Counted(Module module, int peakOpenBuilders, long estimatedBytes) {}

    /** As {@link #parse(String, String, Cancellation)}, telling what the parse held (for tests of its memory). */
    static Counted parseCounted(String sourceName, String text, Cancellation cancel) {
        return parseCounted(sourceName, text, cancel, ModuleBudget.ofHeap(text == null ? 0 : text.length()));
    }

    /** As above, within {@code budget} (a test's, or this Java's free heap). */
    static Counted parseCounted(String sourceName, String text, Cancellation cancel, ModuleBudget budget) {
        PtxSource src = new PtxSource(sourceName, text);
        PtxParser p = null;
        try {
            p = new PtxParser(src, cancel, budget);
            p.module();
            budget.beforeLinking();
            return new Counted(Linker.link(p), p.peakOpenBuilders, budget.charged());
        } catch (PtxException | Cancellation.Cancelled e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // a parser bug must still surface as a located error, never as a crash of the caller
            Token at = p != null ? p.c.peek() : null;
            String detail = "internal parser error: " + e;
            throw at != null ? src.error(at, detail) : src.error(1, 1, detail);
        }
    }

    // ---- module scope ------------------------------------------------------------------------

    private void module() {
        while (!c.atEof()) {
            Token t = c.peek();
            if (t.is(";")) {
                c.next();
                continue;
            }
            if (t.kind() != Token.Kind.DOT) throw c.error(t, "expected a directive, found " + t.describe());
            switch (t.text()) {
                case ".version" -> {
                    c.next();
                    Token v = c.next();
                    if (!v.isNumber()) throw c.error(v, "expected a version number");
                    version = v.text();
                }
                case ".target" -> {
                    c.next();
                    do {
                        target.add(c.expectIdent("a target name").text());
                    } while (c.accept(","));
                }
                case ".address_size" -> {
                    c.next();
                    Token at = c.peek();
                    int a = c.expectSmallInt("address size", 64);
                    if (a != 32 && a != 64) throw c.error(at, "address size must be 32 or 64");
                    addressSize = a;
                }
                case ".file" -> fileDirective();
                case ".section" -> {
                    c.next();
                    if (c.peek().kind() != Token.Kind.DOT) throw c.error(c.peek(), "expected a section name");
                    c.next();
                    c.expect("{");
                    c.expect("}"); // the lexer skipped the contents
                }
                case ".pragma" -> pragma();
                case ".loc" -> {
                    c.next();
                    c.skipRestOfLine(t.line());
                }
                case ".alias", ".callprototype" -> {
                    c.next();
                    c.skipPastSemicolon();
                }
                default -> declaration(null);
            }
        }
    }

    /** Linkage, then a function or a variable declaration. {@code fn} is null at module scope. */
    private void declaration(FnBuilder fn) {
        boolean extern = false;
        while (c.peek().isDot(".visible") || c.peek().isDot(".weak") || c.peek().isDot(".extern")
                || c.peek().isDot(".common")) {
            extern |= c.next().isDot(".extern");
        }
        Token kw = c.peek();
        if (kw.isDot(".entry") || kw.isDot(".func")) {
            if (fn != null) throw c.error(kw, "functions cannot be nested");
            function(kw);
            return;
        }
        StateSpace space = kw.kind() == Token.Kind.DOT ? StateSpace.fromDirective(kw.text()) : null;
        if (space == null || space == StateSpace.SREG || (space == StateSpace.REG && fn == null)) {
            throw c.error(kw, kw.kind() == Token.Kind.DOT ? "unknown directive " + kw.describe()
                    : "expected a declaration, found " + kw.describe());
        }
        c.next();
        if (space == StateSpace.REG) decls.regDecl(fn);
        else decls.varDecl(space, extern, fn);
    }

    private void fileDirective() {
        c.next();
        int idx = c.expectSmallInt("a file index", Integer.MAX_VALUE);
        Token name = c.peek();
        if (name.kind() != Token.Kind.STRING) throw c.error(name, "expected a file name");
        c.next();
        files.put(idx, unquote(name.text()));
        // optional timestamp and size
        if (c.peek().is(",") && c.peek().line() == name.line()) c.skipRestOfLine(name.line());
    }

    private void pragma() {
        c.next();
        do {
            if (c.peek().kind() != Token.Kind.STRING) throw c.error(c.peek(), "expected a string");
            c.next();
        } while (c.accept(","));
        c.expect(";");
    }

    static String unquote(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < s.length() - 1; i++) {
            char ch = s.charAt(i);
            if (ch == '\\' && i + 1 < s.length() - 1) ch = s.charAt(++i);
            sb.append(ch);
        }
        return sb.toString();
    }

    // ---- functions ---------------------------------------------------------------------------

    private void function(Token kw) {
        c.next();
        budget.function(kw);
        FnBuilder fb = new FnBuilder(kw.isDot(".entry"), kw);
        peakOpenBuilders = Math.max(peakOpenBuilders, ++openBuilders);
        if (!fb.entry && c.peek().is("(")) paramList(fb, fb.returns);
        Token name = c.expectIdent("a function name");
        fb.name = name.text();
        fb.nameTok = name;
        if (c.peek().is("(")) paramList(fb, fb.params);
        headerDirectives(fb);
        if (c.accept(";")) {
            if (!functions.containsKey(fb.name)) functions.put(fb.name, ParsedFunction.finish(fb, src.name));
            budget.functionEnd(name);
            openBuilders--;
            return;
        }
        if (!c.peek().is("{")) throw c.error(c.peek(), "expected '{' or ';'");
        ParsedFunction earlier = functions.get(fb.name);
        if (earlier != null && earlier.function.hasBody()) throw c.error(name, "duplicate definition of function " + fb.name);
        fb.hasBody = true;
        body(fb);
        // the builder's scopes and tokens end with its body: keep only what the module will hold
        functions.put(fb.name, ParsedFunction.finish(fb, src.name));
        budget.functionEnd(name);
        openBuilders--;
    }

    private void paramList(FnBuilder fb, List<Variable> into) {
        c.expect("(");
        if (!c.peek().is(")")) {
            do {
                into.add(decls.param(fb));
            } while (c.accept(","));
        }
        c.expect(")");
    }

    /** Performance-tuning and cluster directives; returns whether any were read. */
    private boolean headerDirectives(FnBuilder fb) {
        boolean any = false;
        while (c.peek().kind() == Token.Kind.DOT) {
            Token t = c.peek();
            switch (t.text()) {
                case ".noreturn" -> {
                    c.next();
                    fb.noreturn = true;
                }
                case ".maxntid" -> fb.maxntid = dims();
                case ".reqntid" -> fb.reqntid = dims();
                case ".reqnctapercluster" -> fb.reqnctapercluster = dims();
                case ".cluster_dim" -> fb.clusterDim = dims();
                case ".explicitcluster" -> {
                    c.next();
                    fb.explicitCluster = true;
                }
                case ".maxnreg" -> fb.maxnreg = count();
                case ".minnctapersm", ".maxnctapersm" -> fb.minnctapersm = count();
                case ".maxclusterrank" -> fb.maxclusterrank = count();
                case ".abi_preserve", ".abi_preserve_control" -> count(); // register-use hints: nothing to model
                case ".blocksareclusters" -> c.next();
                case ".pragma" -> pragma();
                default -> {
                    return any;
                }
            }
            any = true;
        }
        return any;
    }

    private int count() {
        c.next();
        return c.expectSmallInt("a number", Integer.MAX_VALUE);
    }

    /** {@code x [, y [, z]]} with missing dimensions 1. */
    private int[] dims() {
        c.next();
        int[] d = {1, 1, 1};
        int i = 0;
        do {
            if (i == 3) throw c.error(c.peek(), "at most three dimensions");
            Token t = c.peek();
            d[i] = c.expectSmallInt("a dimension", Integer.MAX_VALUE);
            // A CTA or cluster of no threads cannot be launched; 0 would reach the launch's divisions.
            if (d[i++] == 0) throw c.error(t, "a dimension must be at least 1");
        } while (c.accept(","));
        return d;
    }

    private void body(FnBuilder fb) {
        c.expect("{");
        fb.pushScope();
        int depth = 1;
        while (depth > 0) {
            Token t = c.peek();
            if (t.kind() == Token.Kind.EOF) throw c.error(t, "expected '}'");
            if (t.is("}")) {
                c.next();
                fb.popScope();
                depth--;
            } else if (t.is("{")) {
                c.next();
                if (++depth > MAX_SCOPE_DEPTH) throw c.error(t, "too deeply nested");
                fb.pushScope();
            } else if (t.is(";")) {
                c.next();
            } else if (t.kind() == Token.Kind.DOT) {
                bodyDirective(fb, t);
            } else if (t.kind() == Token.Kind.IDENT && c.peek(1).is(":")) {
                label(fb, t);
            } else if (t.kind() == Token.Kind.IDENT || t.is("@")) {
                instruction(fb);
            } else {
                throw c.error(t, "expected an instruction, found " + t.describe());
            }
        }
    }

    private void bodyDirective(FnBuilder fb, Token t) {
        switch (t.text()) {
            case ".loc" -> loc(fb);
            case ".pragma" -> pragma();
            case ".file" -> fileDirective();
            case ".callprototype", ".alias" -> {
                c.next();
                c.skipPastSemicolon();
            }
            default -> {
                if (!headerDirectives(fb)) declaration(fb);
            }
        }
    }

    /** {@code .loc file line col [, function_name $L__info_string0, inlined_at f l c]}. */
    private void loc(FnBuilder fb) {
        Token kw = c.next();
        budget.loc(kw);
        int file = locNumber(kw, "a file index");
        int line = locNumber(kw, "a line number");
        int col = c.peek().kind() == Token.Kind.INT && c.peek().line() == kw.line() ? locNumber(kw, "a column") : 0;
        int[] inlined = new int[0];
        if (c.peek().is(",") && c.peek().line() == kw.line()) {
            // ", function_name $L__info_stringN, inlined_at f l c": keep the call site, skip the rest.
            while (!c.atEof() && c.peek().line() == kw.line() && !c.peek().is(";")) {
                Token t = c.next();
                if (t.text().equals("inlined_at") && c.peek().line() == kw.line()) {
                    int f = locNumber(kw, "the inlined_at file index");
                    int l = locNumber(kw, "the inlined_at line");
                    int cc = c.peek().kind() == Token.Kind.INT && c.peek().line() == kw.line() ? locNumber(kw, "the inlined_at column") : 0;
                    int[] outer = fb.inlinedChains.getOrDefault(java.util.List.of(f, l, cc), new int[0]);
                    inlined = new int[3 + outer.length];
                    inlined[0] = f;
                    inlined[1] = l;
                    inlined[2] = cc;
                    System.arraycopy(outer, 0, inlined, 3, outer.length);
                }
            }
            if (c.peek().line() == kw.line()) c.accept(";");
        }
        fb.hasLoc = true;
        fb.locFile = file;
        fb.locLine = line;
        fb.locCol = col;
        fb.locInlined = inlined;
        fb.inlinedChains.put(java.util.List.of(file, line, col), inlined);
    }

    private int locNumber(Token kw, String what) {
        if (c.peek().line() != kw.line()) throw c.error(c.peek(), "expected " + what);
        return c.expectSmallInt(what, Integer.MAX_VALUE);
    }

    /** {@code name:} before an instruction, or a {@code .callprototype}/{@code .branchtargets} declaration. */
    private void label(FnBuilder fb, Token name) {
        c.next();
        c.next();
        Token d = c.peek();
        if (d.isDot(".callprototype")) {
            fb.declarePrototype(name);
            c.skipPastSemicolon();
        } else if (d.isDot(".branchtargets") || d.isDot(".calltargets")) {
            c.next();
            List<Token> names = new ArrayList<>();
            do {
                names.add(c.expectIdent("a target name"));
            } while (c.accept(","));
            c.expect(";");
            fb.defineTargetList(name.text(), new FnBuilder.TargetList(d.isDot(".calltargets"), names));
        } else if (!fb.defineLabel(name.text(), fb.insns.size())) {
            throw c.error(name, "duplicate label " + name.text());
        } else {
            budget.label(name);
        }
    }

    private void instruction(FnBuilder fb) {
        int startIdx = c.mark();
        Token first = c.peek();
        Operand.Reg guard = null;
        if (c.accept("@")) {
            boolean neg = c.accept("!");
            Token g = c.peek();
            if (g.kind() != Token.Kind.IDENT) throw c.error(g, "expected a predicate register");
            c.next();
            Register r = fb.lookupRegister(g.text());
            if (r == null) throw c.error(g, OperandParser.undeclared(g));
            guard = new Operand.Reg(r, neg);
        }
        Token op = c.peek();
        if (op.kind() != Token.Kind.IDENT) throw c.error(op, "expected an instruction, found " + op.describe());
        if (!PtxOpcodes.isOpcode(op.text())) throw c.error(op, "unknown instruction '" + op.text() + "'");
        c.next();
        List<String> mods = new ArrayList<>();
        Token prev = op;
        while (c.peek().kind() == Token.Kind.DOT && Cursor.adjacent(prev, c.peek())) {
            prev = c.next();
            mods.add(prev.text());
        }
        List<OpNode> ops = new OperandParser(c, this, fb, op.text()).operands();
        Token semi = c.peek();
        if (!semi.is(";")) throw c.error(semi, "expected ';'");
        int end = c.mark();
        String text = c.textBetween(startIdx, end);
        budget.instruction(end - startIdx, text.length(), first);
        c.next();
        fb.insns.add(new FnBuilder.PendingInsn(op.text(), List.copyOf(mods), guard, ops, first,
                fb.locFile, fb.locLine, fb.locCol, fb.hasLoc, text, fb.locInlined));
    }

    // ---- shared with DeclParser / OperandParser / Linker ---------------------------------------

    Variable newVariable(Token name, String varName, StateSpace space, ScalarType type, int align, int vector,
                         long count, boolean extern, byte[] init) {
        budget.variable(init == null ? 0 : init.length, name);
        return new Variable(nextVarId++, varName, space, type, align, vector, count, extern, init, name.pos(src.name));
    }

    void declareModuleVariable(Variable v) {
        Variable old = moduleVarByName.get(v.name());
        if (old != null && !old.extern()) {
            throw src.error(v.pos().line(), v.pos().col(), "duplicate declaration of " + v.name());
        }
        if (old != null) moduleVars.remove(old); // an extern declaration completed by a definition
        moduleVarByName.put(v.name(), v);
        moduleVars.add(v);
    }

    Variable moduleVariable(String name) { return moduleVarByName.get(name); }
}
