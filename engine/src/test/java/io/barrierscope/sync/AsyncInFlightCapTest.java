package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Asynchronous operations in flight are bounded per launch (docs/reliability.md, semantics.md `async-in-flight`). */
class AsyncInFlightCapTest {
    /**
     * Every thread copies 16 bytes into its own part of a tile, {@code n} times, each in a group of
     * its own (two copies of one group to the same bytes are undefined), waiting for none until the end.
     */
    private static PtxRun copies(long n) {
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r10, %tid.x;\nshl.b32 %r11, %r10, 4;\n"
                + "mov.u32 %r12, tile;\nadd.u32 %r13, %r12, %r11;\nmul.wide.u32 %rd3, %r10, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
                + "mov.u32 %r1, 0;\nL:\ncp.async.ca.shared.global [%r13], [%rd4], 16;\ncp.async.commit_group;\nadd.u32 %r1, %r1, 1;\n"
                + "setp.lt.u32 %p1, %r1, " + n + ";\n@%p1 bra L;\ncp.async.wait_all;\nret;";
        return PtxRun.kernel(body).header(".shared .align 16 .b8 tile[1024];").buffer("in", 256, ScalarType.U32, "iota")
                .threads(64).latency(1_000_000_000L, 1_000_000_000L).maxSteps(2_000_000);
    }

    @Test
    void aLoopIssuingCopiesWithoutWaitingStopsAtTheInFlightCapWithADiagnosticNotAnOutOfMemoryError() {
        // 10^8 copies each with a latency of 10^9 cycles: every one stayed in flight until the heap ran out.
        LaunchedRun r = copies(100_000_000).racy().run();
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of("async-in-flight"), codes(r));
        assertEquals(64L * AsyncCopyUnit.IN_FLIGHT_PER_THREAD, r.machine().async.size(), "the cap and not one more");
        assertTrue(r.summary().contains("2048 already in flight, the most a launch of 64 thread slots holds (32 per thread slot)"),
                r.summary());
    }

    @Test
    void copiesUpToTheCapRunAsBefore() {
        LaunchedRun r = copies(AsyncCopyUnit.IN_FLIGHT_PER_THREAD).racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r));
    }
}
