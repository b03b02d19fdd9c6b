package io.barrierscope.sync;

import io.barrierscope.exec.Op;
import io.barrierscope.exec.Program;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * The loop an mbarrier poll spins in, seen statically, so parking is sound (semantics.md section
 * 11). The loop is the poll's strongly connected component of the control-flow graph; its other
 * exits are the branches (and guarded ret/exit/trap) leaving it. Their conditions, sliced backward
 * over register def-use inside the loop (plus the poll's own operands), are the registers that can
 * end the loop besides the poll: a loop counter, a %globaltimer or %clock reading, a flag loaded
 * from memory. A re-poll is a fixpoint only if those registers, the object and (when the slice loads
 * memory) every memory write are as they were. A loop whose exit depends on a value another thread
 * hands over without memory (a shuffle, a vote, another mbarrier, a call) is never parked.
 *
 * <p>The analysis depends on the program alone: it is made once per {@link Program} for every poll
 * (one control-flow graph per function, in int arrays) when the program is compiled
 * ({@link SyncCompiler#link}), and shared, immutable, by all its runs and threads.
 */
final class PollLoop {
    /** Whether the loop may ever be parked. */
    final boolean parkable;
    /** Absolute register indices whose values decide the other exits, ascending. */
    final int[] regs;
    /** Whether the slice reads memory (its values change with any write). */
    final boolean readsMemory;

    private PollLoop(boolean parkable, int[] regs, boolean readsMemory) {
        this.parkable = parkable;
        this.regs = regs;
        this.readsMemory = readsMemory;
    }

    private static final PollLoop NEVER = new PollLoop(false, new int[0], true);

    /**
     * Gives every poll of a just-compiled program its loop ({@link MbarrierWaitOp#link}), so that no
     * run pays for the analysis: it depends on the program alone, and while the program is being
     * built its ops are still in the cache. Called once, before the program is shared.
     */
    static void link(Program p) {
        boolean any = false;
        for (Op op : p.code) any |= op instanceof MbarrierWaitOp;
        if (!any) return;
        Table t = p.analysis(Table.class, Table::new);
        for (int pc = 0; pc < p.code.length; pc++) {
            if (p.code[pc] instanceof MbarrierWaitOp w && t.byPc[pc] != null) w.link(t.byPc[pc]);
        }
    }

    /** The loop of the poll at global {@code pc}, from the program's table. */
    static PollLoop of(Program p, int pc) {
        PollLoop l = pc >= 0 && pc < p.code.length ? p.analysis(Table.class, Table::new).byPc[pc] : null;
        return l != null ? l : analyse(p, pc);
    }

    /** The loops of every poll of a program, by global pc (null where there is no poll). */
    static final class Table {
        final PollLoop[] byPc;

        Table(Program p) {
            byPc = new PollLoop[p.code.length];
            // Functions lie one after another from their start pcs, each followed by its closing ret.
            for (Map.Entry<String, Integer> e : p.functionPc.entrySet()) {
                int start = e.getValue();
                int n = p.module.function(e.getKey()).instructions().size();
                Cfg g = null;
                for (int pc = start; pc < start + n && pc < byPc.length; pc++) {
                    if (!(p.code[pc] instanceof MbarrierWaitOp)) continue;
                    if (g == null) g = new Cfg(p.code, start, n);
                    byPc[pc] = g.loop(pc - start, p.registerBase.getOrDefault(e.getKey(), 0));
                }
            }
        }
    }

    private static PollLoop analyse(Program p, int pc) {
        String fn = null;
        int start = -1;
        for (Map.Entry<String, Integer> e : p.functionPc.entrySet()) {
            if (e.getValue() <= pc && e.getValue() > start) {
                start = e.getValue();
                fn = e.getKey();
            }
        }
        if (fn == null) return NEVER;
        Function f = p.module.function(fn);
        int q = pc - start;
        if (q < 0 || q >= f.instructions().size()) return NEVER;
        return new Cfg(p.code, start, f.instructions().size()).loop(q, p.registerBase.getOrDefault(fn, 0));
    }

    /**
     * One function's control-flow graph, made from its compiled ops ({@link Op#flow}, the guard
     * register, the branch target: no opcode strings), and per-instruction register facts for the
     * loop's members. Node {@code n} (one past the last instruction) is the closing brace's return,
     * which a label at the end leads to.
     */
    private static final class Cfg {
        /** The program's ops: node i is {@code code[start + i]}. */
        final Op[] code;
        final int start;
        final int n;
        /** Each instruction's {@link Op#flow}. */
        final byte[] flow;
        /** Up to two successors per node, -1 for none. */
        final int[] succ0;
        final int[] succ1;
        /** Predecessors of node i: predOf[predStart[i] .. predStart[i + 1]). */
        final int[] predStart;
        final int[] predOf;
        /** Function-local guard register of each instruction (-1: none). */
        final int[] guard;
        /**
         * Function-local registers an instruction writes and reads (as the slice takes them), and
         * whether it has an address among its source operands: made for loop members on first need
         * (a Cfg is used by one thread, while its program's table is built).
         */
        final int[][] dests;
        final int[][] uses;
        final boolean[] loads;
        private final Regs regs = new Regs();

        Cfg(Op[] code, int start, int n) {
            this.code = code;
            this.start = start;
            this.n = n;
            flow = new byte[n];
            succ0 = new int[n + 1];
            succ1 = new int[n + 1];
            java.util.Arrays.fill(succ0, -1);
            java.util.Arrays.fill(succ1, -1);
            dests = new int[n][];
            uses = new int[n][];
            guard = new int[n];
            loads = new boolean[n];
            for (int i = 0; i < n; i++) {
                Op op = code[start + i];
                int kind = op.flow();
                flow[i] = (byte) kind;
                boolean guarded = op.guardReg >= 0;
                guard[i] = guarded ? op.guardReg - op.regBase : -1;
                if (kind == Op.FLOW_CALL) {
                    // Another function's loop: never parked when on the poll's loop (checked below).
                    if (i + 1 < n) succ0[i] = i + 1;
                } else if (kind == Op.FLOW_BRANCH) {
                    int t = op.branchTarget() - start;
                    if (t >= 0 && t <= n) succ0[i] = t;
                    if (guarded && i + 1 < n) {
                        if (succ0[i] < 0) succ0[i] = i + 1;
                        else succ1[i] = i + 1;
                    }
                } else if (kind == Op.FLOW_LEAVE) {
                    if (guarded && i + 1 < n) succ0[i] = i + 1;
                } else if (i + 1 < n) {
                    succ0[i] = i + 1;
                }
            }
            predStart = new int[n + 2];
            for (int i = 0; i <= n; i++) {
                if (succ0[i] >= 0) predStart[succ0[i] + 1]++;
                if (succ1[i] >= 0) predStart[succ1[i] + 1]++;
            }
            for (int i = 0; i <= n; i++) predStart[i + 1] += predStart[i];
            predOf = new int[predStart[n + 1]];
            int[] fill = java.util.Arrays.copyOf(predStart, n + 1);
            for (int i = 0; i <= n; i++) {
                if (succ0[i] >= 0) predOf[fill[succ0[i]]++] = i;
                if (succ1[i] >= 0) predOf[fill[succ1[i]]++] = i;
            }
        }

        Instruction insn(int i) { return code[start + i].insn; }

        /** The loop of the poll at local index {@code q}, registers numbered from {@code base}. */
        PollLoop loop(int q, int base) {
            BitSet loop = reachForward(q);
            loop.and(reachBackward(q));
            if (!(succ0[q] >= 0 && loop.get(succ0[q])) && !(succ1[q] >= 0 && loop.get(succ1[q]))) return NEVER;
            BitSet slice = new BitSet();
            List<Operand> pollOps = insn(q).operands();
            Regs pollRegs = new Regs();
            for (int k = 1; k < pollOps.size(); k++) addRegs(pollOps.get(k), pollRegs);
            for (int r : pollRegs.take()) slice.set(r);
            int[] members = new int[loop.cardinality()];
            for (int i = loop.nextSetBit(0), m = 0; i >= 0; i = loop.nextSetBit(i + 1)) members[m++] = i;
            for (int i : members) {
                if (flow[i] == Op.FLOW_CALL) return NEVER;
                boolean leaves = flow[i] == Op.FLOW_LEAVE;
                leaves |= succ0[i] >= 0 && !loop.get(succ0[i]);
                leaves |= succ1[i] >= 0 && !loop.get(succ1[i]);
                if (leaves && guard[i] >= 0) slice.set(guard[i]);
            }
            for (int i : members) if (i != q && dests[i] == null) facts(i);
            boolean readsMemory = false;
            for (boolean changed = true; changed; ) {
                changed = false;
                for (int i : members) {
                    if (i == q) continue; // the poll's own result: false at every poll that may park
                    if (!intersects(dests[i], slice)) continue;
                    readsMemory |= loads[i];
                    switch (insn(i).opcode()) {
                        case "shfl", "vote", "match", "redux", "activemask", "elect", "mbarrier", "bar", "barrier", "tex", "tld4", "suld", "txq", "suq" -> {
                            return NEVER;
                        }
                        default -> { }
                    }
                    for (int r : uses[i]) {
                        if (!slice.get(r)) {
                            slice.set(r);
                            changed = true;
                        }
                    }
                    if (guard[i] >= 0 && !slice.get(guard[i])) {
                        slice.set(guard[i]);
                        changed = true;
                    }
                }
            }
            int[] regs = new int[slice.cardinality()];
            for (int r = slice.nextSetBit(0), k = 0; r >= 0; r = slice.nextSetBit(r + 1)) regs[k++] = base + r;
            return new PollLoop(true, regs, readsMemory);
        }

        private void facts(int i) {
            Instruction in = insn(i);
            List<Operand> ops = in.operands();
            if (writesFirst(in)) addRegs(ops.get(0), regs);
            // Every operand after the written one (all when none is written).
            int from = regs.n == 0 ? 0 : 1;
            dests[i] = regs.take();
            for (int k = from; k < ops.size(); k++) addRegs(ops.get(k), regs);
            uses[i] = regs.take();
            for (int k = 1; k < ops.size(); k++) loads[i] |= ops.get(k) instanceof Operand.Address;
        }

        private static boolean intersects(int[] regs, BitSet set) {
            for (int r : regs) if (set.get(r)) return true;
            return false;
        }

        /** Nodes reachable from {@code from} by at least one edge. */
        private BitSet reachForward(int from) {
            BitSet seen = new BitSet(n + 1);
            int[] work = new int[n + 1];
            int top = 0;
            top = visit(succ0[from], seen, work, top);
            top = visit(succ1[from], seen, work, top);
            while (top > 0) {
                int i = work[--top];
                top = visit(succ0[i], seen, work, top);
                top = visit(succ1[i], seen, work, top);
            }
            return seen;
        }

        /** Nodes from which {@code to} is reachable by at least one edge. */
        private BitSet reachBackward(int to) {
            BitSet seen = new BitSet(n + 1);
            int[] work = new int[n + 1];
            int top = 0;
            for (int k = predStart[to]; k < predStart[to + 1]; k++) top = visit(predOf[k], seen, work, top);
            while (top > 0) {
                int i = work[--top];
                for (int k = predStart[i]; k < predStart[i + 1]; k++) top = visit(predOf[k], seen, work, top);
            }
            return seen;
        }

        private static int visit(int s, BitSet seen, int[] work, int top) {
            if (s < 0 || seen.get(s)) return top;
            seen.set(s);
            work[top] = s;
            return top + 1;
        }
    }

    /** Whether an instruction writes its first operand (a register, a vector or a pair of them), as the slice sees it. */
    private static boolean writesFirst(Instruction in) {
        String op = in.opcode();
        if (in.operands().isEmpty() || op.equals("st") || op.equals("red") || op.equals("bra") || op.equals("cp")
                || op.equals("bar") || op.equals("barrier") || op.equals("nanosleep") || op.equals("prefetch")) return false;
        return !(in.operands().get(0) instanceof Operand.Address);
    }

    /** A growing list of function-local register indices, taken (and emptied) as an array. */
    private static final class Regs {
        private static final int[] NONE = new int[0];
        int[] a = new int[8];
        int n;

        void add(int r) {
            if (n == a.length) a = java.util.Arrays.copyOf(a, 2 * n);
            a[n++] = r;
        }

        int[] take() {
            int[] out = n == 0 ? NONE : java.util.Arrays.copyOf(a, n);
            n = 0;
            return out;
        }
    }

    /** Function-local register indices of an operand. */
    private static void addRegs(Operand o, Regs out) {
        if (o instanceof Operand.Reg r) out.add(r.reg().index());
        else if (o instanceof Operand.Video v) out.add(v.reg().reg().index());
        else if (o instanceof Operand.Address a) { if (a.base() != null) addRegs(a.base(), out); }
        else if (o instanceof Operand.Vector v) for (Operand e : v.elements()) addRegs(e, out);
        else if (o instanceof Operand.Pair p) {
            addRegs(p.first(), out);
            addRegs(p.second(), out);
        } else if (o instanceof Operand.ParenList l) for (Operand e : l.elements()) addRegs(e, out);
    }
}
