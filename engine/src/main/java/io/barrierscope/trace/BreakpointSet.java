package io.barrierscope.trace;

import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.SymbolTable;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.MbarrierSync;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The breakpoints of a session, matched against events both live (as a listener during forward
 * execution, counting hits) and in a recording (to find the previous hit when running backwards).
 * The CLI and the window share it.
 */
public final class BreakpointSet implements ExecutionListener {
    /**
     * A breakpoint hit: the state to stop at (after {@code stopStep} warp steps), what happened,
     * and the warp concerned (-1 when no warp acted, e.g. a phase completing), for the window's focus.
     */
    public record Hit(Breakpoint breakpoint, long stopStep, long eventStep, int warp, String description) {}

    private final Machine m;
    private final List<Breakpoint> list = new ArrayList<>();
    /** For line breakpoints: the PCs they stop at. */
    private final Map<Breakpoint, BitSet> pcs = new IdentityHashMap<>();
    /** For mbarrier breakpoints by variable: the shared offsets [lo, hi) the variable covers. */
    private final Map<Breakpoint, long[]> ranges = new IdentityHashMap<>();
    private boolean muted;
    /** The position a move starts from: a line breakpoint there was already stopped at, so leaving it is no hit. */
    private long leaving = -1;
    private Hit pending;
    private final List<Hit> log = new ArrayList<>();

    public BreakpointSet(Machine m) { this.m = m; }

    /** Adds a breakpoint; a line or variable the kernel does not have is refused with a message. */
    public Breakpoint add(Breakpoint bp) {
        switch (bp.kind) {
            case LINE, CUDA_LINE -> {
                BitSet set = linePcs(bp);
                if (set.isEmpty()) {
                    throw new IllegalArgumentException("breakpoint '" + bp + "': no instruction of the kernel is on "
                            + (bp.kind == Breakpoint.Kind.LINE ? "PTX line " + bp.line : bp.file + ":" + bp.line));
                }
                pcs.put(bp, set);
            }
            case MBARRIER, TX_ZERO -> {
                if (bp.variable != null) {
                    long[] r = variableRange(bp.variable);
                    if (r == null) throw new IllegalArgumentException("breakpoint '" + bp + "': the kernel has no shared variable '"
                            + bp.variable + "'");
                    ranges.put(bp, r);
                }
            }
            default -> { }
        }
        list.add(bp);
        if (pcs.containsKey(bp) && pcs.size() == 1 && stepsNeeded != null) stepsNeeded.run();
        return bp;
    }

    /** Whether any breakpoint needs to see warp steps (line breakpoints do; the others match other events). */
    @Override
    public boolean takesWarpSteps() { return !pcs.isEmpty(); }

    /** Told when {@link #takesWarpSteps} changes (the session then has the interpreter ask again). */
    public void onStepsNeeded(Runnable r) { stepsNeeded = r; }

    private Runnable stepsNeeded;

    public Breakpoint add(String spec) { return add(Breakpoint.parse(spec)); }

    public void remove(Breakpoint bp) {
        list.remove(bp);
        boolean line = pcs.remove(bp) != null;
        ranges.remove(bp);
        if (line && pcs.isEmpty() && stepsNeeded != null) stepsNeeded.run();
    }

    public List<Breakpoint> all() { return Collections.unmodifiableList(list); }

    /** Whether there is any breakpoint to match events against. */
    public boolean any() { return !list.isEmpty(); }

    /** Every hit that stopped (or, for the CLI, was reported) so far, in order. */
    public List<Hit> log() { return Collections.unmodifiableList(log); }

    /** A move is about to leave position {@code step}. */
    public void leaving(long step) {
        leaving = step;
        countedBp.clear();
        countedStep.clear();
    }

    /** While muted (a seek re-executing known steps), nothing is counted. */
    public void mute(boolean on) { muted = on; }

    /** The hit that asks to stop, if any, without clearing it. */
    public Hit peekPending() { return pending; }

    /** The hit that asks to stop, if any; cleared by taking it. */
    public Hit takePending() {
        Hit h = pending;
        pending = null;
        return h;
    }

    private BitSet linePcs(Breakpoint bp) {
        BitSet set = new BitSet();
        var code = m.program.code;
        CudaLoc prev = null;
        for (int pc = 0; pc < code.length; pc++) {
            Instruction in = code[pc].insn;
            if (bp.kind == Breakpoint.Kind.LINE) {
                if (in.pos() != null && in.pos().line() == bp.line && !in.opcode().equals("ret")) set.set(pc);
            } else {
                // A line that calls inlined code is where its inlined instructions were inlined at.
                CudaLoc loc = in.loc();
                boolean here = loc != null && loc.within(bp.file, bp.line);
                boolean prevHere = prev != null && prev.within(bp.file, bp.line);
                if (here && !prevHere) set.set(pc);
                prev = loc;
            }
        }
        return set;
    }

