package io.barrierscope.trace;

import io.barrierscope.Version;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.AtomicFiles;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Instruction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Exports a recorded run as Trace Event Format JSON, which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open ({@code export --format chrome}).
 *
 * <p>What the JSON holds:
 * <ul>
 * <li>One process per CTA, named "cluster C / CTA (x,y,z)" (C the cluster's linear index in the
 *     grid of clusters) and sorted by cluster, then rank in the cluster; one thread (track) per
 *     warp, "warp N (threads a-b)", in order. A first process "run: kernel" carries the run-wide
 *     events (time jumps, the end). Ids are in {@link ChromeTraceWriter}.</li>
 * <li>The time axis is warp steps: {@code ts} = warp step index, 1 step = 1 µs
 *     ({@code displayTimeUnit} "ns" only changes how viewers print it). Step s spans [s, s+1): its
 *     events are drawn at s+0.5; events between steps s and s+1 (copies landing, sleepers waking,
 *     time jumps, the end) at s+1; thread state changes take effect at step boundaries. Virtual time
 *     (cycles) is not the axis: a time jump takes no room. The trace ends at the first step boundary
 *     after its last event.</li>
 * <li>Slices (X, cat "state") cover each warp's whole timeline, one per span of state ({@link
 *     WarpStateTracker} has the rule deriving a warp's state from its lanes); running slices carry
 *     the number of warp steps taken in them. A synchronizing instruction (or any step that produced
 *     a synchronization event) gets a nested slice (cat "instruction", [s+0.25, s+0.75)) named by
 *     its text, with its PTX/CUDA line, PC, step and active lanes.</li>
 * <li>Instant events (cat "sync"): arrivals on CTA barriers, mbarriers and barrier.cluster,
 *     expect-tx, complete-tx, mbarrier.init/inval and waits returning false, on the acting warp's
 *     track, merged per warp, object and kind within one step ({@code lanes} says how many);
 *     generation/phase completions as process-scoped instants of the object's CTA (each CTA of the
 *     cluster for barrier.cluster); diagnostics (code, severity, message, PTX line) and printf on the
 *     thread's warp; time jumps and the end on the run's track.</li>
 * <li>Flow arrows (s/f pairs, cat "sync", unique numeric ids, "bp":"e") from the last arrival on a
 *     CTA barrier, mbarrier or cluster barrier to each warp its completion released: the warps
 *     whose lanes went from that wait (CTA barrier wait; suspended try_wait or parked poll on that
 *     mbarrier; barrier.cluster.wait) to runnable in the same step as the completion. An arrow
 *     starts inside the arriving instruction's slice and ends half a step into the released warp's
 *     running slice. When the completing signal is a copy landing (its complete-tx, or the arrive-on
 *     of cp.async.mbarrier.arrive), the arrow starts at the instruction that issued the copy. The
 *     last arriver gets no arrow to itself.</li>
 * <li>Counter tracks (C, cat "mbarrier") per mbarrier, named by its variable and CTA: "pending
 *     arrivals" and "tx-count", sampled at every change. After a phase completes the pending count
 *     shows the reset to the expected count a quarter step later, so both the zero and the reset
 *     are visible. (The reset assumes the expected count changes only by init and arrive_drop.)</li>
 * <li>Each asynchronous copy as an async slice (b/e, cat "async", id = the operation's id)
 *     from issue to landing, ended at the end of the trace if it never landed; its "direction" says
 *     whether it copies into shared memory (loads) or out of it (bulk and TMA tensor stores).</li>
 * <li>Each warp's share of a wgmma.mma_async as an async slice (cat "wgmma", string id "wgmma
 *     warp/issue number") from issue to the wait_group that retired it, with a nested slice
 *     "committed, group G" from its commit_group on; both end at the end of the trace if it never
 *     retired. The steps issuing, committing and retiring them get instruction slices.</li>
 * </ul>
 *
 * <p>Size: the JSON grows with the recording, roughly 150 to 250 bytes per state change,
 * synchronizing instruction and sync event, so runs of millions of events make hundreds of
 * megabytes; output past {@link #MAX_BYTES} is refused rather than exhausting memory. The export
 * reads the whole recording (up to its frontier) whatever the session's position, changes nothing
 * in the session, and is deterministic: the same recording always gives the same bytes.
 */
public final class ChromeExport {
    /** Largest JSON produced. */
    public static final long MAX_BYTES = 1L << 30;
    /** Time resolution: quarter warp steps. */
    static final int Q = 4;

    private final TimeTravel tt;
    private final Recording rec;
    private final Interpreter x;
    private final Machine m;
    private final ChromeTraceWriter w;
    private final WarpStateTracker states;

    /** Events read ahead of their warp step (copies out of the reused cursor). */
    private final List<Ev> pool = new ArrayList<>();
    private int pendingCount;
    private long pendingLabel = -1;
    private long lastStepLabel = -1;
    private Batch post;
    private long batchIds;
    /** The latest time anything is drawn at (quarter steps). */
    private long lastQ;
    private final Ev scratch = new Ev();

    private final ChromeSyncEvents sync;

    private ChromeExport(TimeTravel tt, ChromeTraceWriter w) {
        this.tt = tt;
        this.rec = tt.recording();
        this.x = tt.interpreter();
        this.m = x.machine();
        this.w = w;
        this.states = new WarpStateTracker(m, this::stateSlice);
        this.sync = new ChromeSyncEvents(x, w);
    }

    /** Writes the session's recording as Chrome trace JSON to {@code out}, atomically. */
    public static void write(TimeTravel tt, Path out) throws IOException {
        write(tt, out, MAX_BYTES);
    }

    /** As above, refusing past {@code maxBytes} (tests use a small limit). */
    static void write(TimeTravel tt, Path out, long maxBytes) throws IOException {
        Machine m = tt.interpreter().machine();
        AtomicFiles.write(out, os -> ChromeTraceWriter.produce(m, maxBytes, os, w -> new ChromeExport(tt, w).emit()));
    }

    /**
     * The session's recording as Chrome trace JSON (UTF-8): {@code {"traceEvents": [...],
     * "displayTimeUnit": "ns", "otherData": {kernel, policy, seed, outcome, ...}}}.
     *
     * @throws io.barrierscope.launch.BadInputException if the JSON would exceed {@link #MAX_BYTES}
     */
    public static byte[] toJson(TimeTravel tt) {
        return ChromeTraceWriter.produce(tt.interpreter().machine(), MAX_BYTES, w -> new ChromeExport(tt, w).emit());
    }

    // ---- the walk ----

    private void emit() throws IOException {
        w.g.writeStartObject();
        w.g.writeArrayFieldStart("traceEvents");
        metadata();
        EventCursor c = rec.cursor(0);
        while (c.next()) {
            if (c.type == EventCursor.Type.WARP_STEP) {
                closePost();
                if (pendingCount > 0 && pendingLabel != c.step) flushOrphans();
                int pre = preStepPrefix(pendingCount);
                if (pre > 0) {
                    Batch b = new Batch(++batchIds, c.step, Kind.PRE);
                    for (int i = 0; i < pre; i++) handle(pool.get(i), b);
                    endBatch(b);
                }
                states.advance(c.step);
                Batch b = new Batch(++batchIds, c.step, Kind.IN);
                b.warp = c.warp;
                b.pc = c.pc;
                b.active = c.active;
                for (int i = pre; i < pendingCount; i++) handle(pool.get(i), b);
                pendingCount = 0;
                endBatch(b);
                states.step(c.warp);
                lastStepLabel = c.step;
            } else if (c.step == lastStepLabel) {
                if (post == null) post = new Batch(++batchIds, c.step, Kind.POST);
                handle(scratch.copy(c), post);
            } else {
                closePost();
                if (pendingCount > 0 && pendingLabel != c.step) flushOrphans();
                if (pendingCount == pool.size()) pool.add(new Ev());
                pool.get(pendingCount++).copy(c);
                pendingLabel = c.step;
            }
        }
        closePost();
        flushOrphans();
        long end = Math.max(Math.max(lastQ, sync.lastFlowQ) / Q + 1, rec.steps()) * Q;
        states.finish(end);
        sync.finish(end);
        w.g.writeEndArray();
        w.g.writeStringField("displayTimeUnit", "ns");
        otherData();
        w.g.writeEndObject();
    }

    private void closePost() throws IOException {
        if (post != null) {
            endBatch(post);
            post = null;
        }
    }

    /**
     * Events before a warp step that never came (the run ended, or the recording stops there):
     * they happened between two steps, like a deadlock's end.
     */
    private void flushOrphans() throws IOException {
        if (pendingCount == 0) return;
        Batch b = new Batch(++batchIds, pendingLabel, Kind.PRE);
        for (int i = 0; i < pendingCount; i++) handle(pool.get(i), b);
        pendingCount = 0;
        endBatch(b);
    }

    /**
     * How many of the events read ahead of warp step s happened before it executed. Events between
     * two steps may carry either step's label (the interpreter's choice); those before a step's own
     * come first and have fixed shapes: time jumps; sleepers waking (sleeping to runnable); try_wait
     * time-outs (a wait returning false, then that thread's suspended-to-runnable); copies landing
     * (ASYNC_LAND, then the issuing thread's complete-tx or arrive-on, a phase completing, waiters
     * released to runnable, a fault's diagnostic and the end). The first other event is the step's.
     */
    private int preStepPrefix(int n) {
        int i = 0;
        int issuer = Integer.MIN_VALUE;
        for (; i < n; i++) {
            Ev e = pool.get(i);
            boolean landing = issuer != Integer.MIN_VALUE;
            switch (e.type) {
                case TIME_JUMP -> issuer = Integer.MIN_VALUE;
                case STATUS -> {
                    boolean woke = e.to == ThreadStatus.RUNNABLE && (e.from == ThreadStatus.SLEEPING || (landing
                            && (e.from == ThreadStatus.MBAR_WAIT || e.from == ThreadStatus.PARKED || e.from == ThreadStatus.ASYNC_WAIT)));
                    if (!woke) return i;
                }
                case SYNC -> {
                    switch (e.kind) {
                        case ASYNC_LAND -> issuer = e.slot;
                        case MBAR_WAIT_FALSE -> {
                            Ev next = i + 1 < n ? pool.get(i + 1) : null;
                            if (next == null || next.type != EventCursor.Type.STATUS || (next.slot >> 5) != (e.slot >> 5)
                                    || (next.lanes & (1 << (e.slot & 31))) == 0
                                    || next.from != ThreadStatus.MBAR_WAIT || next.to != ThreadStatus.RUNNABLE) {
                                return i;
                            }
                            i++;
                        }
                        case MBAR_COMPLETE_TX, MBAR_ARRIVE -> {
                            if (!landing || e.slot != issuer) return i;
                        }
                        case MBAR_PHASE_COMPLETE -> {
                            if (!landing) return i;
                        }
                        default -> {
                            return i;
                        }
                    }
                }
                case DIAGNOSTIC, END -> {
                    if (!landing) return i;
                }
                default -> {
                    return i;
                }
            }
        }
        return i;
    }

    private void handle(Ev e, Batch b) throws IOException {
        if (e.type == EventCursor.Type.STATUS) {
            int base = e.slot & ~31;
            for (int l = e.lanes; l != 0; l &= l - 1) states.status(b.effLabel, base + Integer.numberOfTrailingZeros(l), e.to);
            sync.status(e);
            return;
        }
        sync.event(e, b);
        switch (e.type) {
            case TIME_JUMP -> {
                w.instant("time jump", "run", "t", w.runPid, w.runTid, b.q);
                w.g.writeNumberField("cycles", e.cycles);
                w.endWithArgs();
            }
            case DIAGNOSTIC -> diagnostic(rec.diagnostics().get(e.index), b);
            case PRINTF -> {
                PrintfLine p = rec.printf().get(e.index);
                int warp = warpOf(p.slot());
                w.instant("printf", "printf", "t", w.pidOrRun(warp), w.tidOrRun(warp), b.q);
                w.g.writeStringField("thread", p.thread());
                w.g.writeStringField("text", p.text());
                w.endWithArgs();
            }
            case END -> {
                w.instant("end: " + e.outcome.jsonName(), "run", "g", w.runPid, w.runTid, b.q);
                w.g.writeStringField("outcome", e.outcome.jsonName());
                w.g.writeNumberField("warp steps", rec.steps());
                w.endWithArgs();
            }
            default -> { }
        }
    }

    private void endBatch(Batch b) throws IOException {
        sync.endBatch();
        if (b.kind == Kind.IN && b.warp >= 0) {
            Op op = x.op(b.pc);
            if (b.syncByWarp || (op.isSynchronizing() && b.active != 0)) instructionSlice(b, op.insn);
        }
        lastQ = Math.max(lastQ, b.kind == Kind.IN ? b.label * Q + 3 : b.q);
    }

    private void diagnostic(Diagnostic d, Batch b) throws IOException {
        int warp = d.threads().isEmpty() ? -1 : warpOf(d.threads().get(0));
        w.instant("diagnostic " + d.code().code(), "diagnostic", "t", w.pidOrRun(warp), w.tidOrRun(warp), b.q);
        w.g.writeStringField("code", d.code().code());
        w.g.writeStringField("severity", d.severity().name().toLowerCase(java.util.Locale.ROOT));
        w.g.writeStringField("message", d.message());
        if (!d.ptxLocations().isEmpty()) {
            w.g.writeStringField("ptx", ChromeTraceWriter.fileName(d.ptxLocations().get(0).file()) + ":" + d.ptxLocations().get(0).line());
        }
        if (!d.cudaLocations().isEmpty()) {
            w.g.writeStringField("cuda", ChromeTraceWriter.fileName(d.cudaLocations().get(0).file()) + ":" + d.cudaLocations().get(0).line());
        }
        if (d.barrier() != null) w.g.writeStringField("barrier", d.barrier());
        if (warp >= 0) w.g.writeStringField("thread", m.threadName(d.threads().get(0)));
        w.endWithArgs();
    }

    // ---- tracks, slices, header ----

    private void metadata() throws IOException {
        LaunchedRun run = tt.run();
        w.meta("process_name", w.runPid, w.runTid, "name", "run: " + run.program().kernel.name());
        w.meta("process_sort_index", w.runPid, w.runTid, "sort_index", 0);
        w.meta("thread_name", w.runPid, w.runTid, "name", "run events");
        w.meta("thread_sort_index", w.runPid, w.runTid, "sort_index", 0);
        Dim3 cl = m.cluster;
        int gx = Math.max(1, m.grid.x() / cl.x());
        int gy = Math.max(1, m.grid.y() / cl.y());
        long size = cl.volume();
        for (int cta = 0; cta < m.ctas; cta++) {
            Dim3 id = m.grid.unflatten(cta);
            int cluster = id.x() / cl.x() + id.y() / cl.y() * gx + id.z() / cl.z() * gx * gy;
            int pid = w.pidOfCta(cta);
            w.meta("process_name", pid, w.tidOfCta(cta), "name", "cluster " + cluster + " / CTA " + id);
            w.meta("process_sort_index", pid, w.tidOfCta(cta), "sort_index", 1 + cluster * size + m.rankOf(cta));
            for (int i = 0; i < m.warpsPerCta; i++) {
                int warp = m.firstWarpOfCta(cta) + i;
                int lanes = Integer.bitCount(m.existMask[warp]);
                w.meta("thread_name", pid, w.tidOfWarp(warp), "name", "warp " + i + " (threads " + i * 32 + "-" + (i * 32 + lanes - 1) + ")");
                w.meta("thread_sort_index", pid, w.tidOfWarp(warp), "sort_index", i);
            }
        }
    }

    private void otherData() throws IOException {
        LaunchedRun run = tt.run();
        Outcome o = rec.outcome();
        w.g.writeObjectFieldStart("otherData");
        w.g.writeStringField("kernel", run.program().kernel.name());
        w.g.writeStringField("policy", run.policyName());
        w.g.writeNumberField("seed", run.seed());
        w.g.writeStringField("outcome", o != null ? o.jsonName() : Outcome.RUNNING.jsonName());
        w.g.writeNumberField("warpSteps", rec.steps());
        w.g.writeNumberField("events", rec.events());
        w.g.writeStringField("grid", m.grid.toString());
        w.g.writeStringField("block", m.block.toString());
        w.g.writeStringField("cluster", m.cluster.toString());
        w.g.writeStringField("engine", Version.ENGINE);
        w.g.writeStringField("timeAxis", "warp steps: ts = warp step index, 1 step = 1 us; step s spans [s, s+1), its events "
                + "are drawn at s+0.5, events between steps s and s+1 at s+1; virtual time (cycles) is not the axis");
        w.g.writeStringField("warpState", "running while any live lane is runnable; otherwise the most blocked live lane's "
                + "state (cluster barrier > CTA barrier > mbarrier try_wait > parked > async copies > sleeping > warp-level "
                + "gathers > warp sync); exited/trapped once no lane is live");
        w.g.writeEndObject();
    }

    private void stateSlice(int warp, WarpState s, long startQ, long endQ, long steps) throws IOException {
        w.slice(s.label(), "state", w.pidOfWarp(warp), w.tidOfWarp(warp), startQ, endQ - startQ);
        if (s == WarpState.RUNNING) w.g.writeNumberField("warp steps", steps);
        w.endWithArgs();
    }

    private void instructionSlice(Batch b, Instruction in) throws IOException {
        String text = in.text().strip();
        if (text.endsWith(";")) text = text.substring(0, text.length() - 1).strip();
        w.slice(text.isEmpty() ? in.mnemonic() : text, "instruction", w.pidOfWarp(b.warp), w.tidOfWarp(b.warp), b.label * Q + 1, Q / 2);
        w.g.writeNumberField("step", b.label);
        w.g.writeNumberField("pc", b.pc);
        w.g.writeStringField("ptx", ChromeTraceWriter.fileName(in.pos().file()) + ":" + in.pos().line());
        if (in.loc() != null) w.g.writeStringField("cuda", ChromeTraceWriter.fileName(in.loc().file()) + ":" + in.loc().line());
        w.g.writeNumberField("lanes", Integer.bitCount(b.active));
        w.endWithArgs();
    }

    private int warpOf(int slot) { return slot < 0 || slot >= m.slots ? -1 : slot >> 5; }


    // ---- state ----

    /** One event copied out of the cursor. */
    static final class Ev {
        EventCursor.Type type;
        SyncEvent kind;
        int slot;
        long object;
        long a;
        long b;
        byte from;
        byte to;
        /** STATUS: the lanes of slot's warp that changed together. */
        int lanes;
        int index;
        long cycles;
        Outcome outcome;

        Ev copy(EventCursor c) {
            type = c.type;
            kind = c.kind;
            slot = c.slot;
            object = c.object;
            a = c.a;
            b = c.b;
            from = c.from;
            to = c.to;
            lanes = c.type == EventCursor.Type.STATUS && c.lanes == 0 ? 1 << (c.slot & 31) : c.lanes;
            index = c.index;
            cycles = c.cycles;
            outcome = c.outcome;
            return this;
        }
    }

    /** When a batch of events happened relative to its warp step s. */
    enum Kind {
        /** Between steps s-1 and s, before s executed (sleepers waking, copies landing, time jumps): drawn at s. */
        PRE,
        /** While step s executed: drawn at s+0.5. */
        IN,
        /** After step s executed, before s+1 (the run's end): drawn at s+1. */
        POST
    }

    /** The events of one warp step, or of the gap before or after it. */
    static final class Batch {
        final long id;
        final long label;
        final Kind kind;
        /** When its events are drawn (quarter steps). */
        final long q;
        /** The step at whose end its state changes show: (effLabel + 1) * Q. */
        final long effLabel;
        /** IN: the step's warp, PC and active lanes. */
        int warp = -1;
        int pc = -1;
        int active;
        /** IN: whether the step's warp produced a synchronization event (its instruction gets a slice). */
        boolean syncByWarp;
        /** PRE/POST: the copy landing now, whose signals it delivers. */
        ChromeSyncEvents.Issue landing;

        Batch(long id, long label, Kind kind) {
            this.id = id;
            this.label = label;
            this.kind = kind;
            this.q = switch (kind) {
                case PRE -> label * Q;
                case IN -> label * Q + 2;
                case POST -> (label + 1) * Q;
            };
            this.effLabel = kind == Kind.PRE ? label - 1 : label;
        }
    }

}
