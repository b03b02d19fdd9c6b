package io.barrierscope.check;

import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.StateSpace;
import io.barrierscope.ptx.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How many mbarrier objects one CTA can hold, read from the PTX before the launch runs (the race
 * detector keeps clocks per object: RaceMemory.joinedClockBytes). An object exists only where an
 * {@code mbarrier.init} made one (every other operation needs a valid object, PTX ISA 9.7.13.15),
 * and an init addresses its own CTA's shared memory only (9.7.13.15.9). So a CTA holds at most as
 * many objects as there are distinct addresses the kernel's inits can name, however many threads
 * run them and however often.
 *
 * <p>Each init's address is followed back through the registers it was computed in, without
 * regard to order (every definition of a register, and its initial 0, is a value it may hold): a
 * variable's address or a number, moved, converted between integer widths of 32 bits or more or
 * between shared and generic addresses, offset by a number ({@code add}, {@code sub}) or chosen
 * ({@code selp}). Each place (a variable and an offset, or a number) names at most one object's
 * offset whatever conversions it went through: the shared window and 32-bit truncation differ by
 * multiples of 2^32, and a result that is no valid shared offset names no object. An address any
 * other way (loaded, from a parameter, indexed by a thread id) is unknown, and then the most the
 * CTA's shared memory could hold (one per 8 bytes) is counted.
 */
final class MbarrierPlaces {
    private MbarrierPlaces() {}

    /** Places one register may hold before it counts as unknown (a loop stepping an address). */
    static final int MOST_PLACES = 256;
    /** Passes over a function before its registers count as unknown (each pass adds a place or stops). */
    private static final int MOST_PASSES = 64;

    /** A variable's address plus an offset, or a number ({@code variable} -1). */
    record Place(int variable, long offset) {
        Place plus(long d) { return new Place(variable, offset + d); }
    }

    /**
     * The distinct places the module's inits can name (so the most mbarrier objects one CTA can
     * hold), or -1 when one is unknown (then one per 8 bytes of its shared memory is the most).
     */
    static long count(Module module) {
        Set<Place> places = new HashSet<>(); // only its size is read
        for (Function f : module.functions().values()) {
            List<Set<Place>> regs = null;
            boolean analysed = false;
            for (Instruction in : f.instructions()) {
                if (!in.opcode().equals("mbarrier") || !in.has(".init") || in.operands().isEmpty()) continue;
                if (!analysed) {
                    regs = registers(f);
                    analysed = true;
                }
                Set<Place> at = regs == null ? null : address(in.operands().get(0), regs);
                if (at == null) return -1;
                places.addAll(at);
            }
        }
        return places.size();
    }

    /** The most mbarrier objects one CTA of {@code sharedBytesPerCta} can hold, for a module of {@link #count} {@code places}. */
    static long perCta(long places, long sharedBytesPerCta) {
        return places < 0 ? sharedBytesPerCta / 8 : Math.min(places, sharedBytesPerCta / 8);
    }

    /** The places each register of {@code f} may hold (null: unknown), or null when they do not settle. */
    private static List<Set<Place>> registers(Function f) {
        List<Set<Place>> regs = new ArrayList<>(f.registers().size());
        Set<String> fromCaller = new HashSet<>();
        for (List<Variable> vs : List.of(f.params(), f.returns())) {
            for (Variable v : vs) if (v.space() == StateSpace.REG) fromCaller.add(v.name());
        }
        // Registers start at 0; a .reg parameter holds what the caller passed.
        for (int i = 0; i < f.registers().size(); i++) regs.add(new HashSet<>(Set.of(new Place(-1, 0))));
        for (io.barrierscope.ptx.Register r : f.registers()) {
            if (fromCaller.contains(r.name()) && r.index() >= 0 && r.index() < regs.size()) regs.set(r.index(), null);
        }
        for (int pass = 0; pass < MOST_PASSES; pass++) {
            boolean changed = false;
            for (Instruction in : f.instructions()) changed |= define(in, regs);
            if (!changed) return regs;
        }
        return null;
    }

    /** Joins what {@code in} writes into its destination registers; whether any changed. */
    private static boolean define(Instruction in, List<Set<Place>> regs) {
        if (in.operands().isEmpty()) return false;
        Operand dst = in.operands().get(0);
        if (dst instanceof Operand.Reg r && !r.negated()) return join(regs, r.reg().index(), value(in, regs));
        return unknown(dst, regs); // a vector, pair or list of destinations: none followed
    }

