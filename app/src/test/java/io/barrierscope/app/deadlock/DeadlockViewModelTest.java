package io.barrierscope.app.deadlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.SessionRecorder;
import io.barrierscope.check.Deadlock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlockViewModelTest {
    private static Deadlock deadlockOf(String sample) {
        return SessionRecorder.open(sample).runToEnd().deadlock();
    }

    @Test
    void aCycleOfPollingWarpsIsDrawnRed() {
        // Both warps poll `full`, which needs an arrival from either of them: warp 0 -> warp 1 -> warp 0.
        Deadlock d = deadlockOf("expect-tx-without-arrive");
        WaitGraph g = WaitGraph.of(d);
        List<WaitGraph.Node> waiters = kind(g, WaitGraph.Kind.WAITER);
        List<WaitGraph.Node> barriers = kind(g, WaitGraph.Kind.BARRIER);
        List<WaitGraph.Node> missing = kind(g, WaitGraph.Kind.MISSING);
        assertEquals(2, waiters.size());
        assertEquals(1, barriers.size());
        assertEquals("mbarrier full (shared 0x0)", barriers.get(0).title());
        assertEquals("phase 0 · pending 1 of 1 · tx 0", barriers.get(0).subtitle());
        assertEquals(2, missing.size());
        assertTrue(barriers.get(0).detail().endsWith("No arrive-on yet this phase. The threads it still needs are in the right-hand column."),
                barriers.get(0).detail());
        assertEquals("CTA (0,0,0) warp 0", waiters.get(0).title());
        assertTrue(waiters.get(0).inCycle());
        assertTrue(waiters.get(1).inCycle());
        assertTrue(barriers.get(0).inCycle());
        assertTrue(g.edges().stream().anyMatch(e -> e.inCycle() && e.from() == waiters.get(0).id()));
        checkLayout(g);
    }

    @Test
    void anMbarrierThatExpectsMoreArrivalsThanItsThreadsGiveHasNoCycleAndNobodyMissing() {
        Deadlock d = deadlockOf("mbarrier-init-count-too-high");
        WaitGraph g = WaitGraph.of(d);
        List<WaitGraph.Node> barriers = kind(g, WaitGraph.Kind.BARRIER);
        assertEquals(4, kind(g, WaitGraph.Kind.WAITER).size());
        assertEquals("phase 0 · pending 1 of 129 · tx 0", barriers.get(0).subtitle());
        assertTrue(g.nodes().stream().noneMatch(WaitGraph.Node::inCycle));
        for (WaitGraph.Node n : kind(g, WaitGraph.Kind.MISSING)) assertEquals("nobody can arrive", n.title());
        checkLayout(g);
    }

    private static void checkLayout(WaitGraph g) {
        // Every box is where nodeAt finds it, inside the graph's size.
        for (WaitGraph.Node n : g.nodes()) {
            assertEquals(n, g.nodeAt(n.x() + 5, n.y() + 5));
            assertTrue(n.x() + WaitGraph.NODE_W <= g.width() && n.y() + WaitGraph.NODE_H <= g.height());
        }
    }

    @Test
    void exitedMissingWarpsAndNoCycle() {
        DeadlockViewModel vm = new DeadlockViewModel();
        List<WaitGraph.Node> picked = new ArrayList<>();
        vm.setOnPick(picked::add);
        Deadlock d = deadlockOf("named-barrier-too-many");
        vm.update(d);
        assertTrue(vm.deadlockedProperty().get());
        assertEquals("Deadlock: 2 blocked thread groups", vm.headlineProperty().get());
        assertTrue(vm.textProperty().get().contains("CTA (0,0,0) warp 2: exited"));
        WaitGraph g = vm.graphProperty().get();
        List<WaitGraph.Node> missing = kind(g, WaitGraph.Kind.MISSING);
        assertEquals(List.of("CTA (0,0,0) warp 2", "CTA (0,0,0) warp 3"), missing.stream().map(WaitGraph.Node::title).toList());
        assertTrue(missing.stream().allMatch(WaitGraph.Node::exited));
        assertEquals("2 of 4 warps arrived", kind(g, WaitGraph.Kind.BARRIER).get(0).subtitle());
        assertTrue(g.edges().stream().noneMatch(WaitGraph.Edge::inCycle));
        WaitGraph.Node w0 = kind(g, WaitGraph.Kind.WAITER).get(0);
        vm.select(w0);
        assertEquals(w0.id(), vm.selectedProperty().get());
        assertTrue(vm.detailProperty().get().contains("wait on CTA barrier 1"), vm.detailProperty().get());
        assertEquals(List.of(w0), picked);
        vm.clear();
        assertNull(vm.graphProperty().get());
        assertEquals("No deadlock", vm.headlineProperty().get());
    }

    @Test
    void aCycleInOneCtaIsNamedShortly() {
        assertEquals("warp 0 → warp 1 → warp 0 (CTA (0,0,0))",
                DeadlockViewModel.cycleText(List.of("CTA (0,0,0) warp 0", "CTA (0,0,0) warp 1", "CTA (0,0,0) warp 0")));
        assertEquals("CTA (0,0,0) warp 0 → CTA (1,0,0) warp 0",
                DeadlockViewModel.cycleText(List.of("CTA (0,0,0) warp 0", "CTA (1,0,0) warp 0")));
    }

    @Test
    void bigDeadlocksFoldIntoAMoreNode() {
        List<Deadlock.Wait> waits = new ArrayList<>();
        for (int w = 0; w < 100; w++) {
            waits.add(new Deadlock.Wait("CTA (0,0,0) warp " + w + " (all 32 threads)", "CTA barrier 0 of CTA (0,0,0) (generation 0)",
                    "x", List.of(new Deadlock.Missing("CTA (1,0,0) warp " + w, "exited", null)), "PTX line 3", 3, null));
        }
        WaitGraph g = WaitGraph.of(new Deadlock(waits, List.of()));
        assertEquals(2, kind(g, WaitGraph.Kind.MORE).size(), "one \"more\" node in each long column");
        assertEquals(WaitGraph.MAX_PER_COLUMN * 2 + 1 + 2, g.nodes().size());
    }

    private static List<WaitGraph.Node> kind(WaitGraph g, WaitGraph.Kind k) {
        return g.nodes().stream().filter(n -> n.kind() == k).toList();
    }
}
