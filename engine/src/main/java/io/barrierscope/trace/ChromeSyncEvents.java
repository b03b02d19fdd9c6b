package io.barrierscope.trace;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.MbarrierSync;
import io.barrierscope.trace.ChromeExport.Batch;
import io.barrierscope.trace.ChromeExport.Ev;
import io.barrierscope.trace.ChromeExport.Kind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The synchronization side of {@link ChromeExport}: arrival and completion instants, mbarrier
 * counters, flow arrows from the last arrival to the warps a completion released, and async
 * slices. Fed the events of one batch at a time, in order; see ChromeExport for what each shows.
 *
 * <p>Released warps: for a CTA barrier, the warps its completion event names; for an mbarrier, the
 * threads whose suspended try_wait ended (reported just before the completion) and whose parked
 * poll was woken (just after it), in the mbarrier's CTA; for barrier.cluster, the threads of the
 * cluster leaving barrier.cluster.wait just after it. A change of another kind ends the run.
 */
final class ChromeSyncEvents {
    private final Interpreter x;
    private final Machine m;
    private final ChromeTraceWriter w;

    private final Map<Long, Origin> lastBarArrival = new HashMap<>();
    private final Map<Long, Origin> lastMbarSignal = new HashMap<>();
    private final Map<Long, Origin> lastClusterArrival = new HashMap<>();
    private final Map<Long, Mbar> mbarriers = new HashMap<>();
    private final Map<Long, Issue> inFlight = new LinkedHashMap<>();
    /** wgmma operations not yet retired, warp << 32 | issue number -> operation, in issue order. */
    private final Map<Long, Wgmma> wgmmas = new LinkedHashMap<>();
    /** Per warp, its wgmma operations issued and not yet committed, in issue order (looked up by key only). */
    private final Map<Integer, List<Wgmma>> uncommitted = new HashMap<>();
    private long flowIds;
    /** The latest flow end drawn (quarter steps). */
    long lastFlowQ;

    /** Consecutive STATUS events since the batch's last other event: slot (lowest lane), from, to. */
    private final List<int[]> statusRun = new ArrayList<>();
    /** A completion still collecting the releases reported right after it. */
    private Completion open;
    /** The current batch's merged instants and the mbarriers whose counters it touched. */
    private final Map<AggKey, Agg> aggs = new LinkedHashMap<>();
    private final List<Mbar> touched = new ArrayList<>();

    ChromeSyncEvents(Interpreter x, ChromeTraceWriter w) {
        this.x = x;
        this.m = x.machine();
        this.w = w;
    }

    /** A status change (already given to the warp state tracker). */
    void status(Ev e) {
        int[] st = {e.slot, e.from, e.to};
        statusRun.add(st);
        if (open != null) open.offer(st);
    }

    /** Any other event: ends the run of status changes; a SYNC event is drawn. */
    void event(Ev e, Batch b) throws IOException {
        List<int[]> before = e.type == EventCursor.Type.SYNC && e.kind == SyncEvent.MBAR_PHASE_COMPLETE ? List.copyOf(statusRun) : null;
        closeRun();
        if (e.type == EventCursor.Type.SYNC) sync(e, b, before);
    }

    /** The batch is over: pending arrows, merged instants and counter samples are written. */
    void endBatch() throws IOException {
        closeRun();
        for (Agg a : aggs.values()) a.write();
        aggs.clear();
        for (Mbar mb : touched) mb.flush();
        touched.clear();
    }

    /** Ends the async slices of operations still in flight at {@code endQ}. */
    void finish(long endQ) throws IOException {
        for (Map.Entry<Long, Issue> e : inFlight.entrySet()) {
            Issue is = e.getValue();
            w.async(is.name(), "e", e.getKey(), is.pid(), is.tid(), endQ);
            w.g.writeBooleanField("in flight at the end", true);
            w.endWithArgs();
        }
        for (Wgmma op : wgmmas.values()) op.end(endQ, true);
    }