    /** Marks every register inside {@code o} unknown; whether any changed. */
    private static boolean unknown(Operand o, List<Set<Place>> regs) {
        if (o instanceof Operand.Reg r) return join(regs, r.reg().index(), null);
        if (o instanceof Operand.Video v) return join(regs, v.reg().reg().index(), null);
        if (o instanceof Operand.Pair p) return unknown(p.first(), regs) | unknown(p.second(), regs);
        List<Operand> all = o instanceof Operand.Vector v ? v.elements() : o instanceof Operand.ParenList l ? l.elements() : List.of();
        boolean changed = false;
        for (Operand e : all) changed |= unknown(e, regs);
        return changed;
    }

    private static boolean join(List<Set<Place>> regs, int reg, Set<Place> v) {
        if (reg < 0 || reg >= regs.size()) return false;
        Set<Place> cur = regs.get(reg);
        if (cur == null) return false;
        if (v == null || cur.size() + v.size() > MOST_PLACES && !cur.containsAll(v)) {
            regs.set(reg, null);
            return true;
        }
        return cur.addAll(v);
    }

    /** The places {@code in} writes to its destination, or null when unknown. */
    private static Set<Place> value(Instruction in, List<Set<Place>> regs) {
        List<Operand> ops = in.operands();
        if (ops.size() < 2) return null;
        switch (in.opcode()) {
            case "mov" -> {
                return ops.size() == 2 ? of(ops.get(1), regs) : null;
            }
            case "cvta" -> {
                // Between a shared offset and its generic address: the same object.
                return ops.size() == 2 && (in.has(".shared") || in.has(".shared::cta")) ? of(ops.get(1), regs) : null;
            }
            case "cvt" -> {
                return ops.size() == 2 && wideIntegersOnly(in) ? of(ops.get(1), regs) : null;
            }
            case "add", "sub" -> {
                if (ops.size() != 3 || !wideIntegersOnly(in)) return null;
                return sum(of(ops.get(1), regs), of(ops.get(2), regs), in.opcode().equals("sub"));
            }
            case "selp" -> {
                if (ops.size() != 4) return null;
                Set<Place> a = of(ops.get(1), regs), b = of(ops.get(2), regs);
                if (a == null || b == null || a.size() + b.size() > MOST_PLACES) return null;
                Set<Place> out = new HashSet<>(a);
                out.addAll(b);
                return out;
            }
            default -> {
                return null;
            }
        }
    }

    /** Whether every type the instruction names is an integer of 32 or 64 bits (no saturation, no float). */
    private static boolean wideIntegersOnly(Instruction in) {
        boolean typed = false;
        for (String m : in.modifiers()) {
            switch (m) {
                case ".u32", ".s32", ".u64", ".s64", ".b32", ".b64" -> typed = true;
                case ".cc" -> { return false; } // a carry chain's parts are no address
                default -> {
                    if (m.equals(".sat") || m.matches("\\.[usbf]\\d+") || m.startsWith(".f") || m.startsWith(".bf") || m.startsWith(".r")) {
                        return false;
                    }
                }
            }
        }
        return typed;
    }

    /** {@code a + b} (or {@code a - b}), each pair whose sum names at most one variable; null when unknown. */
    private static Set<Place> sum(Set<Place> a, Set<Place> b, boolean minus) {
        if (a == null || b == null || (long) a.size() * b.size() > MOST_PLACES) return null;
        Set<Place> out = new HashSet<>();
        for (Place x : a) {
            for (Place y : b) {
                if (y.variable() >= 0 && (minus || x.variable() >= 0)) return null; // an address minus or plus another
                out.add(y.variable() >= 0 ? y.plus(x.offset()) : x.plus(minus ? -y.offset() : y.offset()));
            }
        }
        return out;
    }

    /** The places an operand stands for, or null when unknown. */
    private static Set<Place> of(Operand o, List<Set<Place>> regs) {
        if (o instanceof Operand.Reg r && !r.negated() && r.reg().index() < regs.size()) {
            Set<Place> v = regs.get(r.reg().index());
            return v == null ? null : new HashSet<>(v);
        }
        if (o instanceof Operand.Imm i && i.kind() == Operand.ImmKind.INT) return new HashSet<>(Set.of(new Place(-1, i.value())));
        if (o instanceof Operand.Symbol s && s.variable() != null) return new HashSet<>(Set.of(new Place(s.variable().id(), s.offset())));
        return null;
    }

    /** The places a memory operand {@code [base+offset]} names, or null when unknown. */
    private static Set<Place> address(Operand o, List<Set<Place>> regs) {
        if (!(o instanceof Operand.Address a)) return null;
        Set<Place> base = a.base() == null ? new HashSet<>(Set.of(new Place(-1, 0))) : of(a.base(), regs);
        if (base == null) return null;
        Set<Place> out = new HashSet<>();
        for (Place p : base) out.add(p.plus(a.offset()));
        return out;
    }
}
