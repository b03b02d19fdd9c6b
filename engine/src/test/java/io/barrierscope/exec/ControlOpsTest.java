package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bra, exit, ret, trap, brkpt, nanosleep and time, call/ret of .func (PTX ISA 9.7.12, 9.7.19). */
class ControlOpsTest {
    /** Stores %r2 into w[tid] (uses %rd44, %rd45). */
    private static final String STORE_BY_TID = "mov.u32 %r60, %tid.x;\nmul.wide.u32 %rd44, %r60, 4;\nadd.s64 %rd45, %rd40, %rd44;\n"
            + "st.global.u32 [%rd45], %r2;\n";

    private static int lineOf(String ptx, String text) {
        String[] lines = ptx.split("\n", -1);
        for (int i = 0; i < lines.length; i++) if (lines[i].trim().equals(text)) return i + 1;
        throw new AssertionError(text + " not in PTX");
    }

    @Test
    void exitedLanesStopWhileTheOthersContinue() {
        String body = "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 1;\n" + STORE_BY_TID + "and.b32 %r3, %r1, 1;\nsetp.eq.u32 %p1, %r3, 1;\n"
                + "@%p1 exit;\nmov.u32 %r2, 2;\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).threads(40).ok();
        for (int t = 0; t < 40; t++) assertEquals(t % 2 == 1 ? 1L : 2L, w(r, t), "thread " + t);
        assertTrue(r.machine().allExited());
    }

    @Test
    void retFromTheEntryExits() {
        String body = "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 3;\n@%p1 ret;\nmov.u32 %r2, 9;\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).threads(8).ok();
        for (int t = 0; t < 8; t++) assertEquals(t < 3 ? 0L : 9L, w(r, t));
    }

    @Test
    void divergentLoopsRunEachThreadItsOwnTripCount() {
        // thread t sums 1..t in a loop whose trip count depends on t.
        String body = "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\nLOOP:\nsetp.ge.u32 %p1, %r3, %r1;\n@%p1 bra DONE;\n"
                + "add.u32 %r3, %r3, 1;\nadd.u32 %r2, %r2, %r3;\nbra.uni LOOP;\nDONE:\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).threads(36).ok();
        for (int t = 0; t < 36; t++) assertEquals((long) t * (t + 1) / 2, w(r, t));
    }

    @Test
    void trapIsADiagnosticNamingThreadAndLine() {
        String body = "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 37;\n@%p1 bra OK;\ntrap;\nOK:\nmov.u32 %r2, 1;\n" + STORE_BY_TID;
        ExecKernel k = ExecKernel.of(body).threads(64);
        LaunchedRun r = k.run();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals(List.of("trap"), codes(r));
        Diagnostic d = r.interpreter().diagnostics().get(0);
        int line = lineOf(k.ptx(), "trap;");
        assertEquals(line, d.ptxLocations().get(0).line());
        assertTrue(d.message().contains("thread (37,0,0)"), d.message());
        assertTrue(d.message().contains("line " + line), d.message());
        assertEquals(List.of(37), d.threads());
    }

    @Test
    void brkptPausesRunAndTheRunContinues() {
        String body = "mov.u32 %r2, 1;\n" + STORE_BY_TID + "brkpt;\nmov.u32 %r2, 2;\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).threads(4).launch();
        Outcome first = r.interpreter().run(1_000_000);
        assertEquals(Outcome.RUNNING, first, "brkpt pauses the run");
        assertEquals(1L, w(r, 0), "paused after the first store, before the second");
        Outcome end = r.interpreter().run(1_000_000);
        assertEquals(Outcome.COMPLETED, end);
        for (int t = 0; t < 4; t++) assertEquals(2L, w(r, t));
        assertEquals(List.of(), codes(r));
    }

    @Test
    void predicatedOffBrkptDoesNotPause() {
        String body = "setp.eq.u32 %p1, 1, 0;\n@%p1 brkpt;\nmov.u32 %r2, 5;\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).launch();
        assertEquals(Outcome.COMPLETED, r.interpreter().run(1_000_000));
        assertEquals(5L, w(r, 0));
    }

    @Test
    void nanosleepAdvancesVirtualTimeSeenByGlobaltimerAndClock64() {
        String body = "mov.u64 %rd1, %globaltimer;\nmov.u64 %rd2, %clock64;\nnanosleep.u32 5000;\n"
                + "mov.u64 %rd3, %globaltimer;\nmov.u64 %rd4, %clock64;\n" + x(0, "%rd1") + x(1, "%rd2") + x(2, "%rd3") + x(3, "%rd4");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertTrue(x(r, 2) - x(r, 0) >= 5000, "globaltimer advanced by the sleep: " + x(r, 0) + " -> " + x(r, 2));
        assertTrue(x(r, 3) - x(r, 1) >= 5000, "clock64 advanced by the sleep: " + x(r, 1) + " -> " + x(r, 3));
        assertTrue(x(r, 2) < 1_000_000_000L, "virtual, not the host clock: " + x(r, 2));
        assertTrue(r.machine().cycles >= 5000);
    }

