package io.barrierscope.app.timeline;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.WarpState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The timeline's data, built incrementally from a {@link Recording}: one lane per warp, ordered by
 * cluster, CTA (rank in its cluster) and warp; per lane the warp's state as spans over warp steps
 * and its markers; the barrier completions with the lanes they released; virtual time per step.
 * No JavaFX.
 *
 * <p>States follow {@link WarpState}; a status change labelled L shows from step L + 1 (the
 * state during step s is the state after s steps), as in the Chrome export.
 *
 * <p>Threads: {@link #update()} reads the recording, so it runs on the thread that owns the
 * {@link TimeTravel} (the session's worker), between moves. The queries may run on another thread
 * (the FX thread); both take {@link #lock}, and update releases it every few thousand events
 * so a long catch-up never freezes drawing. The lock is fair: a plain monitor let the worker take
 * it straight back after each slice, so a draw waited for the whole catch-up (docs/performance.md,
 * "Window responsiveness", the timeline's lock during a Continue).
 */
public final class TimelineModel {
    /** Events read per hold of the lock (tests make it tiny to check that slicing changes nothing). */
    int sliceEvents = 1 << 14;
    /** Fair, so a waiting reader goes before the worker's next slice of {@link #update()}. */
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock(true);

    private final Recording rec;
    private final Machine m;
    private final int lanes;
    private final int[] laneOfWarp;
    private final int[] warpOfLane;
    private final int[] existMask;
    /** Per CTA its first lane; per cluster (by index) its first lane and lane count. */
    private final int[] ctaFirstLane;
    private final int[] clusterOfCta;
    private final int[] clusterFirstLane;
    private final int[] clusterLanes;
    private final TimelineLane[] data;
    private final TimelineCompletions completions;
    /** Copies and wgmma operations in flight, per lane. */
    private final AsyncSpans async;
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    // Decisions off the default schedule (a replayed schedule), in decision order: told by the
    // policy as the run takes them, shown once the model has read their step.
    private long[] devStep = new long[0];
    private long[] devIndex = new long[0];
    private int[] devWarp = new int[0];
    private char[] devKind = new char[0];
    private long[] devValue = new long[0];
    private int devCount;
    private int devShown;
    /** The highest decision index told: time travel replays decisions again, which are the same. */
    private long devLastIndex = -1;

    // cycles at the start of each step: piecewise +1 per step, with jumps
    private long[] jumpStep = new long[8];
    private long[] jumpCycles = new long[8];
    private int jumps;

    // the walk
    private final byte[] status;
    private final boolean[] dirty;
    private final int[] dirtyList;
    private int dirtyCount;
    /** The label of the events being consumed, whose status changes are not yet committed. */
    private long label = -1;
    /** Steps whose events are all consumed and committed: the model knows the states below it. */
    /** Volatile: {@link #knownSteps} reads it without the lock (each frame of a run asks for it). */
    private volatile long known;
    private boolean done;
    private long events;
    /** Per warp: the wait statuses (bits) its lanes were released from in the current label. */
    private final int[] releasedFrom;
    private final int[] releasedList;
    private int releasedCount;

    public TimelineModel(Recording recording, Machine machine) {
        this.rec = recording;
        this.m = machine;
        this.lanes = machine.warps;
        this.existMask = machine.existMask.clone();
        Dim3 cl = machine.cluster;
        int gx = Math.max(1, machine.grid.x() / cl.x());
        int gy = Math.max(1, machine.grid.y() / cl.y());
        int ctas = machine.ctas;
        clusterOfCta = new int[ctas];
        Integer[] order = new Integer[ctas];
        int clusters = 0;
        for (int cta = 0; cta < ctas; cta++) {
            Dim3 id = machine.grid.unflatten(cta);
            clusterOfCta[cta] = id.x() / cl.x() + id.y() / cl.y() * gx + id.z() / cl.z() * gx * gy;
            clusters = Math.max(clusters, clusterOfCta[cta] + 1);
            order[cta] = cta;
        }
        Arrays.sort(order, (p, q) -> clusterOfCta[p] != clusterOfCta[q] ? Integer.compare(clusterOfCta[p], clusterOfCta[q])
                : Integer.compare(machine.rankOf(p), machine.rankOf(q)));
        ctaFirstLane = new int[ctas];
        clusterFirstLane = new int[clusters];
        clusterLanes = new int[clusters];
        Arrays.fill(clusterFirstLane, Integer.MAX_VALUE);
        laneOfWarp = new int[lanes];
        warpOfLane = new int[lanes];
        int wpc = machine.warpsPerCta;
        for (int pos = 0; pos < ctas; pos++) {
            int cta = order[pos];
            ctaFirstLane[cta] = pos * wpc;
            int k = clusterOfCta[cta];
            clusterFirstLane[k] = Math.min(clusterFirstLane[k], pos * wpc);
            clusterLanes[k] += wpc;
            for (int i = 0; i < wpc; i++) {
                laneOfWarp[cta * wpc + i] = pos * wpc + i;
                warpOfLane[pos * wpc + i] = cta * wpc + i;
            }
        }
        status = new byte[machine.slots];
        for (int s = 0; s < status.length; s++) {
            status[s] = (existMask[s >> 5] & (1 << (s & 31))) != 0 ? ThreadStatus.RUNNABLE : ThreadStatus.EXITED;
        }
        dirty = new boolean[lanes];
        dirtyList = new int[lanes];
        releasedFrom = new int[lanes];
        releasedList = new int[lanes];
        data = new TimelineLane[lanes];
        for (int l = 0; l < lanes; l++) {
            data[l] = new TimelineLane();
            data[l].span(0, WarpState.of(status, warpOfLane[l] << 5, existMask[warpOfLane[l]]).ordinal());
        }
        completions = new TimelineCompletions();
        async = new AsyncSpans(lanes, machine.program);
    }

    /** A model of the session's recording (not yet read: call {@link #update()}). */
    public static TimelineModel of(TimeTravel tt) {
        TimelineModel model = new TimelineModel(tt.recording(), tt.interpreter().machine());
        if (tt.interpreter().policy() instanceof SchedulePolicy p) {
            Machine m = tt.interpreter().machine();
            // Called on the thread that steps the run (the session's worker), which also runs update().
            // A warp or group choice comes before the step it picks for; a copy's latency and a
            // try_wait's early return inside the step that issued them (the steps are counted then),
            // as the minimiser's explanations number them.
            p.observe((index, kind, def, chosen, preemption) -> {
                if (chosen == def) return;
                boolean before = kind == SchedulePolicy.WARP || kind == SchedulePolicy.GROUP;
                model.deviation(index, kind, chosen, before ? m.steps : m.steps - 1,
                        kind == SchedulePolicy.WARP ? (int) chosen : p.currentWarp());
            });
        }
        return model;
    }

    /**
     * Decision {@code index} took {@code value}, not the default, before warp step {@code step} of
     * {@code warp} (the warp chosen, or the one stepping). Told again on a replay: kept once.
     */
    void deviation(long index, char kind, long value, long step, int warp) {
        lock.lock();
        try {
            if (index <= devLastIndex) return;
            devLastIndex = index;
            if (devCount == devStep.length) {
                int n = Math.max(8, devCount * 2);
                devStep = Arrays.copyOf(devStep, n);
                devIndex = Arrays.copyOf(devIndex, n);
                devWarp = Arrays.copyOf(devWarp, n);
                devKind = Arrays.copyOf(devKind, n);
                devValue = Arrays.copyOf(devValue, n);
            }
            devStep[devCount] = step;
            devIndex[devCount] = index;
            devWarp[devCount] = warp;
            devKind[devCount] = kind;
            devValue[devCount] = value;
            devCount++;
        } finally {
            lock.unlock();
        }
    }

    /** Adds the deviations up to {@code step} as markers (in step order, as lanes keep them). */
    private void showDeviations(long step) {
        while (devShown < devCount && devStep[devShown] <= step) {
            int w = devWarp[devShown];
            int lane = w >= 0 && w < lanes ? laneOfWarp[w] : 0;
            data[lane].marker(MarkerKind.DEVIATION, devStep[devShown], devIndex[devShown], devKind[devShown], devValue[devShown]);
            devShown++;
        }
    }

    /** Whether the run is a replayed schedule that has deviated from the default so far (the legend lists the marker then). */
    public boolean hasDeviations() { lock.lock(); try { return devShown > 0; } finally { lock.unlock(); } }

    /** The steps of the decisions off the default shown so far, in order (tests, navigation). */
    public long[] deviationSteps() { lock.lock(); try { return Arrays.copyOf(devStep, devShown); } finally { lock.unlock(); } }

    /** The decision indices of those deviations (as a schedule string numbers them). */
    public long[] deviationIndices() { lock.lock(); try { return Arrays.copyOf(devIndex, devShown); } finally { lock.unlock(); } }

    // ---- layout ----

    public int lanes() { return lanes; }

    public int warpOfLane(int lane) { return warpOfLane[lane]; }

    public int laneOfWarp(int warp) { return laneOfWarp[warp]; }

    /** The linear CTA index of a lane's warp. */
    public int ctaOfLane(int lane) { return warpOfLane[lane] / m.warpsPerCta; }

    public int clusterOfLane(int lane) { return clusterOfCta[ctaOfLane(lane)]; }

    public int warpsPerCta() { return m.warpsPerCta; }

    /** Whether the launch has clusters of more than one CTA (then lanes are labelled with their cluster). */
    public boolean clustered() { return m.cluster.volume() > 1; }

    /** "CTA (x,y,z) w3". */
    public String laneLabel(int lane) {
        int w = warpOfLane[lane];
        return "CTA " + m.grid.unflatten(w / m.warpsPerCta) + " w" + (w % m.warpsPerCta);
    }

    /** "CTA (x,y,z)", with its cluster when clustered. */
    public String ctaLabel(int cta) {
        return (clustered() ? "cluster " + clusterOfCta[cta] + " / " : "") + "CTA " + m.grid.unflatten(cta);
    }

    // ---- building ----

    /**
     * Reads the events recorded since the last call (only those of completed steps, so calling it
     * again later gives exactly what one call at the end would). Cheap when nothing is new.
     *
     * @return whether anything changed
     */
    public boolean update() {
        if (done) return false;
        long frontier = rec.steps();
        boolean finished = rec.finished();
        if (!finished && frontier <= known) return false;
        EventCursor c = rec.cursor(known);
        boolean more = true;
        while (more) {
            lock.lock();
            try {
                int n = 0;
                while (true) {
                    if (!c.next() || (!finished && c.step >= frontier)) {
                        more = false;
                        break;
                    }
                    if (c.step != label) {
                        commit();
                        // a label change is a safe place to let the readers in
                        if (n >= sliceEvents) {
                            known = c.step;
                            label = c.step;
                            consume(c);
                            break;
                        }
                        label = c.step;
                    }
                    consume(c);
                    n++;
                }
                if (!more) {
                    commit();
                    known = finished ? Math.max(frontier, label + 1) : frontier;
                    done = finished;
                }
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    private void consume(EventCursor c) {
        events++;
        switch (c.type) {
            case WARP_STEP -> {
                long start = c.cycles - 1;
                if (jumps == 0 || start != cyclesAtLocked(c.step)) addJump(c.step, start);
                if (c.warp >= 0 && c.warp < lanes) async.warpStep(c.step, laneOfWarp[c.warp], c.pc);
            }
            case STATUS -> {
                int w = c.slot >> 5;
                int base = w << 5;
                for (int l = c.lanes; l != 0; l &= l - 1) status[base + Integer.numberOfTrailingZeros(l)] = c.to;
                if (!dirty[w]) {
                    dirty[w] = true;
                    dirtyList[dirtyCount++] = w;
                }
                if (c.to == ThreadStatus.RUNNABLE && c.from != ThreadStatus.RUNNABLE) {
                    if (releasedFrom[w] == 0) releasedList[releasedCount++] = w;
                    releasedFrom[w] |= 1 << c.from;
                }
            }
            case SYNC -> sync(c);
            case DIAGNOSTIC -> {
                Diagnostic d = c.diagnostic();
                int lane = d.threads().isEmpty() ? 0 : laneOfSlot(d.threads().get(0));
                data[lane].marker(MarkerKind.DIAGNOSTIC, c.step, diagnostics.size(), 0, 0);
                diagnostics.add(d);
            }
            default -> { }
        }
    }

    private int laneOfSlot(int slot) {
        int w = slot >> 5;
        return w >= 0 && w < lanes ? laneOfWarp[w] : 0;
    }

    private void sync(EventCursor c) {
        switch (c.kind) {
            case BAR_ARRIVE -> marker(c, MarkerKind.BAR_ARRIVE);
            case MBAR_ARRIVE -> marker(c, MarkerKind.MBAR_ARRIVE);
            case CLUSTER_ARRIVE -> marker(c, MarkerKind.CLUSTER_ARRIVE);
            case MBAR_EXPECT_TX -> marker(c, MarkerKind.EXPECT_TX);
            case MBAR_COMPLETE_TX -> marker(c, MarkerKind.COMPLETE_TX);
            case MBAR_WAIT_FALSE -> marker(c, MarkerKind.WAIT_FALSE);
            case BAR_COMPLETE -> completions.pending(TimelineCompletions.BAR, c.step, c.object, c.a);
            case MBAR_PHASE_COMPLETE -> completions.pending(TimelineCompletions.MBAR, c.step, c.object, c.a);
            case CLUSTER_COMPLETE -> completions.pending(TimelineCompletions.CLUSTER, c.step, c.object, c.a);
            case ASYNC_ISSUE -> { if (c.slot >= 0) async.copyIssued(laneOfSlot(c.slot), c.step, c.object); }
            case ASYNC_LAND -> async.copyLanded(c.step, c.object);
            case WGMMA_ISSUE -> async.wgmmaIssued(laneOfSlot(c.slot), c.slot >> 5, c.step, c.object, (int) c.a);
            case WGMMA_COMMIT -> async.wgmmaCommitted(laneOfSlot(c.slot), c.step);
            case WGMMA_RETIRE -> async.wgmmaRetired(laneOfSlot(c.slot), c.slot >> 5, c.step, c.object);
            default -> { }
        }
    }

    private void marker(EventCursor c, MarkerKind k) {
        if (c.slot < 0) return;
        data[laneOfSlot(c.slot)].marker(k, c.step, c.object, c.a, c.b);
    }

    /** Ends the current label: its status changes show from label + 1, its completions get their lanes. */
    private void commit() {
        if (label >= 0) showDeviations(label);
        async.endLabel();
        long at = label + 1;
        for (int i = 0; i < dirtyCount; i++) {
            int w = dirtyList[i];
            dirty[w] = false;
            data[laneOfWarp[w]].span(at, WarpState.of(status, w << 5, existMask[w]).ordinal());
        }
        dirtyCount = 0;
        for (int i = 0; i < completions.pendingCount(); i++) finishCompletion(i);
        completions.commitPending();
        for (int i = 0; i < releasedCount; i++) releasedFrom[releasedList[i]] = 0;
        releasedCount = 0;
    }

    /** The lanes a pending completion released: warps of its CTA (or cluster) whose lanes left its kind of wait in this label. */
    private void finishCompletion(int i) {
        int kind = completions.pendingKind(i);
        int cta = (int) (completions.pendingObject(i) >>> 32);
        if (kind == TimelineCompletions.CLUSTER) cta = (int) completions.pendingObject(i);
        if (cta < 0 || cta >= ctaFirstLane.length) cta = 0;
        int from;
        int count;
        int waits;
        if (kind == TimelineCompletions.CLUSTER) {
            from = clusterFirstLane[clusterOfCta[cta]];
            count = clusterLanes[clusterOfCta[cta]];
            waits = 1 << ThreadStatus.CLUSTER_WAIT;
        } else {
            from = ctaFirstLane[cta];
            count = m.warpsPerCta;
            waits = kind == TimelineCompletions.BAR ? 1 << ThreadStatus.BAR_WAIT
                    : 1 << ThreadStatus.MBAR_WAIT | 1 << ThreadStatus.PARKED;
        }
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        for (int r = 0; r < releasedCount; r++) {
            int lane = laneOfWarp[releasedList[r]];
            if (lane >= from && lane < from + count && (releasedFrom[releasedList[r]] & waits) != 0) {
                lo = Math.min(lo, lane);
                hi = Math.max(hi, lane);
            }
        }
        if (hi < 0) {
            lo = from;
            hi = from + count - 1;
        }
        completions.setPendingLanes(i, lo, hi);
    }

    private void addJump(long step, long cycles) {
        if (jumps == jumpStep.length) {
            jumpStep = Arrays.copyOf(jumpStep, jumps * 2);
            jumpCycles = Arrays.copyOf(jumpCycles, jumps * 2);
        }
        jumpStep[jumps] = step;
        jumpCycles[jumps] = cycles;
        jumps++;
    }

    // ---- reading ----

    /**
     * Steps whose states are known: the recording's frontier as of the last update. Once the run
     * has finished, one more when events follow its last step (a deadlock found, a diagnostic at
     * the end): that extra column shows the final state and those events.
     */
    public long knownSteps() { return known; }

    /** Whether the whole run has been read (the recording had finished). */
    public boolean complete() { lock.lock(); try { return done; } finally { lock.unlock(); } }

    /** Events read so far. */
    public long events() { lock.lock(); try { return events; } finally { lock.unlock(); } }

    /** Virtual time at the start of {@code step} (extrapolated past the known steps). */
    public long cyclesAt(long step) { lock.lock(); try { return cyclesAtLocked(step); } finally { lock.unlock(); } }

    /** {@link #cyclesAt} with the lock held (update's every warp step). */
    private long cyclesAtLocked(long step) {
        if (jumps == 0) return Math.max(0, step);
        int k = Math.max(0, TimelineLane.lastAtOrBefore(jumpStep, jumps, 0, Math.max(step, jumpStep[0])));
        return jumpCycles[k] + (step - jumpStep[k]);
    }

    /** Virtual time at the end of the known steps. */
    public long knownCycles() { lock.lock(); try { return known == 0 ? 0 : cyclesAtLocked(known - 1) + 1; } finally { lock.unlock(); } }

    /**
     * The fractional step at virtual time {@code cycles}: inside step s it is s plus the fraction
     * of the step's cycle; in a time jump before step s, s itself.
     */
    public double stepAtCycles(double cycles) {
        lock.lock();
        try {
            if (jumps == 0) return Math.max(0, cycles);
            if (cycles <= jumpCycles[0]) return Math.max(0, jumpStep[0] + (cycles - jumpCycles[0]));
            int lo = 0;
            int hi = jumps;
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (jumpCycles[mid] <= cycles) lo = mid;
                else hi = mid;
            }
            double s = jumpStep[lo] + (cycles - jumpCycles[lo]);
            if (lo + 1 < jumps && s > jumpStep[lo + 1]) s = jumpStep[lo + 1];
            return s;
        } finally {
            lock.unlock();
        }
    }

    /** Fills {@code out.bounds} for the range [start, end) of steps (or of cycles when {@code cycles}). */
    public void bounds(boolean cycles, double start, double end, TimelineColumns out) {
        int w = out.width;
        double per = (end - start) / w;
        for (int c = 0; c <= w; c++) {
            double x = start + c * per;
            out.bounds[c] = cycles ? stepAtCycles(x) : x;
        }
    }

    /**
     * The level-of-detail answer for the lanes [laneFrom, laneTo) merged (one lane, or a collapsed
     * CTA or cluster): per column of {@code out} (whose bounds are set), the states present and the
     * marker counts. O(width log n) per lane, whatever the range holds.
     */
    public void row(int laneFrom, int laneTo, TimelineColumns out) {
        lock.lock();
        try {
            out.clearRow();
            for (int l = laneFrom; l < laneTo; l++) data[l].columns(out, known);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Per column of {@code out} (whose bounds are set): the {@link AsyncSpans} flags of the copies
     * and wgmma operations lanes [laneFrom, laneTo) had in flight, ORed into {@code flags}.
     */
    public void asyncColumns(int laneFrom, int laneTo, TimelineColumns out, int[] flags) {
        lock.lock();
        try {
            Arrays.fill(flags, 0, out.width, 0);
            async.columns(laneFrom, laneTo, out.bounds, out.width, known, flags);
        } finally {
            lock.unlock();
        }
    }

    /** The copies and wgmma operations of {@code lane} in flight during {@code step}, in words ("" for none). */
    public String asyncAt(int lane, long step) { lock.lock(); try { return async.describe(lane, step, known); } finally { lock.unlock(); } }

    AsyncSpans asyncSpans() { return async; }

    /** Per column of {@code out}: completions and the lanes they released. */
    public void completionColumns(TimelineColumns out) {
        lock.lock();
        try {
            completions.columns(out, known);
        } finally {
            lock.unlock();
        }
    }

    // ---- per-lane access (hover, tests) ----

    TimelineLane lane(int lane) { return data[lane]; }

    TimelineCompletions completions() { return completions; }

    /** The state of {@code lane} during step {@code step} (0 <= step < knownSteps()). */
    public WarpState stateAt(int lane, long step) {
        lock.lock();
        try {
            TimelineLane d = data[lane];
            return WarpState.of(d.spanState(d.spanAt(step)));
        } finally {
            lock.unlock();
        }
    }

    /** The completions known: steps, in order (for tests and navigation). */
    public long[] completionSteps() { lock.lock(); try { return completions.steps(known); } finally { lock.unlock(); } }

    public List<Diagnostic> diagnostics() { lock.lock(); try { return List.copyOf(diagnostics); } finally { lock.unlock(); } }

    /** A completion as another run can match it: its step, kind (CTA barrier, mbarrier, cluster barrier), object and generation or phase. */
    public record SyncPoint(long step, int kind, long object, long phase) {}

    /** The completions known, in step order (aligning two runs by barrier generation and mbarrier phase). */
    public List<SyncPoint> syncPoints() {
        lock.lock();
        try {
            long[] steps = completions.steps(known);
            List<SyncPoint> out = new ArrayList<>(steps.length);
            for (int i = 0; i < steps.length; i++) {
                out.add(new SyncPoint(completions.step(i), completions.kind(i), completions.object(i), completions.phase(i)));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * What is under a point: the marker or completion of {@code lane} nearest to {@code at} within
     * [from, to] (steps), else the span of state at {@code at}. Null outside the known steps.
     */
    public TimelineHit hit(int lane, long from, long to, long at) {
        lock.lock();
        try {
            return new TimelineDescriber(this, m).hit(lane, from, to, at, known);
        } finally {
            lock.unlock();
        }
    }

    Diagnostic diagnostic(int i) { return diagnostics.get(i); }
}
