package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.SessionRecorder;
import io.barrierscope.app.session.ThreadsState;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.ThreadStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadsViewModelTest {
    private final ThreadsViewModel vm = new ThreadsViewModel();

    /** One CTA of 64 threads: warp 0 diverged (lanes 0-15 at a barrier, the rest runnable), warp 1 exited. */
    private static ThreadsState diverged() {
        var bar = new ThreadsState.LaneGroup(0xFFFF, ThreadStatus.BAR_WAIT, 7, 40, new CudaLoc("k.cu", 12, 5),
                "bar 1 · gen 0 · 1/2 warps");
        var run = new ThreadsState.LaneGroup(0xFFFF0000, ThreadStatus.RUNNABLE, 5, 38, new CudaLoc("k.cu", 11, 1), "");
        var gone = new ThreadsState.LaneGroup(-1, ThreadStatus.EXITED, 9, 0, null, "");
        return new ThreadsState(Dim3.ONE, new Dim3(64, 1, 1), Dim3.ONE,
                List.of(new ThreadsState.Cta(0, "CTA (0,0,0)", 0, "cluster (0,0,0)")),
                List.of(new ThreadsState.Warp(0, 0, 0, -1, List.of(bar, run)), new ThreadsState.Warp(1, 0, 1, -1, List.of(gone))));
    }

    @Test
    void ctaWarpGroupsAndThreadsFormTheTree() {
        vm.update(diverged());
        List<ThreadNode> roots = vm.rootsProperty().get();
        assertEquals(1, roots.size());
        ThreadNode cta = roots.get(0);
        assertEquals("CTA (0,0,0)", cta.name());
        assertEquals("32 exited · 16 bar wait · 16 runnable", cta.state());
        ThreadNode w0 = cta.children().get(0);
        assertEquals("diverged: 2 groups", w0.state());
        ThreadNode atBar = w0.children().get(0);
        assertEquals(ThreadNode.Level.GROUP, atBar.level());
        assertEquals("lanes 0-15", atBar.name());
        assertEquals("bar wait", atBar.state());
        assertEquals(40, atBar.ptxLine());
        assertEquals("k.cu:12", atBar.cuda());
        assertEquals("bar 1 · gen 0 · 1/2 warps", atBar.waitsOn());
        assertEquals(16, atBar.children().size());
        assertEquals("thread 3 · lane 3", atBar.children().get(3).name());
        assertEquals(3, atBar.children().get(3).slot());
        ThreadNode w1 = cta.children().get(1);
        assertEquals("exited", w1.state());
        assertEquals("", w1.ptxLineText(), "an exited warp stands nowhere");
        assertEquals("thread 32 · lane 0", w1.children().get(0).name());
        assertEquals("64 threads: 32 exited · 16 bar wait · 16 runnable", vm.summaryProperty().get());
    }

    @Test
    void theFilterKeepsMatchesAndTheirAncestorsAndOpensThePathToThem() {
        vm.update(diverged());
        vm.filterProperty().set("bar wait");
        ThreadNode cta = vm.rootsProperty().get().get(0);
        assertTrue(cta.expand());
        assertEquals(1, cta.children().size());
        ThreadNode w0 = cta.children().get(0);
        assertTrue(w0.expand());
        ThreadNode group = w0.children().get(0);
        assertTrue(group.matched());
        assertFalse(group.expand(), "a match shows its rows closed");
        assertEquals(16, group.children().size());
        assertEquals("16 of 64 threads match", vm.summaryProperty().get());

        vm.filterProperty().set("thread 33");
        ThreadNode only = vm.rootsProperty().get().get(0).children().get(0).children().get(0);
        assertEquals("thread 33 · lane 1", only.name());

        vm.filterProperty().set("warp 1");
        assertEquals("warp 1", vm.rootsProperty().get().get(0).children().get(0).name());
        vm.filterProperty().set("runnable, k.cu:11");
        assertEquals("lanes 16-31", vm.rootsProperty().get().get(0).children().get(0).children().get(0).name());
        vm.filterProperty().set("no such thing");
        assertTrue(vm.rootsProperty().get().isEmpty());
        vm.filterProperty().set("");
        assertEquals(2, vm.rootsProperty().get().get(0).children().size());
    }

    @Test
    void selectingARowReportsItAndRemembersItsKey() {
        List<ThreadNode> picked = new ArrayList<>();
        vm.setOnSelect(picked::add);
        vm.update(diverged());
        ThreadNode t = vm.rootsProperty().get().get(0).children().get(0).children().get(1).children().get(0);
        vm.select(t);
        assertEquals(List.of(t), picked);
        assertEquals("t16", vm.selectedKeyProperty().get());
    }

    @Test
    void clustersAppearWhenAClusterHasMoreThanOneCta() {
        SessionRecorder r = SessionRecorder.open("cluster-dsmem-exchange");
        vm.update(r.last().threads());
        List<ThreadNode> roots = vm.rootsProperty().get();
        assertEquals(2, roots.size());
        assertEquals(ThreadNode.Level.CLUSTER, roots.get(0).level());
        assertEquals("cluster (0,0,0)", roots.get(0).name());
        assertEquals(List.of("CTA (0,0,0)", "CTA (1,0,0)"), roots.get(0).children().stream().map(ThreadNode::name).toList());
        assertEquals("cluster (1,0,0)", roots.get(1).name());
    }

    @Test
    void lanesText() {
        assertEquals("all lanes", ThreadTree.lanesText(-1));
        assertEquals("lane 4", ThreadTree.lanesText(1 << 4));
        assertEquals("lanes 0-3,8,30-31", ThreadTree.lanesText(0xF | 1 << 8 | 3 << 30));
    }
}