    private long[] variableRange(String name) {
        for (SymbolTable.Placed p : m.program.symbols.all()) {
            if (p.space() != Space.SHARED) continue;
            if (p.name().equals(name) || MbarrierSync.readable(p.name()).equals(name)) {
                return new long[] {p.offset(), p.offset() + Math.max(8, p.size())};
            }
        }
        return null;
    }

    // ---- conditions ----

    private int clusterOf(int cta) {
        Dim3 c = m.grid.unflatten(cta);
        Dim3 cl = m.cluster;
        int gx = m.grid.x() / cl.x(), gy = m.grid.y() / cl.y();
        return c.x() / cl.x() + (c.y() / cl.y()) * gx + (c.z() / cl.z()) * gx * gy;
    }

    private boolean ctaOk(Breakpoint bp, int cta) {
        return (bp.cta < 0 || bp.cta == cta) && (bp.cluster < 0 || bp.cluster == clusterOf(cta));
    }

    /** Conditions against one thread (slot). */
    private boolean slotOk(Breakpoint bp, int slot) {
        int cta = m.ctaOfSlot(slot);
        if (!ctaOk(bp, cta)) return false;
        if (bp.warp >= 0 && bp.warp != m.warpInCta(slot >> 5)) return false;
        return bp.thread < 0 || bp.thread == m.tidOfSlot(slot);
    }

    /** Conditions against a warp and the lanes involved. */
    private boolean warpOk(Breakpoint bp, int warp, int lanes) {
        if (!ctaOk(bp, m.ctaOfWarp(warp))) return false;
        if (bp.warp >= 0 && bp.warp != m.warpInCta(warp)) return false;
        if (bp.thread < 0) return true;
        int tid = bp.thread;
        return tid / 32 == m.warpInCta(warp) && (lanes & (1 << (tid & 31))) != 0;
    }

    /** Conditions against a CTA object and the warps (of that CTA) it concerns, as a mask. */
    private boolean ctaWarpsOk(Breakpoint bp, int cta, long warps) {
        if (!ctaOk(bp, cta)) return false;
        int w = bp.warp >= 0 ? bp.warp : bp.thread >= 0 ? bp.thread / 32 : -1;
        return w < 0 || (w < 64 && (warps & (1L << w)) != 0);
    }

    private boolean mbarrierOk(Breakpoint bp, long key) {
        long off = key & 0xFFFFFFFFL;
        if (bp.offset >= 0 && off != bp.offset) return false;
        long[] r = ranges.get(bp);
        return r == null || (off >= r[0] && off < r[1]);
    }

    // ---- matching (shared by live execution and recordings) ----

    /** A line breakpoint hit by a warp step: describes it, or null. */
    String matchStep(Breakpoint bp, int warp, int pc, int group) {
        BitSet set = pcs.get(bp);
        if (set == null || !set.get(pc) || !warpOk(bp, warp, group)) return null;
        Instruction in = m.program.code[pc].insn;
        String inlined = bp.kind == Breakpoint.Kind.CUDA_LINE && in.loc() != null && in.loc().line() != bp.line
                ? ", inlined at " + bp.file + ":" + bp.line : "";
        return m.warpName(warp) + " is about to execute PTX line " + in.pos().line()
                + (in.loc() != null ? " (" + in.loc() + inlined + ")" : "") + ": " + in.text();
    }

