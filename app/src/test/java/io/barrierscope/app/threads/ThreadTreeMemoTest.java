package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.barrierscope.app.session.ThreadsState;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.ThreadStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tree is rebuilt from a new state only where the state's records changed. */
class ThreadTreeMemoTest {
    private static final List<ThreadsState.Cta> CTAS = List.of(new ThreadsState.Cta(0, "CTA (0,0,0)", 0, "cluster (0,0,0)"),
            new ThreadsState.Cta(1, "CTA (1,0,0)", 1, "cluster (1,0,0)"));

    private static ThreadsState.Warp warp(int w, byte status, int pc) {
        return new ThreadsState.Warp(w, w / 2, w % 2, -1,
                List.of(new ThreadsState.LaneGroup(-1, status, pc, pc + 30, null, "")));
    }

    private static ThreadsState state(List<ThreadsState.Warp> warps) {
        return new ThreadsState(new Dim3(2, 1, 1), new Dim3(64, 1, 1), Dim3.ONE, CTAS, warps);
    }

    @Test
    void aCtaWhoseWarpsAreTheSameRecordsKeepsItsRow() {
        List<ThreadsState.Warp> warps = new ArrayList<>(List.of(warp(0, ThreadStatus.RUNNABLE, 1), warp(1, ThreadStatus.RUNNABLE, 1),
                warp(2, ThreadStatus.RUNNABLE, 1), warp(3, ThreadStatus.RUNNABLE, 1)));
        ThreadTree.Memo memo = new ThreadTree.Memo();
        List<ThreadNode> first = ThreadTree.build(state(List.copyOf(warps)), memo);
        warps.set(3, warp(3, ThreadStatus.BAR_WAIT, 2));
        List<ThreadNode> second = ThreadTree.build(state(List.copyOf(warps)), memo);
        assertSame(first.get(0), second.get(0), "CTA 0 did not change");
        assertNotSame(first.get(1), second.get(1));
        assertSame(first.get(1).children().get(0), second.get(1).children().get(0), "warp 2 did not change");
        assertEquals("bar wait", second.get(1).children().get(1).state());
        assertEquals("32 runnable · 32 bar wait", second.get(1).state()); // a tie keeps the lower warp's state first
        // Built from nothing, the same tree.
        assertEquals(ThreadTree.build(state(List.copyOf(warps))), second);
    }
}