    /** A non-status event ends the run of status changes (and the completion collecting them). */
    private void closeRun() throws IOException {
        if (open != null) {
            open.flows();
            open = null;
        }
        statusRun.clear();
    }

    private void sync(Ev e, Batch b, List<int[]> releasedBefore) throws IOException {
        long key = e.object;
        switch (e.kind) {
            case BAR_ARRIVE -> {
                lastBarArrival.put(key, origin(e, b));
                agg(e, b, "arrive barrier " + (int) key);
            }
            case BAR_COMPLETE -> {
                int cta = (int) (key >>> 32);
                int released = (int) e.b;
                w.instant("barrier " + (int) key + " generation " + e.a + " complete", "sync", "p", w.pidOfCta(cta), w.tidOfCta(cta), b.q);
                w.g.writeStringField("barrier", "barrier " + (int) key + " of CTA " + m.grid.unflatten(cta));
                w.g.writeNumberField("generation", e.a);
                w.g.writeNumberField("warps released", Integer.bitCount(released));
                w.endWithArgs();
                Completion c = new Completion(b, "barrier " + (int) key + " release", lastBarArrival.get(key));
                for (int i = 0; i < m.warpsPerCta; i++) if ((released & (1 << i)) != 0) c.released.add(m.firstWarpOfCta(cta) + i);
                c.flows();
            }
            case MBAR_INIT -> {
                Mbar mb = mbar(key);
                mb.expected = e.a;
                mb.pending = e.a;
                mb.tx = 0;
                mb.stage(b);
                agg(e, b, "mbarrier.init " + mb.variable);
            }
            case MBAR_ARRIVE -> {
                Mbar mb = mbar(key);
                mb.pending = e.b;
                if (b.kind == Kind.IN && b.warp == warpOf(e.slot) && isDrop(b)) mb.expected -= e.a;
                mb.stage(b);
                lastMbarSignal.put(key, signalOrigin(e, b));
                agg(e, b, "arrive " + mb.variable);
            }
            case MBAR_EXPECT_TX, MBAR_COMPLETE_TX -> {
                Mbar mb = mbar(key);
                mb.tx = e.b;
                mb.stage(b);
                if (e.kind == SyncEvent.MBAR_COMPLETE_TX) lastMbarSignal.put(key, signalOrigin(e, b));
                agg(e, b, (e.kind == SyncEvent.MBAR_EXPECT_TX ? "expect-tx " : "complete-tx ") + mb.variable);
            }
            case MBAR_PHASE_COMPLETE -> {
                Mbar mb = mbar(key);
                w.instant(mb.variable + " phase " + e.a + " complete", "sync", "p", w.pidOfCta(mb.cta), w.tidOfCta(mb.cta), b.q);
                w.g.writeStringField("mbarrier", mb.label);
                w.g.writeNumberField("phase", e.a);
                w.g.writeNumberField("threads released", e.b);
                w.endWithArgs();
                mb.pending = mb.expected;
                mb.completedIn = b.id;
                mb.stage(b);
                // The suspended waiters are released just before the completion is reported, parked pollers just after.
                Completion c = new Completion(b, mb.variable + " release", lastMbarSignal.get(key));
                for (int[] st : releasedBefore) {
                    if (st[1] == ThreadStatus.MBAR_WAIT && st[2] == ThreadStatus.RUNNABLE && m.ctaOfSlot(st[0]) == mb.cta) {
                        c.released.add(st[0] >> 5);
                    }
                }
                c.acceptAfter(ThreadStatus.PARKED, new int[] {mb.cta});
                open = c;
            }
            case MBAR_WAIT_FALSE -> agg(e, b, "wait false " + mbar(key).variable);
            case MBAR_INVAL -> agg(e, b, "mbarrier.inval " + mbar(key).variable);
            case ASYNC_ISSUE -> {
                int warp = warpOf(e.slot);
                String name = b.kind == Kind.IN && b.warp == warp ? x.op(b.pc).insn.mnemonic() : "async operation";
                Issue is = new Issue(warp, b.q, name, w.pidOrRun(warp), w.tidOrRun(warp));
                inFlight.put(key, is);
                w.async(name, "b", key, is.pid(), is.tid(), b.q);
                w.g.writeNumberField("bytes", e.a);
                // Stores (bulk and TMA tensor stores, bulk reductions) copy out of shared memory; the window tells them apart the same way.
                if (b.kind == Kind.IN && b.warp == warp) w.g.writeStringField("direction", name.contains(".global.shared") ? "out of shared memory" : "into shared memory");
                if (warp >= 0) w.g.writeStringField("thread", m.threadName(e.slot));
                if (e.b >= 0) w.g.writeStringField("mbarrier", mbar(e.b).label);
                w.endWithArgs();
                if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
            }
            case ASYNC_LAND -> {
                Issue is = inFlight.remove(key);
                b.landing = is;
                if (is != null) {
                    w.async(is.name(), "e", key, is.pid(), is.tid(), b.q);
                    w.g.writeNumberField("bytes", e.a);
                    w.endWithArgs();
                }
            }
            case WGMMA_ISSUE -> {
                int warp = warpOf(e.slot);
                if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
                int pc = (int) e.a;
                String name = pc >= 0 && pc < m.program.code.length ? m.program.code[pc].insn.mnemonic() : "wgmma.mma_async";
                Wgmma op = new Wgmma(warp, key, name);
                wgmmas.put((long) warp << 32 | key, op);
                uncommitted.computeIfAbsent(warp, k -> new ArrayList<>()).add(op);
                w.asyncNamed(name, "wgmma", "b", op.id, w.pidOrRun(warp), w.tidOrRun(warp), b.q);
                w.g.writeNumberField("issue number", key);
                // Viewers may draw async slices per process rather than per thread: name the warp's lane 0.
                if (warp >= 0) w.g.writeStringField("thread", m.threadName(e.slot));
                w.g.writeNumberField("warpgroup's first warp", e.b);
                w.endWithArgs();
            }
            case WGMMA_COMMIT -> {
                int warp = warpOf(e.slot);
                if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
                List<Wgmma> ops = uncommitted.remove(warp);
                if (ops != null) for (Wgmma op : ops) op.commit(key, e.a, b.q);
            }
            case WGMMA_RETIRE -> {
                int warp = warpOf(e.slot);
                if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
                Wgmma op = wgmmas.remove((long) warp << 32 | key);
                if (op != null) op.end(b.q, false);
            }
            case CLUSTER_ARRIVE -> {
                lastClusterArrival.put(key, origin(e, b));
                agg(e, b, "arrive barrier.cluster");
            }
            case CLUSTER_COMPLETE -> {
                int[] members = m.memory.clusterMembers[(int) key];
                for (int cta : members) {
                    w.instant("barrier.cluster phase " + e.a + " complete", "sync", "p", w.pidOfCta(cta), w.tidOfCta(cta), b.q);
                    w.g.writeNumberField("phase", e.a);
                    w.endWithArgs();
                }
                // Its waiters are released just after the completion is reported.
                Completion c = new Completion(b, "barrier.cluster release", lastClusterArrival.get(key));
                c.acceptAfter(ThreadStatus.CLUSTER_WAIT, members);
                open = c;
            }
        }
    }

