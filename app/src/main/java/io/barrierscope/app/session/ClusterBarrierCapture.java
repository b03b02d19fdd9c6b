package io.barrierscope.app.session;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.ClusterBarrierSync;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The barrier.cluster barriers for the barriers pane, on the engine thread: one row per cluster
 * whose barrier was used, and the selected one's roster (exact: each thread records the phase it
 * arrived in), completions (from the recording) and waiters.
 */
final class ClusterBarrierCapture {
    private ClusterBarrierCapture() {}

    /** One row per cluster whose barrier has a phase open or completed, by rank-0 CTA. */
    static List<ClusterBarrierRow> rows(Machine m, boolean deadlocked) {
        List<ClusterBarrierRow> rows = new ArrayList<>();
        for (int c = 0; c < m.ctas; c++) {
            ClusterBarrier cb = m.clusterBarriers[c];
            if (cb.firstCta != c || (cb.phase == 0 && cb.arrived == 0)) continue;
            int warps = 0;
            int whole = 0;
            List<String> missing = new ArrayList<>();
            boolean blocked = false;
            for (int cta : m.memory.clusterMembers[c]) {
                int absent = 0;
                for (int k = 0; k < m.warpsPerCta; k++) {
                    int w = m.firstWarpOfCta(cta) + k;
                    if (m.liveMask[w] == 0) continue;
                    warps++;
                    if (notArrived(m, cb, w) == 0) whole++;
                    else absent |= 1 << k;
                    blocked |= waiters(m, w) != 0;
                }
                if (absent != 0) missing.add(StateCapture.ctaName(m, cta) + " " + StateCapture.warpRanges(absent));
            }
            rows.add(new ClusterBarrierRow(c, ctaSpan(m, c), clusterName(m, c), cb.phase, cb.arrived,
                    ClusterBarrierSync.liveThreads(m, cb), whole, warps, cb.arrived > 0 ? String.join(" · ", missing) : "",
                    deadlocked && blocked));
        }
        return List.copyOf(rows);
    }

    /** The selected cluster barrier's detail, or null if {@code key} names no cluster of this run. */
    static BarrierDetail detail(Navigator nav, BarrierKey key) {
        Machine m = nav.tt.run().machine();
        if (key.cta() < 0 || key.cta() >= m.ctas || m.clusterBarriers[key.cta()].firstCta != key.cta()) return null;
        ClusterBarrier cb = m.clusterBarriers[key.cta()];
        Op[] code = nav.tt.run().program().code;
        List<String> arrived = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<BarrierDetail.Who> arrivedWho = new ArrayList<>();
        List<BarrierDetail.Who> missingWho = new ArrayList<>();
        TreeSet<Integer> lines = new TreeSet<>();
        TreeSet<Integer> warps = new TreeSet<>();
        for (int cta : m.memory.clusterMembers[key.cta()]) {
            for (int k = 0; k < m.warpsPerCta; k++) {
                int w = m.firstWarpOfCta(cta) + k;
                int absent = notArrived(m, cb, w);
                int in = m.liveMask[w] & ~absent;
                String warp = StateCapture.ctaName(m, cta) + " w" + k + " (";
                if (in != 0 && cb.arrived > 0) {
                    arrived.add(warp + StateCapture.ranges("t", in & 0xFFFFFFFFL, k * 32) + ")");
                    arrivedWho.add(BarrierDetail.Who.warp(w));
                }
                if (absent != 0 && cb.arrived > 0) {
                    missing.add(warp + StateCapture.ranges("t", absent & 0xFFFFFFFFL, k * 32) + ")");
                    missingWho.add(BarrierDetail.Who.warp(w));
                }
                for (int l = waiters(m, w); l != 0; l &= l - 1) {
                    int pc = m.pc[(w << 5) + Integer.numberOfTrailingZeros(l)];
                    if (pc >= 0 && pc < code.length) lines.add(code[pc].insn.pos().line());
                    warps.add(w);
                }
            }
        }
        int live = ClusterBarrierSync.liveThreads(m, cb);
        String summary = cb.arrived == 0 ? "No phase open: no thread has arrived since phase " + cb.phase + " began."
                : cb.arrived + " of " + live + " live threads of the cluster arrived in phase " + cb.phase
                        + "; it completes when every thread that has not exited has arrived (each once per phase)";
        List<BarrierDetail.Completion> history = new ArrayList<>();
        long now = nav.tt.now();
        BarrierEventIndex.Events e = nav.barrierEvents().of(key);
        for (int i = 0; i < e.size && e.step[i] < now; i++) {
            if (e.kind[i] != SyncEvent.CLUSTER_COMPLETE) continue;
            long at = e.step[i] + 1;
            history.add(new BarrierDetail.Completion(e.a[i], at, "phase " + e.a[i] + " completed at step " + at));
        }
        String title = "barrier.cluster of " + clusterName(m, key.cta()) + ", " + ctaSpan(m, key.cta()) + " · phase " + cb.phase;
        return new BarrierDetail(key, title, summary, arrived, missing, List.of(), history, lines, warps, arrivedWho, missingWho);
    }

    /** Live lanes of warp {@code w} that have not arrived in the barrier's current phase. */
    private static int notArrived(Machine m, ClusterBarrier cb, int w) {
        int absent = 0;
        for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (m.clusterArrivedPhase[(w << 5) + lane] != cb.phase) absent |= 1 << lane;
        }
        return absent;
    }

    /**
     * Live lanes of warp {@code w} blocked at a barrier.cluster instruction: waiting for the
     * phase, or for the rest of their warp to reach one (the gather every such instruction
     * begins with).
     */
    private static int waiters(Machine m, int w) {
        int out = 0;
        for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            byte st = m.status[(w << 5) + lane];
            if (st == ThreadStatus.CLUSTER_WAIT || st == ThreadStatus.CLUSTER_GATHER) out |= 1 << lane;
        }
        return out;
    }

    /** "CTA (0,0,0)–(1,0,0)": the first and last CTA of the cluster (it is a box of the grid). */
    private static String ctaSpan(Machine m, int firstCta) {
        int[] members = m.memory.clusterMembers[firstCta];
        String first = StateCapture.ctaName(m, firstCta);
        return members.length == 1 ? first : first + "–" + m.grid.unflatten(members[members.length - 1]);
    }

    /** "cluster (x,y,z)", by its place in the grid of clusters, as the threads tree names it. */
    private static String clusterName(Machine m, int firstCta) {
        Dim3 id = m.grid.unflatten(firstCta);
        return "cluster " + new Dim3(id.x() / m.cluster.x(), id.y() / m.cluster.y(), id.z() / m.cluster.z());
    }
}
