package io.barrierscope.app.session;

import io.barrierscope.check.Deadlock;
import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.CtaBarrierUnit;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Works out the selected barrier's roster, history and waiters on the engine thread: a CTA
 * barrier's roster from its arrived-warps mask (exact), an mbarrier's from the recording's
 * arrive-on events since its last phase completion (or init) up to the position; the history of
 * either from its completion events.
 */
final class BarrierDetailCapture {
    private BarrierDetailCapture() {}

    /** The detail of {@code key} at the position, or null if it names no barrier of this run. */
    static BarrierDetail capture(Navigator nav, BarrierKey key) {
        Machine m = nav.tt.run().machine();
        if (key.cta() < 0 || key.cta() >= m.liveWarps.length) return null;
        return switch (key.kind()) {
            case CTA_BARRIER -> ctaBarrier(nav, m, key);
            case MBARRIER -> mbarrier(nav, m, key);
            case CLUSTER_BARRIER -> ClusterBarrierCapture.detail(nav, key);
        };
    }

    private static BarrierDetail ctaBarrier(Navigator nav, Machine m, BarrierKey key) {
        CtaBarrier b = null;
        for (CtaBarrierUnit unit : m.ctaBarriers) {
            if (unit.cta != key.cta()) continue;
            for (CtaBarrier c : unit.barriers) if (c.id == key.id()) b = c;
        }
        if (b == null) return null;
        List<String> arrived = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<BarrierDetail.Who> arrivedWho = new ArrayList<>();
        List<BarrierDetail.Who> missingWho = new ArrayList<>();
        for (int w = 0; w < m.warpsPerCta; w++) {
            int g = key.cta() * m.warpsPerCta + w;
            if ((b.arrivedWarps & (1 << w)) != 0) {
                arrived.add(warpText(m, key.cta(), g));
                arrivedWho.add(BarrierDetail.Who.warp(g));
            }
        }
        // Who has not arrived, and why, is the deadlock explainer's list (one home for the fact):
        // with an explicit count it includes exited warps, which can never arrive.
        if (b.active()) {
            for (Deadlock.Missing miss : DeadlockExplainer.ctaBarrierNotArrived(nav.tt.run().interpreter(), key.cta(), key.id())) {
                int g = key.cta() * m.warpsPerCta + miss.group().warp();
                missing.add(warpText(m, key.cta(), g) + ": " + miss.state() + (miss.location() != null ? " at " + miss.location() : ""));
                missingWho.add(BarrierDetail.Who.warp(g));
            }
        }
        int needed = b.warpsNeeded(m.liveWarps[key.cta()]);
        // The count as the kernel wrote it (a .u32, so also one past 2^31).
        String expected = b.hasCount() ? needed + " warps (count " + b.writtenCount() + ")" : "all live warps";
        String summary = !b.active() ? "No generation open: no warp has arrived since generation " + b.generation + " began."
                : b.arrivedCount() + " warps arrived of " + expected + "; warps not arrived: " + missing.size()
                        + (b.hasCount() && needed > m.warpsPerCta
                                ? " (the CTA has only " + m.warpsPerCta + " warps, so the count can never be reached)" : "");
        List<BarrierDetail.Completion> history = new ArrayList<>();
        scan(nav, key, SyncEvent.BAR_COMPLETE, history, null, null, m);
        TreeSet<Integer> lines = new TreeSet<>();
        TreeSet<Integer> warps = new TreeSet<>();
        Op[] code = nav.tt.run().program().code;
        for (int s = 0; s < m.status.length; s++) {
            if (m.status[s] != ThreadStatus.BAR_WAIT || m.waitArg[s] != key.id()) continue;
            if ((s >> 5) / m.warpsPerCta != key.cta()) continue;
            waiter(m, code, s, lines, warps);
        }
        String title = "bar " + b.id + " of " + StateCapture.ctaName(m, key.cta()) + " · generation " + b.generation;
        return new BarrierDetail(key, title, summary, arrived, missing, List.of(), history, lines, warps, arrivedWho, missingWho);
    }