    /** Whether the step's instruction is an arrive_drop (which lowers the expected count; no event says so). */
    private boolean isDrop(Batch b) {
        Instruction in = x.op(b.pc).insn;
        return in.opcode().equals("mbarrier") && in.has(".arrive_drop");
    }

    /** Where an arrow from this event starts: the acting warp, now. */
    private Origin origin(Ev e, Batch b) {
        int warp = warpOf(e.slot);
        if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
        return warp < 0 ? null : new Origin(warp, b.q);
    }

    /** As {@link #origin}, but a signal delivered by a landing copy starts where the copy was issued. */
    private Origin signalOrigin(Ev e, Batch b) {
        if (b.kind != Kind.IN && b.landing != null) return b.landing.warp() < 0 ? null : new Origin(b.landing.warp(), b.landing.q());
        return origin(e, b);
    }

    private Agg agg(Ev e, Batch b, String name) {
        int warp = warpOf(e.slot);
        if (b.kind == Kind.IN && warp == b.warp) b.syncByWarp = true;
        AggKey k = new AggKey(e.kind, e.object, warp);
        Agg a = aggs.get(k);
        if (a == null) {
            a = new Agg(name, e.kind, e.object, warp, e.slot, b.q);
            aggs.put(k, a);
        }
        a.lanes++;
        a.sumA += e.a;
        a.lastA = e.a;
        a.lastB = e.b;
        return a;
    }