    String matchSync(Breakpoint bp, SyncEvent kind, int slot, long object, long a, long b) {
        switch (bp.kind) {
            case BARRIER -> {
                if (kind != SyncEvent.BAR_COMPLETE) return null;
                int cta = (int) (object >>> 32), id = (int) object;
                if (bp.barrierId >= 0 && bp.barrierId != id) return null;
                if (bp.phase >= 0 && bp.phase != a) return null;
                if (!ctaWarpsOk(bp, cta, b)) return null;
                return "barrier " + id + " of CTA " + m.grid.unflatten(cta) + " completed generation " + a;
            }
            case MBARRIER -> {
                if (kind != SyncEvent.MBAR_PHASE_COMPLETE || !mbarrierOk(bp, object)) return null;
                if (bp.phase >= 0 && bp.phase != a) return null;
                // A completion is nobody's act: only the CTA and cluster conditions apply.
                if (!ctaOk(bp, (int) (object >>> 32))) return null;
                return describeMbar(object, "completed phase " + a);
            }
            case TX_ZERO -> {
                // Usually a copy landing; an expect-tx arriving after its bytes (tx-count below zero) counts too.
                boolean tx = kind == SyncEvent.MBAR_COMPLETE_TX || kind == SyncEvent.MBAR_EXPECT_TX;
                if (!tx || b != 0 || a == 0 || !mbarrierOk(bp, object)) return null;
                if (!ctaOk(bp, (int) (object >>> 32))) return null;
                return describeMbar(object, "tx-count reached zero (" + (kind == SyncEvent.MBAR_COMPLETE_TX ? "complete" : "expect")
                        + "-tx of " + a + " bytes)");
            }
            case ARRIVE -> {
                return switch (kind) {
                    case BAR_ARRIVE -> warpOk(bp, slot >> 5, (int) b)
                            ? m.warpName(slot >> 5) + " arrived on barrier " + (int) object + " (generation " + a + ")" : null;
                    case MBAR_ARRIVE -> slotOk(bp, slot)
                            ? m.threadName(slot) + " arrived on " + describeMbar(object, "(count " + a + ", " + b + " pending after)") : null;
                    case CLUSTER_ARRIVE -> slotOk(bp, slot) ? m.threadName(slot) + " arrived on barrier.cluster (phase " + a + ")" : null;
                    default -> null;
                };
            }
            case WAIT_FALSE -> {
                if (kind != SyncEvent.MBAR_WAIT_FALSE || !slotOk(bp, slot)) return null;
                return m.threadName(slot) + ": wait on " + describeMbar(object, "") + " returned false (waiting for "
                        + (b == 1 ? "parity " + a : "the phase of its token") + ")";
            }
            default -> {
                return null;
            }
        }
    }

    private String describeMbar(long key, String what) {
        int cta = (int) (key >>> 32);
        return "mbarrier " + MbarrierSync.describe(m, (int) key) + " of CTA " + m.grid.unflatten(cta) + (what.isEmpty() ? "" : " " + what);
    }

    String matchStatus(Breakpoint bp, int warp, int lanes, byte to) {
        if (bp.kind != Breakpoint.Kind.PARK || to != ThreadStatus.PARKED || !warpOk(bp, warp, lanes)) return null;
        int n = Integer.bitCount(lanes);
        return (n == 1 ? m.threadName((warp << 5) + Integer.numberOfTrailingZeros(lanes)) : m.warpName(warp) + " (" + n + " threads)")
                + " parked: polling an mbarrier that cannot change";
    }

    String matchDiagnostic(Breakpoint bp, Diagnostic d) {
        if (bp.kind != Breakpoint.Kind.DIAGNOSTIC) return null;
        if (bp.code != null && !bp.code.equals(d.code().code())) return null;
        if (!d.threads().isEmpty() && !slotOk(bp, d.threads().get(0))) return null;
        return "diagnostic [" + d.code().code() + "] " + d.message();
    }

    String matchEnd(Breakpoint bp, Outcome o) {
        if (bp.kind != Breakpoint.Kind.DEADLOCK || o != Outcome.DEADLOCK) return null;
        return "the run deadlocked";
    }

    // ---- live ----

    /**
     * The hits counted in the last two event steps of this move, in order: a stop before some of
     * them (a line breakpoint stops before its step) takes those back, since the steps will run
     * again when the session goes on (see {@link #rollBackFrom}).
     */
    private final List<Breakpoint> countedBp = new ArrayList<>();
    private final List<Long> countedStep = new ArrayList<>();

    private void count(Breakpoint bp, long eventStep) {
        bp.hits++;
        int old = 0;
        while (old < countedStep.size() && countedStep.get(old) < eventStep - 1) old++;
        if (old > 0) {
            countedBp.subList(0, old).clear();
            countedStep.subList(0, old).clear();
        }
        countedBp.add(bp);
        countedStep.add(eventStep);
    }

    /**
     * The session stops after {@code stop} warp steps: hits counted for events of that step or
     * later will be counted again when the step runs again, so they are taken back now. Line
     * breakpoints of the stop step stay counted: going on from there does not hit them again.
     */
    public void rollBackFrom(long stop) {
        for (int i = 0; i < countedBp.size(); i++) {
            long s = countedStep.get(i);
            Breakpoint bp = countedBp.get(i);
            if (s > stop || (s == stop && !bp.stopsBefore())) bp.hits--;
        }
        countedBp.clear();
        countedStep.clear();
    }