    private static BarrierDetail mbarrier(Navigator nav, Machine m, BarrierKey key) {
        Mbarrier b = null;
        for (Mbarrier c : m.mbarriers.all()) if (c.cta == key.cta() && c.offset == key.id()) b = c;
        if (b == null) return null;
        List<BarrierDetail.Completion> history = new ArrayList<>();
        List<Long> arrivedSlots = new ArrayList<>();
        List<String> arrived = new ArrayList<>();
        List<String> tx = new ArrayList<>();
        List<Long> txSlots = new ArrayList<>();
        scan(nav, key, SyncEvent.MBAR_PHASE_COMPLETE, history, arrived, tx, m, arrivedSlots, txSlots);
        List<BarrierDetail.Who> arrivedWho = new ArrayList<>();
        for (long slot : arrivedSlots) arrivedWho.add(BarrierDetail.Who.thread((int) slot));
        for (long slot : txSlots) arrivedWho.add(BarrierDetail.Who.thread((int) slot));
        List<BarrierDetail.Who> missingWho = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        int threads = m.warpsPerCta * 32;
        int live = 0;
        for (int t = 0; t < threads; t++) {
            int s = key.cta() * threads + t;
            if ((m.liveMask[s >> 5] & (1 << (s & 31))) != 0) live++;
        }
        if (b.valid && b.pending > 0) {
            if (b.expected > 1) {
                // Threads arrive together: the ones that have not, as ranges (as the deadlock explanation lists them).
                missingRanges(m, key.cta(), arrivedSlots, missing, missingWho);
            } else {
                // One arrival expected (a producer's): listing every other thread would be noise.
                missing.add("1 more arrive-on needed, from any thread (the expected count is 1, so no particular thread"
                        + " of the CTA's " + live + " is missing)");
                missingWho.add(BarrierDetail.Who.NOBODY);
            }
        }
        if (b.valid && b.pendingTxBytes() > 0) bytesMissing(m, b, missing, missingWho);
        String summary = !b.valid ? "Not valid (never initialised or invalidated)." : mbarrierSummary(b);
        TreeSet<Integer> lines = new TreeSet<>();
        TreeSet<Integer> warps = new TreeSet<>();
        Op[] code = nav.tt.run().program().code;
        long k = key.object();
        for (int s = 0; s < m.status.length; s++) {
            byte st = m.status[s];
            if ((st == ThreadStatus.MBAR_WAIT || st == ThreadStatus.PARKED) && m.waitValue[s] == k) waiter(m, code, s, lines, warps);
        }
        String title = MbarrierOp.name(m, b.offset) + " of " + StateCapture.ctaName(m, key.cta()) + " · phase " + b.phase;
        return new BarrierDetail(key, title, summary, arrived, missing, tx, history, lines, warps, arrivedWho, missingWho);
    }

    /** Live threads of the CTA that did not arrive this phase, as ranges of thread indices. */
    private static void missingRanges(Machine m, int cta, List<Long> arrivedSlots, List<String> missing,
                                      List<BarrierDetail.Who> missingWho) {
        int first = -1;
        int last = -1;
        int threads = m.warpsPerCta * 32;
        for (int t = 0; t <= threads; t++) {
            boolean gap = false;
            if (t < threads) {
                int s = cta * threads + t;
                boolean live = (m.liveMask[s >> 5] & (1 << (s & 31))) != 0;
                gap = live && !arrivedSlots.contains((long) s);
            }
            if (gap && first < 0) first = t;
            if (gap) last = t;
            if (!gap && first >= 0) {
                missing.add(first == last ? "t" + first : "t" + first + "–" + last);
                missingWho.add(BarrierDetail.Who.thread(cta * threads + first)); // a range: its first thread
                first = -1;
            }
        }
    }

    /**
     * The bytes the phase still waits for, and the engine's copies in flight that would deliver
     * them (or that none would: then only a thread issuing a new copy can complete the phase).
     */
    private static void bytesMissing(Machine m, Mbarrier b, List<String> missing, List<BarrierDetail.Who> missingWho) {
        List<AsyncOperation> flying = m.async.deliveringTxTo(b.cta, b.offset);
        long coming = 0;
        for (AsyncOperation op : flying) coming += op.size();
        long pending = b.pendingTxBytes();
        missing.add(pending + " tx bytes not yet delivered; " + (flying.isEmpty()
                ? "no copy in flight would deliver them"
                : flying.size() + " cop" + (flying.size() == 1 ? "y" : "ies") + " in flight would deliver " + coming
                        + (coming < pending ? " (fewer than pending: the phase cannot complete on them alone)" : "")));
        missingWho.add(BarrierDetail.Who.NOBODY);
        for (AsyncOperation op : flying) {
            missing.add("in flight: " + copyName(op) + " of " + op.size() + " bytes, issued by " + thread(m, b.cta, op.slot()));
            missingWho.add(BarrierDetail.Who.thread(op.slot()));
        }
    }

    private static String copyName(AsyncOperation op) {
        return switch (op.kind()) {
            case TENSOR_TO_SHARED -> "cp.async.bulk.tensor";
            case BULK_TO_SHARED -> "cp.async.bulk";
            case REMOTE_STORE -> "st.async/red.async";
            default -> op.kind().name();
        };
    }