    private record Origin(int warp, long q) {}

    /** An asynchronous operation in flight: who issued it, when, and its async slice. */
    record Issue(int warp, long q, String name, int pid, int tid) {}

    /**
     * A warp's share of a wgmma.mma_async as an async slice (cat "wgmma") from issue to the
     * wait_group that retired it, with a nested slice from its commit_group on.
     */
    private final class Wgmma {
        final int warp;
        final long seq;
        final String name;
        final String id;
        String committed;

        Wgmma(int warp, long seq, String name) {
            this.warp = warp;
            this.seq = seq;
            this.name = name;
            this.id = "wgmma " + warp + "/" + seq;
        }

        void commit(long group, long ops, long q) throws IOException {
            committed = "committed, group " + group;
            w.asyncNamed(committed, "wgmma", "b", id, w.pidOrRun(warp), w.tidOrRun(warp), q);
            w.g.writeNumberField("group", group);
            w.g.writeNumberField("operations in group", ops);
            w.endWithArgs();
        }

        /** Ends the nested slice (if committed), then the operation's. */
        void end(long q, boolean atEnd) throws IOException {
            if (committed != null) {
                w.asyncNamed(committed, "wgmma", "e", id, w.pidOrRun(warp), w.tidOrRun(warp), q);
                w.endWithArgs();
            }
            w.asyncNamed(name, "wgmma", "e", id, w.pidOrRun(warp), w.tidOrRun(warp), q);
            if (atEnd) w.g.writeBooleanField(committed == null ? "not committed at the end" : "not retired at the end", true);
            else w.g.writeNumberField("issue number", seq);
            w.endWithArgs();
        }
    }

    private record AggKey(SyncEvent kind, long object, int warp) {}

    /** Instants of one kind on one object by one warp within a batch, merged. */
    private final class Agg {
        final String name;
        final SyncEvent kind;
        final long object;
        final int warp;
        final int slot;
        final long q;
        int lanes;
        long sumA;
        long lastA;
        long lastB;

        Agg(String name, SyncEvent kind, long object, int warp, int slot, long q) {
            this.name = name;
            this.kind = kind;
            this.object = object;
            this.warp = warp;
            this.slot = slot;
            this.q = q;
        }

        void write() throws IOException {
            w.instant(name, "sync", "t", w.pidOrRun(warp), w.tidOrRun(warp), q);
            if (warp >= 0) w.g.writeStringField("thread", m.threadName(slot));
            switch (kind) {
                case BAR_ARRIVE -> {
                    w.g.writeStringField("barrier", "barrier " + (int) object);
                    w.g.writeNumberField("generation", lastA);
                    w.g.writeNumberField("lanes", Integer.bitCount((int) lastB));
                }
                case MBAR_ARRIVE -> {
                    w.g.writeStringField("mbarrier", mbar(object).label);
                    w.g.writeNumberField("lanes", lanes);
                    w.g.writeNumberField("count", sumA);
                    w.g.writeNumberField("pending after", lastB);
                }
                case MBAR_EXPECT_TX, MBAR_COMPLETE_TX -> {
                    w.g.writeStringField("mbarrier", mbar(object).label);
                    w.g.writeNumberField("lanes", lanes);
                    w.g.writeNumberField("bytes", sumA);
                    w.g.writeNumberField("tx-count after", lastB);
                }
                case MBAR_INIT -> {
                    w.g.writeStringField("mbarrier", mbar(object).label);
                    w.g.writeNumberField("lanes", lanes);
                    w.g.writeNumberField("count", lastA);
                }
                case MBAR_WAIT_FALSE -> {
                    w.g.writeStringField("mbarrier", mbar(object).label);
                    w.g.writeNumberField("lanes", lanes);
                    w.g.writeNumberField(lastB == 1 ? "parity" : "phase", lastA & 0xFFFFFFFFL);
                }
                case CLUSTER_ARRIVE -> {
                    w.g.writeNumberField("phase", lastA);
                    w.g.writeNumberField("lanes", lanes);
                }
                default -> w.g.writeNumberField("lanes", lanes);
            }
            w.endWithArgs();
        }
    }

