package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.threads.ThreadNode;
import io.barrierscope.app.timeline.TimelineHit;
import io.barrierscope.app.timeline.TimelineViewModel;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one selection (whatever points at a place selects it everywhere), on real
 * samples with a synchronous session and no toolkit: thread rows, diagnostics and timeline clicks
 * each select the thread, its warp's lane, its barrier and its line.
 */
class SelectionTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    private ThreadNode row(String key) {
        ThreadNode n = vm.threads().node(key);
        if (n == null) throw new AssertionError("no row " + key);
        return n;
    }

    private int selectedWarp() { return vm.timelineProperty().get().selectedWarpProperty().get(); }

    @Test
    void aThreadRowSelectsItsWarpsLaneAndTheBarrierItWaitsOn() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        vm.run();
        ThreadNode warp2 = row("w2");
        assertEquals(new BarrierKey(BarrierKey.Kind.MBARRIER, 0, 0), warp2.barrier());
        vm.threads().select(warp2);
        assertEquals(2, selectedWarp());
        assertEquals(warp2.barrier(), vm.barriers().selectedProperty().get());
        assertEquals(warp2.barrier(), vm.selection().barrierProperty().get());
        // the session was asked for the barrier's detail: its waiters are marked in the source and timeline
        assertTrue(vm.barriers().detailTitleProperty().get().contains("bar"), vm.barriers().detailTitleProperty().get());
        assertTrue(vm.source().waiterLinesProperty().get().contains(warp2.ptxLine()));
        assertTrue(vm.timelineProperty().get().highlightedLanesProperty().get().contains(2));
        assertEquals(Set.of(warp2.ptxLine()), vm.source().linkedLinesProperty().get());
        assertTrue(vm.registers().titleProperty().get().contains("thread (64,0,0)"), vm.registers().titleProperty().get());
    }

    @Test
    void reopeningTheOpenFileStartsAfreshLikeTheSession() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        vm.threads().select(row("w1"));
        assertEquals(1, selectedWarp());
        vm.open(TestFiles.sample("block-reduce"));
        assertNull(vm.selection().placeProperty().get());
        assertEquals("", vm.threads().selectedKeyProperty().get());
        assertEquals(-1, selectedWarp());
    }

    @Test
    void aNewerChoiceWinsOverAPlaceStillWaitingForItsStep() {
        // A worker that answers only when told, as a busy one does.
        java.util.ArrayDeque<Runnable> queue = new java.util.ArrayDeque<>();
        DebuggerViewModel slow = new DebuggerViewModel(l -> new DebugSession(queue::add, Runnable::run, l));
        Runnable drain = () -> { while (!queue.isEmpty()) queue.poll().run(); };
        slow.open(TestFiles.sample("double-bar-arrive"));
        drain.run();
        slow.run();
        drain.run();
        slow.selection().select(Place.warpAt(0, 5)); // at an earlier step: waits for that step's snapshot
        ThreadNode w3 = slow.threads().node("w3");
        if (w3 == null) throw new AssertionError("no row w3");
        slow.threads().select(w3);
        drain.run();
        assertEquals("w3", slow.threads().selectedKeyProperty().get());
        assertEquals(3, slow.timelineProperty().get().selectedWarpProperty().get());
    }

    @Test
    void aThreadThatWaitsOnNothingKeepsTheBarrierChosenBefore() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        ThreadNode w0 = row("w0");
        assertNull(w0.barrier());
        BarrierKey chosen = new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 0);
        vm.selection().selectBarrier(chosen);
        vm.threads().select(row("w1"));
        assertEquals(chosen, vm.barriers().selectedProperty().get());
        assertEquals(1, selectedWarp());
    }

    @Test
    void aDiagnosticSelectsItsThreadItsLaneItsBarrierAndItsStep() {
        vm.open(TestFiles.sample("double-bar-arrive"));
        vm.run();
        var r = vm.diagnosticsList().rows().get(0);
        assertTrue(r.slot() >= 0);
        assertEquals(BarrierKey.Kind.CTA_BARRIER, r.barrier().kind());
        vm.seek(0);
        vm.diagnosticsList().activate(r);
        assertEquals(r.stopStep(), vm.nowProperty().get());
        assertEquals(ThreadNode.threadKey(r.slot()), vm.threads().selectedKeyProperty().get());
        // the rows the tree opens to show it: its CTA, its warp (and its lane group if the warp diverged), itself
        List<String> path = vm.threads().revealedProperty().get();
        assertEquals(List.of("cta0", ThreadNode.warpKey(r.slot() >> 5)), path.subList(0, 2), path.toString());
        assertEquals(ThreadNode.threadKey(r.slot()), path.get(path.size() - 1));
        assertEquals(r.slot() >> 5, selectedWarp());
        assertEquals(r.barrier(), vm.barriers().selectedProperty().get());
        assertEquals(r.ptxLine(), vm.source().revealProperty().get().line());
        assertTrue(vm.registers().titleProperty().get().startsWith("Registers of CTA (0,0,0) thread (" + (r.slot() % 32 + 32 * (r.slot() >> 5)) + ","),
                vm.registers().titleProperty().get());
    }

    @Test
    void aTimelineClickSelectsThatWarpInTheThreadsTreeAndGoesToItsStep() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        TimelineViewModel t = vm.timelineProperty().get();
        t.viewportWidthProperty().set(1000);
        int row = t.rowOfLane(t.model().laneOfWarp(1));
        TimelineHit hit = t.hitAt(999, row);
        vm.seek(0);
        t.click(999, row);
        assertEquals(hit.seekStep(), vm.nowProperty().get());
        assertEquals(ThreadNode.warpKey(1), vm.threads().selectedKeyProperty().get());
        assertEquals(List.of("cta0", "w1"), vm.threads().revealedProperty().get());
        assertEquals(1, selectedWarp());
        // there warp 1 waits on barrier 1 at its bar.sync: both are selected with it
        ThreadNode w1 = row("w1");
        assertEquals(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1), vm.barriers().selectedProperty().get());
        assertEquals(Set.of(w1.ptxLine()), vm.source().linkedLinesProperty().get());
        assertTrue(vm.source().getLines().get(w1.ptxLine() - 1).contains("bar.sync"));
        assertTrue(vm.registers().titleProperty().get().contains("thread (32,0,0)"), vm.registers().titleProperty().get());
    }

    @Test
    void aBarrierPickedInItsPaneLeavesTheThreadAlone() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        vm.threads().select(row("w0"));
        vm.barriers().select(vm.barriers().rows().get(0));
        assertEquals(0, selectedWarp());
        assertEquals("w0", vm.threads().selectedKeyProperty().get());
        assertEquals(vm.barriers().selectedProperty().get(), vm.selection().barrierProperty().get());
    }

    @Test
    void aNewFileStartsWithNothingSelected() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        vm.threads().select(row("w1"));
        vm.open(TestFiles.sample("block-reduce"));
        assertNull(vm.selection().placeProperty().get());
        assertNull(vm.barriers().selectedProperty().get());
        assertEquals(-1, selectedWarp());
        assertFalse(vm.threads().selectedKeyProperty().get().startsWith("w"));
    }
}
