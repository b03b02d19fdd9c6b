package io.barrierscope.app.session;

import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.SymbolTable;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Register;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Copies one thread's registers and its CTA's shared memory out of a live run. Engine thread only. */
final class InspectionCapture {
    private static final Pattern LOCAL_STATIC = Pattern.compile("_ZZ(\\d+)");
    private static final Pattern NUMBER = Pattern.compile("(\\d+)");

    private InspectionCapture() {}

    /** The inspection of {@code slot}, or null when there is no such thread. */
    static Inspection capture(LaunchedRun run, int slot) {
        Machine m = run.machine();
        if (slot < 0 || slot >= m.slots || !m.exists(slot)) return null;
        Program p = run.program();
        Function f = functionAt(p, m.pc[slot]);
        List<Inspection.RegisterValue> regs = new ArrayList<>();
        if (f != null) {
            int base = p.registerBase.get(f.name());
            for (Register r : f.registers()) {
                regs.add(new Inspection.RegisterValue(r.name(), r.type(), m.reg(slot, base + r.index())));
            }
        }
        int cta = m.ctaOfSlot(slot);
        List<Inspection.Symbol> symbols = new ArrayList<>();
        for (SymbolTable.Placed s : p.symbols.all()) {
            if (s.space() == Space.SHARED) symbols.add(new Inspection.Symbol(readable(s.name()), s.offset(), s.size()));
        }
        symbols.sort(Comparator.comparingLong(Inspection.Symbol::offset));
        List<Inspection.MbarrierWord> words = new ArrayList<>();
        for (Mbarrier b : m.mbarriers.all()) {
            if (b.cta != cta) continue;
            words.add(new Inspection.MbarrierWord(b.offset, MbarrierOp.name(m, b.offset), b.valid, b.phase, b.pending,
                    b.expected, b.tx, b.arrivals, b.txExpected, b.txCompleted));
        }
        return new Inspection(slot, m.threadName(slot), f == null ? "" : f.name(), List.copyOf(regs), cta,
                StateCapture.ctaName(m, cta), m.memory.shared[cta].clone(), List.copyOf(symbols), List.copyOf(words));
    }

    /** The function whose PCs include {@code pc}: the one with the greatest first PC not above it. */
    private static Function functionAt(Program p, int pc) {
        String best = null;
        int bestPc = -1;
        for (Map.Entry<String, Integer> e : p.functionPc.entrySet()) {
            if (e.getValue() <= pc && e.getValue() > bestPc) {
                best = e.getKey();
                bestPc = e.getValue();
            }
        }
        return best == null ? p.kernel : p.module.function(best);
    }

    /**
     * The source name of a variable: nvcc names a function's static __shared__ variable
     * {@code _ZZ<n><function>E<k><name>} (Itanium local-name mangling); show {@code name}.
     */
    static String readable(String ptxName) {
        Matcher mm = LOCAL_STATIC.matcher(ptxName);
        if (!mm.lookingAt()) return ptxName;
        int at = mm.end() + Integer.parseInt(mm.group(1));
        if (at >= ptxName.length() || ptxName.charAt(at) != 'E') return ptxName;
        Matcher k = NUMBER.matcher(ptxName).region(at + 1, ptxName.length());
        if (!k.lookingAt()) return ptxName;
        int start = k.end();
        int len = Integer.parseInt(k.group(1));
        return start + len <= ptxName.length() ? ptxName.substring(start, start + len) : ptxName;
    }
}
