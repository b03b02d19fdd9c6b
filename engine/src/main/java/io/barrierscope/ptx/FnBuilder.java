package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A function while it is being parsed: its block scopes of registers and variables, labels, and
 * instructions whose operands may still name labels or functions defined later.
 */
final class FnBuilder {
    static final int MAX_REGISTERS = 1_000_000;

    /** An instruction before its late names are bound and its .loc file is known. */
    record PendingInsn(String opcode, List<String> modifiers, Operand.Reg guard, List<OpNode> operands,
                       Token posTok, int locFile, int locLine, int locCol, boolean hasLoc, String text, int[] locInlined) {}

    /** A label list declared with .branchtargets or .calltargets. */
    record TargetList(boolean calls, List<Token> names) {}

    private record RegDecl(Register reg, int seq) {}

    /** {@code stride}: register slots per member (2 for .b128, whose high half has a slot of its own). */
    private record Range(int base, int count, int seq, int stride) {}

    /**
     * One { } block. Names declared later in the same block shadow earlier ones. Blocks are kept
     * after they close because labels (which may be used before they are defined) are
     * block-scoped too: inline asm repeats labels such as LAB_WAIT in sibling blocks.
     */
    private static final class Scope {
        final Scope parent;
        final int id;
        final Map<String, RegDecl> regs = new HashMap<>();
        final Map<String, List<Range>> ranges = new HashMap<>();
        final Map<String, Variable> vars = new HashMap<>();
        final Map<String, Token> prototypes = new HashMap<>();
        final Map<String, Integer> labels = new HashMap<>();
        final Map<String, TargetList> targetLists = new HashMap<>();

        Scope(Scope parent, int id) {
            this.parent = parent;
            this.id = id;
        }
    }

    final boolean entry;
    /** Set once the name has been read (return parameters come first). */
    String name = "";
    Token nameTok;
    final List<Variable> params = new ArrayList<>();
    final List<Variable> returns = new ArrayList<>();
    final List<Register> registers = new ArrayList<>();
    final List<Variable> variables = new ArrayList<>();
    final List<PendingInsn> insns = new ArrayList<>();
    /** Every label by name (the first one for names repeated in sibling blocks). */
    final Map<String, Integer> labels = new LinkedHashMap<>();
    boolean hasBody;

    int[] maxntid, reqntid, reqnctapercluster, clusterDim;
    boolean explicitCluster, noreturn;
    int maxnreg, minnctapersm, maxclusterrank;

    /** The most recent .loc in this function. */
    boolean hasLoc;
    int locFile, locLine, locCol;
    /** Its inlined_at chain as (file, line, col) triples, innermost call site first; empty when not inlined. */
    int[] locInlined = new int[0];
    /** Per location (file, line, col) seen in a .loc, the inlined_at chain it had: nested inlining is told one level per .loc. */
    final java.util.Map<java.util.List<Integer>, int[]> inlinedChains = new java.util.HashMap<>();

    /** All blocks ever opened, by id; {@code current} is the innermost open one. */
    private final List<Scope> scopes = new ArrayList<>();
    private Scope current;
    private int depth;
    private int seq;

    FnBuilder(boolean entry, Token kw) {
        this.entry = entry;
        this.nameTok = kw;
        pushScope(); // parameters live in the outermost scope
    }

    void pushScope() {
        current = new Scope(current, scopes.size());
        scopes.add(current);
        depth++;
    }

    void popScope() {
        if (current.parent != null) {
            current = current.parent;
            depth--;
        }
    }

    int scopeDepth() { return depth; }

    /** Id of the innermost open block, for resolving labels used in it later. */
    int scopeId() { return current.id; }

    /** Defines a label in the innermost block; false if the block already has it. */
    boolean defineLabel(String label, int index) {
        if (current.labels.containsKey(label) || current.targetLists.containsKey(label)) return false;
        current.labels.put(label, index);
        labels.putIfAbsent(label, index);
        return true;
    }

    void defineTargetList(String label, TargetList list) { current.targetLists.put(label, list); }

    /** The label visible from block {@code scopeId}, or null. */
    Integer lookupLabel(int scopeId, String label) {
        for (Scope s = scopes.get(scopeId); s != null; s = s.parent) {
            Integer i = s.labels.get(label);
            if (i != null) return i;
            if (s.targetLists.containsKey(label)) return null;
        }
        return null;
    }