    @Test
    void timersIncreaseMonotonicallyAndAreDeterministic() {
        String body = "mov.u32 %r1, 0;\nmov.u64 %rd5, %clock64;\nLOOP:\nmov.u64 %rd6, %clock64;\nmov.u64 %rd7, %globaltimer;\n"
                + "mul.wide.u32 %rd8, %r1, 16;\nadd.s64 %rd9, %rd41, %rd8;\nst.global.u64 [%rd9], %rd6;\nst.global.u64 [%rd9+8], %rd7;\n"
                + "add.u32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 20;\n@%p1 bra LOOP;\nmov.u32 %r2, %clock;\n" + w(0, "%r2");
        LaunchedRun a = ExecKernel.of(body).ok();
        LaunchedRun b = ExecKernel.of(body).ok();
        for (int i = 1; i < 20; i++) {
            assertTrue(x(a, 2 * i) > x(a, 2 * i - 2), "clock64 increases at " + i);
            assertTrue(x(a, 2 * i + 1) > x(a, 2 * i - 1), "globaltimer increases at " + i);
        }
        for (int i = 0; i < 40; i++) assertEquals(x(a, i), x(b, i), "same run, same times");
        assertEquals(w(a, 0), w(b, 0));
    }

    @Test
    void aSpinLoopOnGlobaltimerTerminatesThroughVirtualTime() {
        // Waits until 10 us of virtual time have passed, sleeping 1 us per iteration (the libcu++ back-off shape).
        String body = "mov.u64 %rd1, %globaltimer;\nadd.u64 %rd2, %rd1, 10000;\nmov.u32 %r1, 0;\nSPIN:\nnanosleep.u32 1000;\n"
                + "add.u32 %r1, %r1, 1;\nmov.u64 %rd3, %globaltimer;\nsetp.lt.u64 %p1, %rd3, %rd2;\n@%p1 bra SPIN;\n" + w(0, "%r1");
        // Every lane stores its count to w[0]: a race on purpose, this test is about virtual time.
        LaunchedRun r = ExecKernel.of(body).threads(32).racy().ok();
        assertTrue(w(r, 0) >= 5 && w(r, 0) <= 11, "iterations: " + w(r, 0));
    }

    private static final String FUNCS = ".func (.param .b32 ret) madd(.param .b32 a, .param .b32 b, .param .b32 c)\n{\n"
            + ".reg .b32 %q<5>;\nld.param.b32 %q1, [a];\nld.param.b32 %q2, [b];\nld.param.b32 %q3, [c];\n"
            + "mad.lo.s32 %q4, %q1, %q2, %q3;\nst.param.b32 [ret], %q4;\nret;\n}\n"
            + ".func (.param .b64 ret) twice_madd(.param .b32 a)\n{\n.reg .b32 %s<4>;\n.reg .b64 %sd<2>;\n"
            + "ld.param.b32 %s1, [a];\n{\n.param .b32 p0;\n.param .b32 p1;\n.param .b32 p2;\n.param .b32 r0;\n"
            + "st.param.b32 [p0], %s1;\nst.param.b32 [p1], 2;\nst.param.b32 [p2], 1;\ncall.uni (r0), madd, (p0, p1, p2);\n"
            + "ld.param.b32 %s2, [r0];\n}\ncvt.u64.u32 %sd1, %s2;\nshl.b64 %sd1, %sd1, 32;\nst.param.b64 [ret], %sd1;\nret;\n}\n";

    @Test
    void callPassesParamsAndReturnsValuesIncludingNestedCalls() {
        String body = "mov.u32 %r1, %tid.x;\n{\n.param .b32 a0;\n.param .b32 a1;\n.param .b32 a2;\n.param .b32 rv;\n"
                + "st.param.b32 [a0], %r1;\nst.param.b32 [a1], 10;\nst.param.b32 [a2], -3;\ncall.uni (rv), madd, (a0, a1, a2);\n"
                + "ld.param.b32 %r2, [rv];\n}\n" + STORE_BY_TID
                + "{\n.param .b32 b0;\n.param .b64 rw;\nst.param.b32 [b0], %r1;\ncall (rw), twice_madd, (b0);\n"
                + "ld.param.b64 %rd1, [rw];\n}\nmul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd41, %rd2;\nst.global.u64 [%rd3], %rd1;\n";
        LaunchedRun r = ExecKernel.of(body).funcs(FUNCS).threads(40).ok();
        for (int t = 0; t < 40; t++) {
            assertEquals(ExecKernel.u32(t * 10 - 3), w(r, t), "madd thread " + t);
            assertEquals((long) (2 * t + 1) << 32, x(r, t), "twice_madd thread " + t);
        }
    }

    @Test
    void callFromDivergentLanesReturnsEachToItsOwnCaller() {
        String body = "mov.u32 %r1, %tid.x;\nand.b32 %r3, %r1, 1;\nsetp.eq.u32 %p1, %r3, 0;\n"
                + "{\n.param .b32 a0;\n.param .b32 a1;\n.param .b32 a2;\n.param .b32 rv;\n"
                + "st.param.b32 [a0], %r1;\nst.param.b32 [a1], 3;\nst.param.b32 [a2], 0;\n@%p1 bra EVEN;\n"
                + "st.param.b32 [a2], 1000;\ncall (rv), madd, (a0, a1, a2);\nld.param.b32 %r2, [rv];\nbra.uni J;\n"
                + "EVEN:\ncall (rv), madd, (a0, a1, a2);\nld.param.b32 %r2, [rv];\nadd.u32 %r2, %r2, 7;\nJ:\n}\n" + STORE_BY_TID;
        LaunchedRun r = ExecKernel.of(body).funcs(FUNCS).threads(32).ok();
        for (int t = 0; t < 32; t++) assertEquals(t % 2 == 0 ? 3L * t + 7 : 3L * t + 1000, w(r, t), "thread " + t);
    }

    @Test
    void fallingOffTheEndOfTheKernelExits() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r2, 4;\n" + STORE_BY_TID).noRet().funcs(FUNCS).threads(2).run();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        assertEquals(4L, w(r, 1));
    }
}