    /** An mbarrier's counters as the export follows them. */
    private final class Mbar {
        final int cta;
        final String variable;
        final String label;
        long expected;
        long pending;
        long tx;
        long completedIn = -1;
        long emittedPending = Long.MIN_VALUE;
        long emittedTx = Long.MIN_VALUE;
        long stagedQ = -1;
        long stagedPending;
        long stagedTx;
        long stagedBatch = -1;

        Mbar(long key) {
            this.cta = (int) (key >>> 32);
            this.variable = MbarrierSync.describe(m, (int) key);
            this.label = variable + " CTA " + m.grid.unflatten(cta);
        }

        /** Records the current values at the batch's time, or a quarter step later after a completion in it. */
        void stage(Batch b) throws IOException {
            long q = b.q + (completedIn == b.id ? 1 : 0);
            if (stagedQ != q) flush();
            stagedQ = q;
            stagedPending = pending;
            stagedTx = tx;
            if (stagedBatch != b.id) {
                stagedBatch = b.id;
                touched.add(this);
            }
        }

        void flush() throws IOException {
            if (stagedQ < 0) return;
            if (stagedPending != emittedPending) {
                w.counter(label + " pending arrivals", "count", cta, stagedQ, stagedPending);
                emittedPending = stagedPending;
            }
            if (stagedTx != emittedTx) {
                w.counter(label + " tx-count", "bytes", cta, stagedQ, stagedTx);
                emittedTx = stagedTx;
            }
            stagedQ = -1;
        }
    }

    /** A completion and the warps it released, written as flow arrows from its last arrival. */
    private final class Completion {
        final Batch batch;
        final String name;
        final Origin origin;
        /** Released warps, ascending. */
        final TreeSet<Integer> released = new TreeSet<>();
        byte afterFrom = -1;
        int[] afterCtas;

        Completion(Batch batch, String name, Origin origin) {
            this.batch = batch;
            this.name = name;
            this.origin = origin;
        }

        /** Also counts the {@code from} to runnable changes reported right after it, in those CTAs. */
        void acceptAfter(byte from, int[] ctas) {
            afterFrom = from;
            afterCtas = ctas;
        }

        void offer(int[] st) {
            if (afterFrom < 0 || st[1] != afterFrom || st[2] != ThreadStatus.RUNNABLE) return;
            int cta = m.ctaOfSlot(st[0]);
            for (int c : afterCtas) if (c == cta) released.add(st[0] >> 5);
        }

        void flows() throws IOException {
            if (origin == null) return;
            long fq = (batch.effLabel + 1) * ChromeExport.Q + 2;
            for (int warp : released) {
                if (warp == origin.warp() && origin.q() == batch.q && batch.kind == Kind.IN) continue;
                long id = ++flowIds;
                w.flow(name, "s", id, origin.warp(), origin.q());
                w.flow(name, "f", id, warp, fq);
                lastFlowQ = Math.max(lastFlowQ, fq);
            }
        }
    }

    private int warpOf(int slot) { return slot < 0 || slot >= m.slots ? -1 : slot >> 5; }

    private Mbar mbar(long key) { return mbarriers.computeIfAbsent(key, Mbar::new); }
}
