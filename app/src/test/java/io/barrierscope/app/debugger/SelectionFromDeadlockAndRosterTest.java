package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.deadlock.WaitGraph;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.DebugSession;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The deadlock graph's boxes and the barriers pane's roster select through the one selection
 * like a thread row does: their warp or thread (tree row, lane, inspector) and their barrier; on
 * real samples with a synchronous session and no toolkit.
 */
class SelectionFromDeadlockAndRosterTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    private int selectedWarp() { return vm.timelineProperty().get().selectedWarpProperty().get(); }

    private WaitGraph.Node box(WaitGraph.Kind kind, String title) {
        return vm.deadlock().graphProperty().get().nodes().stream()
                .filter(n -> n.kind() == kind && n.title().equals(title)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " box " + title));
    }

    @Test
    void aBlockedThreadsBoxSelectsItsWarpEverywhere() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        vm.run();
        vm.deadlock().select(box(WaitGraph.Kind.WAITER, "CTA (0,0,0) warp 2"));
        assertEquals(2, selectedWarp());
        assertEquals("w2", vm.threads().selectedKeyProperty().get());
        assertTrue(vm.registers().titleProperty().get().contains("thread (64,0,0)"), vm.registers().titleProperty().get());
        assertEquals(new BarrierKey(BarrierKey.Kind.MBARRIER, 0, 0), vm.barriers().selectedProperty().get());
    }

    @Test
    void aBarrierBoxSelectsItsBarrierInTheBarriersPane() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        vm.run();
        vm.selection().selectBarrier(null);
        WaitGraph.Node bar = box(WaitGraph.Kind.BARRIER, "mbarrier bar (shared 0x0)");
        vm.deadlock().select(bar);
        assertEquals(new BarrierKey(BarrierKey.Kind.MBARRIER, 0, 0), vm.barriers().selectedProperty().get());
        assertTrue(vm.barriers().detailTitleProperty().get().startsWith("bar"), vm.barriers().detailTitleProperty().get());
        assertEquals(Set.of(bar.ptxLine()), vm.source().linkedLinesProperty().get());
    }

    @Test
    void anExitedMissingBoxSelectsItsWarpThoughItHasNoLine() {
        vm.open(TestFiles.sample("mbarrier-exited-waiter"));
        vm.run();
        WaitGraph.Node gone = box(WaitGraph.Kind.MISSING, "CTA (0,0,0) warp 2");
        assertTrue(gone.exited());
        assertEquals(0, gone.ptxLine());
        vm.deadlock().select(gone);
        assertEquals(2, selectedWarp());
        assertEquals("w2", vm.threads().selectedKeyProperty().get());
    }

    @Test
    void aCtaBarrierArrivedEntrySelectsItsWarpAndKeepsTheBarrier() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        BarrierKey key = new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1);
        vm.selection().selectBarrier(key);
        assertEquals("w1 (t32–63)", vm.barriers().arrived().get(1));
        vm.barriers().pickArrived(1);
        assertEquals(1, selectedWarp());
        assertEquals("w1", vm.threads().selectedKeyProperty().get());
        assertEquals(key, vm.barriers().selectedProperty().get());
    }

    @Test
    void aClusterBarrierMissingEntrySelectsItsWarp() {
        vm.open(TestFiles.sample("cluster-barrier-one-partition"));
        vm.run();
        BarrierKey key = new BarrierKey(BarrierKey.Kind.CLUSTER_BARRIER, 0, 0);
        vm.selection().selectBarrier(key);
        assertEquals("CTA (1,0,0) w0 (t0–31)", vm.barriers().missing().get(1));
        vm.barriers().pickMissing(1);
        assertEquals(2, selectedWarp()); // two warps a CTA: CTA 1's warp 0 is the third
        assertEquals("w2", vm.threads().selectedKeyProperty().get());
        assertEquals(key, vm.barriers().selectedProperty().get());
    }

    @Test
    void anMbarrierArrivalEntrySelectsItsThread() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        vm.run();
        BarrierKey key = new BarrierKey(BarrierKey.Kind.MBARRIER, 0, 0);
        vm.selection().selectBarrier(key);
        String entry = vm.barriers().arrived().get(40); // "t40 · count 1 at step ..."
        int slot = Integer.parseInt(entry.substring(1, entry.indexOf(' ')));
        vm.barriers().pickArrived(40);
        assertEquals("t" + slot, vm.threads().selectedKeyProperty().get());
        assertEquals(slot >> 5, selectedWarp());
        assertEquals(key, vm.barriers().selectedProperty().get());
        assertNull(vm.selection().placeProperty().get().row());
    }
}
