package io.barrierscope.app.session;

import io.barrierscope.check.Deadlock;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.CtaBarrierUnit;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import io.barrierscope.sync.MbarrierUnit;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Copies what the views need out of a live run into a {@link Snapshot}. The one place in the
 * app that reads machine arrays; it runs on the engine thread only.
 */
final class StateCapture {
    /** Printf lines shown in the end-of-run report; the Console tab has them all. */
    private static final int MAX_OUTPUT_LINES = 200;

    private StateCapture() {}

    /**
     * @param nav     the run and the warp the views follow
     * @param cause   which command the snapshot follows
     * @param inspect the thread to inspect, or -1 for the followed warp's first lane
     * @param stop    why the last move stopped ("" if it simply moved)
     * @param hitId   the breakpoint it stopped at, or -1
     */
    static Snapshot capture(Navigator nav, Snapshot.Cause cause, int inspect, String stop, int hitId) {
        LaunchedRun run = nav.tt.run();
        Machine m = run.machine();
        Interpreter x = run.interpreter();
        Op[] code = run.program().code;
        int warp = nav.follow() >= 0 ? nav.follow() : firstLiveWarp(m);
        Navigator.WarpStep last = nav.lastStep();
        int pc = warp >= 0 ? nextPc(m, warp) : -1;
        if (pc < 0 && last != null && last.warp() == warp) pc = last.pc();
        String focusName = warp < 0 ? "" : m.warpName(warp) + " · " + warpState(m, warp);
        String lastAction = last == null ? ""
                : m.warpName(last.warp()) + " executed line " + line(code, last.pc()) + ": "
                        + code[last.pc()].insn.text().strip().replaceAll("\\s+", " ");
        List<Diagnostic> diagnostics = List.copyOf(x.diagnostics());
        String report = x.finished() ? report(run) : null;
        boolean deadlocked = x.outcome() == Outcome.DEADLOCK;
        Deadlock deadlock = deadlocked ? run.deadlock() : null;
        Recording rec = nav.tt.recording();
        Snapshot.Travel travel = new Snapshot.Travel(nav.tt.frontier(), rec.finished(), stop, hitId,
                List.copyOf(rec.diagnostics()));
        return new Snapshot(x.outcome(), m.steps, m.cycles, run.maxSteps(), warp, focusName,
                line(code, pc), pc >= 0 && pc < code.length ? code[pc].insn.loc() : null, lastAction,
                warpsAtLine(m, code), nav.rows.barriers(barriers(m, deadlocked)), nav.rows.mbarriers(mbarriers(m, deadlocked)),
                nav.rows.clusterBarriers(ClusterBarrierCapture.rows(m, deadlocked)), diagnostics, deadlock,
                nav.threads.capture(), inspection(run, inspect, warp), report, cause, travel);
    }

    /** Why a move stopped, for the status bar; "" when a forward step simply moved (the last action says it). */
    static String stopText(Navigator nav, TimeTravel.Stop s, boolean forward) {
        return switch (s.reason()) {
            case BREAKPOINT -> "Breakpoint " + s.hit().breakpoint().spec() + " at step " + s.step() + ": " + s.hit().description();
            case BRKPT -> "Stopped at step " + s.step() + ": the kernel executed brkpt";
            case CANCELLED -> "Paused at step " + s.step();
            case START -> forward ? ""
                    : "At the start (step 0)" + (nav.tt.breakpoints().all().isEmpty() ? "" : ": no earlier breakpoint hit");
            case FINISHED, STEP_LIMIT -> forward ? "" : "At the last step (" + s.step() + ")";
            case STEPPED -> {
                if (forward) yield "";
                String next = nextAction(nav);
                yield "Back at step " + s.step() + (next.isEmpty() ? "" : " · next: " + next);
            }
        };
    }