    private void hit(Breakpoint bp, long eventStep, int warp, String what) {
        count(bp, eventStep);
        if (bp.hits < bp.hitTarget) return;
        long stop = bp.stopsBefore() ? eventStep : eventStep + 1;
        if (pending != null) {
            if (stop == pending.stopStep()) {
                // Another breakpoint stops at the same place: say so, rather than lose it.
                if (pending.breakpoint() != bp) {
                    Hit both = new Hit(pending.breakpoint(), pending.stopStep(), pending.eventStep(), pending.warp(),
                            pending.description() + "; also [" + bp + "]: " + what);
                    log.set(log.size() - 1, both);
                    pending = both;
                }
                return;
            }
            if (stop > pending.stopStep()) return;
            // A line breakpoint on the step whose events fired the pending hit stops before it, so
            // first: the pending hit is dropped, uncounted when the stop rolls back, and fires
            // again when that step is run.
            log.remove(log.size() - 1);
            pending = null;
        }
        Hit h = new Hit(bp, stop, eventStep, warp, what);
        pending = h;
        log.add(h);
        if (onHit != null) onHit.run();
    }

    /** Called when a hit asks to stop (the session requests a break of the interpreter's loop). */
    public void onHit(Runnable r) { onHit = r; }

    private Runnable onHit;

    @Override
    public void warpStep(long step, int warp, int pc, int group, int active) {
        if (muted || pcs.isEmpty()) return;
        for (int i = 0; i < list.size(); i++) {
            Breakpoint bp = list.get(i);
            if (!bp.enabled || !bp.stopsBefore() || step == leaving) continue;
            String d = matchStep(bp, warp, pc, group);
            if (d != null) hit(bp, step, warp, d);
        }
    }

    @Override
    public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
        if (muted) return;
        for (int i = 0; i < list.size(); i++) {
            Breakpoint bp = list.get(i);
            if (!bp.enabled) continue;
            String d = matchSync(bp, kind, slot, object, a, b);
            if (d != null) hit(bp, step, slot < 0 ? -1 : slot >> 5, d);
        }
    }

    @Override
    public void statusChange(long step, int warp, int lanes, byte from, byte to) {
        if (muted || to != ThreadStatus.PARKED) return;
        for (int i = 0; i < list.size(); i++) {
            Breakpoint bp = list.get(i);
            if (!bp.enabled) continue;
            String d = matchStatus(bp, warp, lanes, to);
            if (d != null) hit(bp, step, warp, d);
        }
    }

    @Override
    public void diagnostic(Diagnostic diag) {
        if (muted) return;
        for (Breakpoint bp : list) {
            if (!bp.enabled) continue;
            String d = matchDiagnostic(bp, diag);
            if (d != null) hit(bp, diag.step(), diag.threads().isEmpty() ? -1 : diag.threads().get(0) >> 5, d);
        }
    }

    @Override
    public void finished(long step, Outcome outcome) {
        if (muted) return;
        for (Breakpoint bp : list) {
            if (!bp.enabled) continue;
            String d = matchEnd(bp, outcome);
            if (d != null) hit(bp, step, -1, d);
        }
    }

    // ---- recorded ----

    /**
     * The last hit of an enabled breakpoint whose stop state is before {@code before}, found by
     * scanning the recording backwards a block at a time (hit counts are not applied), or null.
     */
    public Hit previousHit(Recording r, long before) {
        if (list.isEmpty()) return null;
        for (long block = Math.max(0, Math.min(before, r.steps()) / Recording.BLOCK); block >= 0; block--) {
            long from = block * Recording.BLOCK;
            long to = from + Recording.BLOCK;
            Hit last = null;
            EventCursor c = r.cursor(from);
            while (c.next() && c.step < to) {
                for (Breakpoint bp : list) {
                    if (!bp.enabled) continue;
                    String d = matchRecorded(bp, c);
                    if (d == null) continue;
                    long stop = bp.stopsBefore() ? c.step : c.step + 1;
                    if (stop < before) last = new Hit(bp, stop, c.step, recordedWarp(c), d);
                }
            }
            if (last != null) {
                log.add(last);
                return last;
            }
        }
        return null;
    }

    private static int recordedWarp(EventCursor c) {
        return switch (c.type) {
            case WARP_STEP -> c.warp;
            case SYNC, STATUS -> c.slot < 0 ? -1 : c.slot >> 5;
            case DIAGNOSTIC -> c.diagnostic().threads().isEmpty() ? -1 : c.diagnostic().threads().get(0) >> 5;
            default -> -1;
        };
    }

    String matchRecorded(Breakpoint bp, EventCursor c) {
        return switch (c.type) {
            case WARP_STEP -> bp.stopsBefore() ? matchStep(bp, c.warp, c.pc, c.group) : null;
            case SYNC -> matchSync(bp, c.kind, c.slot, c.object, c.a, c.b);
            case STATUS -> matchStatus(bp, c.slot >> 5, c.lanes, c.to);
            case DIAGNOSTIC -> matchDiagnostic(bp, c.diagnostic());
            case END -> matchEnd(bp, c.outcome);
            default -> null;
        };
    }
}
