package io.barrierscope.sync;

import io.barrierscope.exec.Program;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import java.util.ArrayDeque;
import java.util.ArrayList;
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

    /** The loop of the poll at global {@code pc}. */
    static PollLoop of(Program p, int pc) {
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
        List<Instruction> code = f.instructions();
        int q = pc - start;
        if (q < 0 || q >= code.size()) return NEVER;
        int n = code.size();
        List<List<Integer>> succ = new ArrayList<>(n);
        List<List<Integer>> pred = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            succ.add(new ArrayList<>(2));
            pred.add(new ArrayList<>(2));
        }
        for (int i = 0; i < n; i++) {
            Instruction in = code.get(i);
            String op = in.opcode();
            if (op.equals("brx") || op.equals("call")) {
                // Unknown targets or another function's loop: never parked when on the poll's loop (checked below).
                if (i + 1 < n) succ.get(i).add(i + 1);
                continue;
            }
            boolean guarded = in.guard() != null;
            if (op.equals("bra")) {
                if (!in.operands().isEmpty() && in.operands().get(0) instanceof Operand.Label l) succ.get(i).add(l.target());
                if (guarded && i + 1 < n) succ.get(i).add(i + 1);
            } else if (op.equals("ret") || op.equals("exit") || op.equals("trap")) {
                if (guarded && i + 1 < n) succ.get(i).add(i + 1);
            } else if (i + 1 < n) {
                succ.get(i).add(i + 1);
            }
        }
        for (int i = 0; i < n; i++) for (int s : succ.get(i)) pred.get(s).add(i);
        BitSet loop = reach(succ, q);
        loop.and(reach(pred, q));
        boolean cycle = false;
        for (int s : succ.get(q)) cycle |= loop.get(s);
        if (!cycle) return NEVER;
        int base = p.registerBase.getOrDefault(fn, 0);
        BitSet slice = new BitSet();
        Instruction poll = code.get(q);
        for (int k = 1; k < poll.operands().size(); k++) addRegs(poll.operands().get(k), base, slice);
        for (int i = loop.nextSetBit(0); i >= 0; i = loop.nextSetBit(i + 1)) {
            Instruction in = code.get(i);
            if (in.opcode().equals("brx") || in.opcode().equals("call")) return NEVER;
            boolean leaves = in.opcode().equals("ret") || in.opcode().equals("exit") || in.opcode().equals("trap");
            for (int s : succ.get(i)) leaves |= !loop.get(s);
            if (leaves && in.guard() != null) slice.set(base + in.guard().reg().index());
        }
        boolean readsMemory = false;
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = loop.nextSetBit(0); i >= 0; i = loop.nextSetBit(i + 1)) {
                if (i == q) continue; // the poll's own result: false at every poll that may park
                Instruction in = code.get(i);
                BitSet dests = dests(in, base);
                if (!dests.intersects(slice)) continue;
                for (int k = 1; k < in.operands().size(); k++) readsMemory |= in.operands().get(k) instanceof Operand.Address;
                switch (in.opcode()) {
                    case "shfl", "vote", "match", "redux", "activemask", "elect", "mbarrier", "bar", "barrier", "tex", "suld" -> {
                        return NEVER;
                    }
                    default -> { }
                }
                BitSet before = (BitSet) slice.clone();
                List<Operand> ops = in.operands();
                for (int k = dests.isEmpty() ? 0 : 1; k < ops.size(); k++) addRegs(ops.get(k), base, slice);
                if (!dests.isEmpty() && ops.get(0) instanceof Operand.Address a) addRegs(a, base, slice);
                if (in.guard() != null) slice.set(base + in.guard().reg().index());
                changed |= !slice.equals(before);
            }
        }
        return new PollLoop(true, slice.stream().toArray(), readsMemory);
    }

    private static BitSet reach(List<List<Integer>> edges, int from) {
        BitSet seen = new BitSet();
        ArrayDeque<Integer> work = new ArrayDeque<>();
        for (int s : edges.get(from)) if (!seen.get(s)) {
            seen.set(s);
            work.add(s);
        }
        while (!work.isEmpty()) {
            int i = work.poll();
            for (int s : edges.get(i)) {
                if (!seen.get(s)) {
                    seen.set(s);
                    work.add(s);
                }
            }
        }
        return seen;
    }

    /** The registers an instruction writes: its first operand, when that is a register, a vector or a pair of them. */
    private static BitSet dests(Instruction in, int base) {
        BitSet d = new BitSet();
        String op = in.opcode();
        if (in.operands().isEmpty() || op.equals("st") || op.equals("red") || op.equals("bra") || op.equals("cp")
                || op.equals("bar") || op.equals("barrier") || op.equals("nanosleep") || op.equals("prefetch")) return d;
        Operand first = in.operands().get(0);
        if (!(first instanceof Operand.Address)) addRegs(first, base, d);
        return d;
    }

    private static void addRegs(Operand o, int base, BitSet out) {
        if (o instanceof Operand.Reg r) out.set(base + r.reg().index());
        else if (o instanceof Operand.Address a) { if (a.base() != null) addRegs(a.base(), base, out); }
        else if (o instanceof Operand.Vector v) for (Operand e : v.elements()) addRegs(e, base, out);
        else if (o instanceof Operand.Pair p) {
            addRegs(p.first(), base, out);
            addRegs(p.second(), base, out);
        } else if (o instanceof Operand.ParenList l) for (Operand e : l.elements()) addRegs(e, base, out);
    }
}