    /** What the step the recording has next would do, e.g. "CTA (0,0,0) warp 1 executes line 40: bar.sync 0;", or "". */
    static String nextAction(Navigator nav) {
        Navigator.WarpStep next = nav.nextStep();
        if (next == null) return "";
        LaunchedRun run = nav.tt.run();
        Op[] code = run.program().code;
        return run.machine().warpName(next.warp()) + " executes line " + line(code, next.pc()) + ": "
                + code[next.pc()].insn.text().strip().replaceAll("\\s+", " ");
    }

    /** The inspected thread: the one asked for, else the followed warp's first live (or existing) lane. */
    static Inspection inspection(LaunchedRun run, int inspect, int focusWarp) {
        Machine m = run.machine();
        int slot = inspect;
        int warp = focusWarp >= 0 ? focusWarp : firstLiveWarp(m);
        if (slot < 0 && warp >= 0) {
            int mask = m.liveMask[warp] != 0 ? m.liveMask[warp] : m.existMask[warp];
            slot = (warp << 5) + Integer.numberOfTrailingZeros(mask);
        }
        return InspectionCapture.capture(run, slot);
    }

    private static int line(Op[] code, int pc) {
        return pc >= 0 && pc < code.length ? code[pc].insn.pos().line() : 0;
    }

    private static int firstLiveWarp(Machine m) {
        for (int w = 0; w < m.warps; w++) if (m.liveMask[w] != 0) return w;
        return m.warps > 0 ? 0 : -1;
    }

    /** The lowest PC among the warp's runnable lanes, else its live lanes; -1 if it has none. */
    static int nextPc(Machine m, int warp) {
        int mask = m.runMask[warp] != 0 ? m.runMask[warp] : m.liveMask[warp];
        int best = -1;
        for (int r = mask; r != 0; r &= r - 1) {
            int pc = m.pc[(warp << 5) + Integer.numberOfTrailingZeros(r)];
            if (best < 0 || pc < best) best = pc;
        }
        return best;
    }

    private static String warpState(Machine m, int warp) {
        int mask = m.liveMask[warp];
        if (mask == 0) mask = m.existMask[warp];
        if (mask == 0) return "empty";
        return ThreadStatus.name(m.status[(warp << 5) + Integer.numberOfTrailingZeros(mask)]);
    }

    private static Map<Integer, Integer> warpsAtLine(Machine m, Op[] code) {
        TreeMap<Integer, Integer> out = new TreeMap<>();
        for (int w = 0; w < m.warps; w++) {
            if (m.liveMask[w] == 0) continue;
            int line = line(code, nextPc(m, w));
            if (line > 0) out.merge(line, 1, Integer::sum);
        }
        return Collections.unmodifiableMap(out);
    }

    /** The barriers that were ever used: a generation is open now or has completed before. */
    private static List<BarrierRow> barriers(Machine m, boolean deadlocked) {
        List<BarrierRow> rows = new ArrayList<>();
        for (CtaBarrierUnit unit : m.ctaBarriers) {
            int live = m.liveWarps[unit.cta];
            for (CtaBarrier b : unit.barriers) {
                if (!b.active() && b.generation == 0) continue;
                int expected = b.warpsNeeded(live);
                rows.add(new BarrierRow(unit.cta, ctaName(m, unit.cta), b.id, b.generation, b.arrivedCount(), expected,
                        warpRanges(b.arrivedWarps), missingWarps(b, live, expected), deadlocked && b.active()));
            }
        }
        return List.copyOf(rows);
    }

    /** The valid mbarrier objects, by CTA then offset; stuck if a deadlocked thread waits on one. */
    static List<MbarrierRow> mbarriers(Machine m, boolean deadlocked) {
        Set<Long> waitedOn = new HashSet<>();
        if (deadlocked) {
            for (int s = 0; s < m.status.length; s++) {
                byte st = m.status[s];
                if (st == ThreadStatus.PARKED || st == ThreadStatus.MBAR_WAIT) waitedOn.add(m.waitValue[s]);
            }
        }
        List<MbarrierRow> rows = new ArrayList<>();
        for (Mbarrier b : m.mbarriers.all()) {
            if (!b.valid) continue;
            rows.add(new MbarrierRow(b.cta, ctaName(m, b.cta), b.offset, MbarrierOp.name(m, b.offset), b.phase,
                    b.pending, b.expected, b.tx, b.txExpected, b.txCompleted,
                    waitedOn.contains(MbarrierUnit.key(b.cta, b.offset))));
        }
        return List.copyOf(rows);
    }

