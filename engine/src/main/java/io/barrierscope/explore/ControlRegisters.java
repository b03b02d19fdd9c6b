package io.barrierscope.explore;

import io.barrierscope.exec.Program;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.SpecialRegister;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Which registers two warps must agree on, lane by lane, to count as symmetric at a decision
 * point ({@link WarpSymmetry}): every predicate register (a condition already computed), plus the
 * control slice minus the registers derived from the thread's identity.
 *
 * <p>The control slice is a flow-insensitive backward slice over register def-use from the
 * operands that steer control or synchronization: instruction guards, indirect branch and call
 * targets, every source of a barrier, mbarrier, nanosleep or call-argument store, the member mask
 * of a warp {@code .sync} collective, and the size / mbarrier operands of an asynchronous copy.
 * A loop counter or a flag loaded from memory is in it; an accumulator that is only stored is not.
 *
 * <p>Identity-derived registers (forward from {@code %tid} and {@code %warpid}, through
 * arithmetic but not through loads, whose result is memory data) differ between warps by
 * construction, so comparing them would make no two warps symmetric; leaving them out is what
 * makes the reduction a heuristic for kernels whose control depends on the warp's identity (see
 * docs/explore.md). {@code %laneid} and the lane masks are the same lane by lane, so they count.
 */
final class ControlRegisters {
    private ControlRegisters() {}

    /** One instruction as absolute register indices. */
    private record Insn(int[] dests, int[] sources, int[] seeds, boolean identity, boolean fromMemory) {}

    /** The absolute register indices to compare, ascending. */
    static int[] of(Program p) {
        List<Insn> insns = new ArrayList<>();
        BitSet preds = new BitSet();
        for (Map.Entry<String, Integer> e : p.registerBase.entrySet()) {
            Function f = p.module.function(e.getKey());
            int base = e.getValue();
            for (var r : f.registers()) if (r.type().isPred()) preds.set(base + r.index());
            for (Instruction in : f.instructions()) insns.add(compile(in, base));
        }
        BitSet slice = new BitSet();
        for (Insn i : insns) for (int r : i.seeds) slice.set(r);
        BitSet identity = new BitSet();
        for (boolean changed = true; changed; ) {
            changed = false;
            for (Insn i : insns) {
                if (anyIn(i.dests, slice)) changed |= addAll(slice, i.sources);
                if (!i.fromMemory && (i.identity || anyIn(i.sources, identity))) changed |= addAll(identity, i.dests);
            }
        }
        slice.andNot(identity);
        slice.or(preds);
        return slice.stream().toArray();
    }

    private static boolean anyIn(int[] regs, BitSet set) {
        for (int r : regs) if (set.get(r)) return true;
        return false;
    }

    private static boolean addAll(BitSet set, int[] regs) {
        boolean changed = false;
        for (int r : regs) {
            if (!set.get(r)) {
                set.set(r);
                changed = true;
            }
        }
        return changed;
    }

    private static Insn compile(Instruction in, int base) {
        List<Operand> ops = in.operands();
        boolean dest = hasDest(in);
        List<Integer> dests = new ArrayList<>();
        List<Integer> sources = new ArrayList<>();
        List<Integer> seeds = new ArrayList<>();
        boolean[] identity = {false};
        for (int k = 0; k < ops.size(); k++) {
            if (k == 0 && dest) registers(ops.get(0), base, dests, null);
            else registers(ops.get(k), base, sources, identity);
        }
        if (in.guard() != null) seeds.add(base + in.guard().reg().index());
        String op = in.opcode();
        switch (op) {
            case "bar", "barrier", "mbarrier", "nanosleep", "brx" -> seeds.addAll(sources);
            case "st" -> {
                if (in.has(".param")) seeds.addAll(sources);
            }
            case "call" -> {
                for (Operand o : ops) if (o instanceof Operand.Reg r) seeds.add(base + r.reg().index());
            }
            case "cp" -> {
                for (int k = 2; k < ops.size(); k++) registers(ops.get(k), base, seeds, null);
            }
            case "shfl", "vote", "match", "redux", "elect" -> {
                if (!ops.isEmpty() && in.has(".sync")) registers(ops.get(ops.size() - 1), base, seeds, null);
            }
            default -> { }
        }
        boolean fromMemory = switch (op) {
            case "ld", "ldu", "atom", "ldmatrix", "suld", "tex", "tld4", "txq", "suq", "mbarrier", "multimem" -> true; // txq/suq read the object's descriptor
            default -> false;
        };
        return new Insn(ints(dests), ints(sources), ints(seeds), identity[0], fromMemory);
    }

    /** Whether operand 0 is written (a destination) rather than read. */
    private static boolean hasDest(Instruction in) {
        if (in.operands().isEmpty()) return false;
        Operand o = in.operands().get(0);
        if (!(o instanceof Operand.Reg || o instanceof Operand.Video || o instanceof Operand.Pair || o instanceof Operand.Vector
                || o instanceof Operand.Sink)) {
            return false;
        }
        return switch (in.opcode()) {
            case "bar", "barrier", "nanosleep", "bra", "brx", "call", "pmevent", "trap", "exit", "ret", "setmaxnreg" -> false;
            default -> true;
        };
    }

    /** Adds every register named inside {@code o}; marks {@code identity[0]} when it reads %tid or %warpid. */
    private static void registers(Operand o, int base, List<Integer> out, boolean[] identity) {
        if (o instanceof Operand.Reg r) {
            out.add(base + r.reg().index());
            // A .b128 register's high half is the slot after it.
            if (r.reg().type() == io.barrierscope.ptx.ScalarType.B128) out.add(base + r.reg().index() + 1);
        } else if (o instanceof Operand.Video v) {
            out.add(base + v.reg().reg().index());
        } else if (o instanceof Operand.Special s) {
            if (identity != null && (s.kind() == SpecialRegister.TID || s.kind() == SpecialRegister.WARPID)) identity[0] = true;
        } else if (o instanceof Operand.Address a) {
            if (a.base() != null) registers(a.base(), base, out, identity);
        } else if (o instanceof Operand.Vector v) {
            for (Operand e : v.elements()) registers(e, base, out, identity);
        } else if (o instanceof Operand.ParenList l) {
            for (Operand e : l.elements()) registers(e, base, out, identity);
        } else if (o instanceof Operand.Pair pr) {
            registers(pr.first(), base, out, identity);
            registers(pr.second(), base, out, identity);
        }
    }

    private static int[] ints(List<Integer> l) { return l.stream().mapToInt(Integer::intValue).toArray(); }
}