    TargetList lookupTargetList(int scopeId, String label) {
        for (Scope s = scopes.get(scopeId); s != null; s = s.parent) {
            if (s.labels.containsKey(label)) return null;
            TargetList t = s.targetLists.get(label);
            if (t != null) return t;
        }
        return null;
    }

    Directives directives() {
        if (maxntid == null && reqntid == null && reqnctapercluster == null && clusterDim == null
                && !explicitCluster && maxnreg == 0 && minnctapersm == 0 && maxclusterrank == 0 && !noreturn) {
            return Directives.NONE;
        }
        return new Directives(maxntid, reqntid, reqnctapercluster, clusterDim, explicitCluster, maxnreg,
                minnctapersm, maxclusterrank, noreturn);
    }

    /** Declares one register named exactly {@code regName}. */
    Register declareRegister(Cursor c, Token at, String regName, ScalarType type) {
        Scope s = current;
        if (s.regs.containsKey(regName)) throw c.error(at, "duplicate declaration of " + regName);
        checkRoom(c, at, slots(type));
        Register r = new Register(registers.size(), regName, type);
        registers.add(r);
        addHighHalf(r);
        s.regs.put(regName, new RegDecl(r, seq++));
        return r;
    }

    /** Declares {@code prefix0 .. prefix(count-1)}, as in {@code .reg .b32 %r<10>;}. */
    void declareRange(Cursor c, Token at, String prefix, int count, ScalarType type) {
        Scope s = current;
        List<Range> list = s.ranges.computeIfAbsent(prefix, k -> new ArrayList<>());
        if (!list.isEmpty()) throw c.error(at, "duplicate declaration of " + prefix + "<>");
        int stride = slots(type);
        checkRoom(c, at, (long) count * stride);
        int base = registers.size();
        for (int i = 0; i < count; i++) {
            Register r = new Register(base + i * stride, prefix + i, type);
            registers.add(r);
            addHighHalf(r);
        }
        list.add(new Range(base, count, seq++, stride));
    }

    /** Register slots (64 bits each) a register of {@code type} takes: a .b128 register takes two. */
    private static int slots(ScalarType type) { return type == ScalarType.B128 ? 2 : 1; }

    /**
     * A .b128 register's high 64 bits live in the slot after it (index + 1), a register no
     * instruction can name (its name is not an identifier).
     */
    private void addHighHalf(Register r) {
        if (r.type() == ScalarType.B128) registers.add(new Register(r.index() + 1, r.name() + ".hi", ScalarType.B64));
    }

    private void checkRoom(Cursor c, Token at, long more) {
        if (registers.size() + more > MAX_REGISTERS) throw c.error(at, "too large: too many registers");
    }

    /** The register visible under this name, innermost scope first, or null. */
    Register lookupRegister(String regName) {
        int digits = 0;
        while (digits < regName.length() && Character.isDigit(regName.charAt(regName.length() - 1 - digits))
                && regName.charAt(regName.length() - 1 - digits) < 128) {
            digits++;
        }
        String prefix = regName.substring(0, regName.length() - digits);
        String num = regName.substring(regName.length() - digits);
        // "%r05" is not %r5: only canonical numbers name a range member
        boolean canonical = digits > 0 && digits <= 9 && (digits == 1 || num.charAt(0) != '0');
        int n = canonical ? Integer.parseInt(num) : -1;
        for (Scope s = current; s != null; s = s.parent) {
            RegDecl single = s.regs.get(regName);
            Range best = null;
            if (canonical) {
                List<Range> rs = s.ranges.get(prefix);
                if (rs != null) {
                    for (Range r : rs) {
                        if (n < r.count && (best == null || r.seq > best.seq)) best = r;
                    }
                }
            }
            if (single != null && (best == null || single.seq > best.seq)) return single.reg;
            if (best != null) return registers.get(best.base + n * best.stride);
        }
        return null;
    }

    void declareVariable(Cursor c, Variable v) {
        Scope s = current;
        if (s.vars.containsKey(v.name())) {
            throw c.src.error(v.pos().line(), v.pos().col(), "duplicate declaration of " + v.name());
        }
        s.vars.put(v.name(), v);
    }

    Variable lookupVariable(String varName) {
        for (Scope s = current; s != null; s = s.parent) {
            Variable v = s.vars.get(varName);
            if (v != null) return v;
        }
        return null;
    }

    void declarePrototype(Token nameTok) { current.prototypes.put(nameTok.text(), nameTok); }

    boolean isPrototype(String protoName) {
        for (Scope s = current; s != null; s = s.parent) {
            if (s.prototypes.containsKey(protoName)) return true;
        }
        return false;
    }
}