    static String ctaName(Machine m, int cta) {
        // warpName is "CTA (x,y,z) warp n"; the CTA part names the CTA the same way everywhere.
        String w = m.warpName(cta * m.warpsPerCta);
        int cut = w.lastIndexOf(" warp ");
        return cut > 0 ? w.substring(0, cut) : "CTA " + cta;
    }

    /**
     * The live warps not arrived in an open generation: all of them when every live warp is
     * expected ("w2–3"); with a thread count, how many more are needed of them ("1 of w2–3"),
     * since any of them may complete it, unless all are ("w2"). "" when no generation is open.
     */
    private static String missingWarps(CtaBarrier b, int liveWarps, int expected) {
        if (!b.active()) return "";
        int absent = liveWarps & ~b.arrivedWarps;
        if (!b.hasCount()) return warpRanges(absent);
        int needed = expected - b.arrivedCount();
        if (needed <= 0) return "";
        if (absent == 0) return needed + " of no live warp";
        return needed >= Integer.bitCount(absent) ? warpRanges(absent) : needed + " of " + warpRanges(absent);
    }

    /** Warps by number within their CTA, runs joined: {@code 0b1011} is "w0–1 w3". */
    static String warpRanges(int warps) {
        return ranges("w", warps & 0xFFFFFFFFL, 0);
    }

    /**
     * The set bits of {@code bits} as numbered runs, e.g. prefix "t", bits 0b111 and base 32 give
     * "t32–34"; runs are space-separated.
     */
    static String ranges(String prefix, long bits, int base) {
        StringBuilder sb = new StringBuilder();
        while (bits != 0) {
            int from = Long.numberOfTrailingZeros(bits);
            int to = from;
            while (to < 63 && (bits & (1L << (to + 1))) != 0) to++;
            if (sb.length() > 0) sb.append(' ');
            sb.append(prefix).append(base + from);
            if (to > from) sb.append('–').append(base + to);
            bits &= to == 63 ? 0 : -1L << (to + 1);
        }
        return sb.toString();
    }

    /**
     * The end-of-run text: the engine's summary (outcome, diagnostics, deadlock explanation),
     * then what the launch file expected and did not get, then device printf output.
     */
    private static String report(LaunchedRun run) {
        StringBuilder sb = new StringBuilder(nonNull(run.summary()).strip()).append('\n');
        if (run.spec().expect() != null) {
            List<String> diffs = run.expectDifferences();
            if (diffs.isEmpty()) sb.append("\nExpectations of the launch file: all met.\n");
            else sb.append("\nExpectations of the launch file not met:\n");
            for (String d : diffs) sb.append("  ").append(d).append('\n');
        }
        List<PrintfLine> out = run.interpreter().printfLines();
        if (!out.isEmpty()) {
            sb.append("\nOutput (").append(out.size()).append(" printf lines)\n");
            for (int i = 0; i < Math.min(out.size(), MAX_OUTPUT_LINES); i++) {
                PrintfLine l = out.get(i);
                sb.append("  ").append(l.thread()).append(": ").append(l.text().stripTrailing()).append('\n');
            }
            if (out.size() > MAX_OUTPUT_LINES) {
                sb.append("  ... ").append(out.size() - MAX_OUTPUT_LINES).append(" more: every line is in the Console tab\n");
            }
        }
        return sb.toString();
    }

    private static String nonNull(String s) { return s == null ? "" : s; }
}
