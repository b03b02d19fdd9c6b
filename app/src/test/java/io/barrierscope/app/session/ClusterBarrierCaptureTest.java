package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Cluster barrier rows and the selected one's roster, history and waiters, on the cluster samples. */
class ClusterBarrierCaptureTest {

    private static BarrierDetail select(SessionRecorder r, ClusterBarrierRow row) {
        r.session.selectBarrier(BarrierKey.of(row));
        return r.details.get(r.details.size() - 1);
    }

    /** Threads named by roster entries such as "CTA (0,0,0) w1 (t32–47 t50)". */
    private static int threads(List<String> entries) {
        int n = 0;
        Matcher t = Pattern.compile("t(\\d+)(?:–(\\d+))?").matcher(String.join(" ", entries));
        while (t.find()) n += t.group(2) == null ? 1 : Integer.parseInt(t.group(2)) - Integer.parseInt(t.group(1)) + 1;
        return n;
    }

    @Test
    void oneRowPerClusterNamedByItsCtasWithItsCompletedPhases() {
        Snapshot end = SessionRecorder.open("cluster-dsmem-exchange").runToEnd();
        assertEquals(Outcome.COMPLETED, end.outcome());
        List<ClusterBarrierRow> rows = end.clusterBarriers();
        assertEquals(2, rows.size(), rows.toString()); // grid 4, clusters of 2
        assertEquals("CTA (0,0,0)–(1,0,0)", rows.get(0).ctaName());
        assertEquals("cluster (0,0,0)", rows.get(0).label());
        assertEquals("CTA (2,0,0)–(3,0,0)", rows.get(1).ctaName());
        assertEquals("cluster (1,0,0)", rows.get(1).label());
        for (ClusterBarrierRow row : rows) {
            assertEquals("phase 2", row.phaseText()); // two arrive/wait pairs each
            assertFalse(row.stuck());
        }
    }

    @Test
    void aLaunchThatNeverUsesBarrierClusterHasNoClusterRow() {
        Snapshot end = SessionRecorder.open("block-reduce").runToEnd();
        assertTrue(end.clusterBarriers().isEmpty(), end.clusterBarriers().toString());
    }

    @Test
    void anOpenPhaseCountsTheClustersArrivedThreadsAndWarpsAndItsRosterNamesThem() {
        SessionRecorder r = SessionRecorder.open("cluster-remote-arrive"); // one cluster of 4 CTAs of 2 warps
        ClusterBarrierRow open = null;
        for (int i = 0; i < 2000 && open == null; i++) {
            r.session.step();
            open = r.last().clusterBarriers().stream().filter(c -> c.arrived() > 32 && c.arrived() < c.expected())
                    .findFirst().orElse(null);
        }
        assertNotNull(open, "no step with a cluster phase partly arrived");
        assertEquals(256, open.expected());
        assertEquals(8, open.warps());
        assertEquals(open.arrived() / 32, open.warpsArrived()); // aligned: whole warps arrive
        assertEquals(open.arrived() + "/256 threads · " + open.warpsArrived() + "/8 warps", open.gaugeText());
        assertTrue(open.detail().startsWith("missing: CTA ("), open.detail());

        BarrierDetail d = select(r, open);
        assertTrue(d.title().startsWith("barrier.cluster of cluster (0,0,0), CTA (0,0,0)–(3,0,0) · phase " + open.phase()),
                d.title());
        assertEquals(open.arrived(), threads(d.arrived()), d.arrived().toString());
        assertEquals(open.expected() - open.arrived(), threads(d.missing()), d.missing().toString());
        assertTrue(d.arrived().get(0).matches("CTA \\(\\d,0,0\\) w\\d \\(t\\d+–\\d+\\)"), d.arrived().get(0));
        List<String> both = new ArrayList<>(d.arrived());
        both.retainAll(d.missing());
        assertTrue(both.isEmpty(), both.toString());
        assertTrue(d.summary().startsWith(open.arrived() + " of 256 live threads of the cluster arrived in phase "), d.summary());
    }

    @Test
    void deadlockedClusterBarrierIsStuckAndNamesTheMissingProducerWarps() {
        SessionRecorder r = SessionRecorder.open("cluster-barrier-one-partition");
        Snapshot end = r.runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        ClusterBarrierRow row = end.clusterBarriers().get(0);
        assertTrue(row.stuck());
        // The consumer warps (w1) of both CTAs arrived; the producers (w0) never do.
        assertEquals("64/128 threads · 2/4 warps", row.gaugeText());
        assertEquals("missing: CTA (0,0,0) w0 · CTA (1,0,0) w0", row.detail());

        BarrierDetail d = select(r, row);
        assertEquals(List.of("CTA (0,0,0) w1 (t32–63)", "CTA (1,0,0) w1 (t32–63)"), d.arrived());
        assertEquals(List.of("CTA (0,0,0) w0 (t0–31)", "CTA (1,0,0) w0 (t0–31)"), d.missing());
        assertEquals(Set.of(1, 3), d.waiterWarps()); // global warp numbers of the consumers
        assertEquals(1, d.waiterLines().size());
        int line = d.waiterLines().iterator().next();
        assertTrue(r.opened.ptxLines().get(line - 1).contains("barrier.cluster.wait"), r.opened.ptxLines().get(line - 1));
        assertTrue(d.history().isEmpty());
    }

    @Test
    void historyListsEachCompletedPhaseAndSeekingToOneRewindsTheRow() {
        SessionRecorder r = SessionRecorder.open("cluster-dsmem-exchange");
        Snapshot end = r.runToEnd();
        ClusterBarrierRow row = end.clusterBarriers().get(0);
        BarrierDetail d = select(r, row);
        assertEquals(2, d.history().size());
        for (int p = 0; p < 2; p++) {
            BarrierDetail.Completion c = d.history().get(p);
            assertEquals(p, c.number());
            assertEquals("phase " + p + " completed at step " + c.step(), c.text());
        }
        BarrierDetail.Completion first = d.history().get(0);
        r.session.seek(first.step());
        assertEquals("phase 1", r.last().clusterBarriers().get(0).phaseText());
        assertEquals(List.of(first), r.details.get(r.details.size() - 1).history());
        r.session.seek(first.step() - 1);
        assertEquals("phase 0", r.last().clusterBarriers().get(0).phaseText());
    }
}