    private static String mbarrierSummary(Mbarrier b) {
        String phase = " in phase " + b.phase + " (parity " + (b.phase & 1) + ")";
        String bytes = b.pendingTxBytes() > 0 ? b.pendingTxBytes() + " tx bytes expected but not yet delivered"
                : b.tx < 0 ? (-b.tx) + " tx bytes delivered beyond what was expected (over-delivery)" : "";
        if (b.pending == 0) {
            return "All " + b.expected + " arrivals are in" + phase + "; the phase waits only for bytes: " + bytes + ".";
        }
        return b.pending + " of " + b.expected + " arrivals still pending" + phase
                + "; arrivals are counted, not tied to threads: any thread may still arrive"
                + (bytes.isEmpty() ? "" : "; " + bytes);
    }

    private static void scan(Navigator nav, BarrierKey key, SyncEvent complete, List<BarrierDetail.Completion> history,
                             List<String> arrived, List<String> tx, Machine m) {
        scan(nav, key, complete, history, arrived, tx, m, new ArrayList<>(), new ArrayList<>());
    }

    /**
     * One pass over the recording up to the position: the completions of {@code key} into
     * {@code history}; for an mbarrier ({@code arrived} not null) the arrive-ons and tx events
     * since its last completion, init or inval, with the thread of each ({@code arrivedSlots},
     * {@code txSlots}; -1 for none).
     */
    private static void scan(Navigator nav, BarrierKey key, SyncEvent complete, List<BarrierDetail.Completion> history,
                             List<String> arrived, List<String> tx, Machine m, List<Long> arrivedSlots, List<Long> txSlots) {
        long now = nav.tt.now();
        String unit = complete == SyncEvent.BAR_COMPLETE ? "generation " : "phase ";
        BarrierEventIndex.Events e = nav.barrierEvents().of(key);
        for (int i = 0; i < e.size && e.step[i] < now; i++) {
            SyncEvent kind = e.kind[i];
            long step = e.step[i];
            if (kind == complete) {
                long at = step + 1;
                history.add(new BarrierDetail.Completion(e.a[i], at, unit + e.a[i] + " completed at step " + at));
            }
            if (arrived == null) continue;
            switch (kind) {
                case MBAR_PHASE_COMPLETE, MBAR_INIT, MBAR_INVAL -> {
                    arrived.clear();
                    tx.clear();
                    arrivedSlots.clear();
                    txSlots.clear();
                }
                case MBAR_ARRIVE -> {
                    arrived.add(thread(m, key.cta(), e.slot[i]) + " · count " + e.a[i] + " at step " + (step + 1)
                            + " (" + e.b[i] + " pending after)");
                    arrivedSlots.add((long) e.slot[i]);
                }
                case MBAR_EXPECT_TX -> {
                    tx.add("expect-tx " + e.a[i] + " bytes by " + thread(m, key.cta(), e.slot[i])
                            + " at step " + (step + 1) + " (tx " + signed(e.b[i]) + ")");
                    txSlots.add((long) e.slot[i]);
                }
                case MBAR_COMPLETE_TX -> {
                    tx.add("complete-tx " + e.a[i] + " bytes"
                            + (e.slot[i] >= 0 ? " (issued by " + thread(m, key.cta(), e.slot[i]) + ")" : "")
                            + " at step " + (step + 1) + " (tx " + signed(e.b[i]) + ")");
                    txSlots.add((long) e.slot[i]);
                }
                default -> { }
            }
        }
    }

    private static String signed(long v) { return v > 0 ? "+" + v : Long.toString(v); }

    private static void waiter(Machine m, Op[] code, int s, TreeSet<Integer> lines, TreeSet<Integer> warps) {
        int pc = m.pc[s];
        if (pc >= 0 && pc < code.length) lines.add(code[pc].insn.pos().line());
        warps.add(s >> 5);
    }

    /** A thread by its index in {@code cta} ("t5"), or by warp and lane if it belongs to another CTA. */
    static String thread(Machine m, int cta, int slot) {
        if (slot < 0) return "no thread";
        int threads = m.warpsPerCta * 32;
        if (slot / threads == cta) return "t" + (slot - cta * threads);
        return m.warpName(slot >> 5) + " lane " + (slot & 31);
    }

    private static String warpText(Machine m, int cta, int warp) {
        int base = (warp - cta * m.warpsPerCta) * 32;
        return "w" + (warp - cta * m.warpsPerCta) + " (t" + base + "–" + (base + 31) + ")";
    }
}
