package io.barrierscope.trace;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Whole-machine checkpoints: restoring one and re-executing retraces the original run exactly. */
class CheckpointTest {
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, bar;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n"
            + "mov.u32 %r20, %cluster_ctarank;\n";
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 tile[512];\n"
            + ".func (.param .b32 ret) twice(.param .b32 a)\n{\n.reg .b32 %q<3>;\nld.param.b32 %q1, [a];\n"
            + "shl.b32 %q2, %q1, 1;\nst.param.b32 [ret], %q2;\nret;\n}\n";
    /** out[rank*32 + tid] = tile[tid]. */
    private static final String READ_OUT = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nld.shared.u32 %r10, [%r9];\n"
            + "mad.lo.s32 %r11, %r20, 32, %r1;\nmul.wide.u32 %rd5, %r11, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\n";
    private static final String WAIT_PHASE0 = "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W;\n";

    /** %r19 = twice(%r18); each round calls from one of two sites, so a wrong return PC would show. */
    private static final String CALL = "{\n.param .b32 a0;\n.param .b32 rv;\nst.param.b32 [a0], %r18;\ncall.uni (rv), twice, (a0);\n"
            + "ld.param.b32 %r19, [rv];\n}\n";

    /**
     * Four rounds over 128 threads: store, bar.sync, read the neighbour through a .func call,
     * bar.sync; some warps nap first (sleepers and virtual-time jumps).
     */
    private static final String CTA_LOOP = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nadd.u32 %r12, %r1, 1;\n"
            + "rem.u32 %r12, %r12, 128;\nshl.b32 %r12, %r12, 2;\nadd.u32 %r13, %r3, %r12;\nmov.u32 %r14, 0;\nmov.u32 %r15, 0;\n"
            + "and.b32 %r16, %r1, 32;\nsetp.ne.u32 %p3, %r16, 0;\n@%p3 nanosleep.u32 300;\n"
            + "L:\nadd.u32 %r17, %r1, %r15;\nst.shared.u32 [%r9], %r17;\nbar.sync 0;\nld.shared.u32 %r18, [%r13];\n"
            + "and.b32 %r21, %r15, 1;\nsetp.eq.u32 %p5, %r21, 0;\n@%p5 bra EVEN;\n" + CALL + "bra.uni JOIN;\nEVEN:\n" + CALL + "JOIN:\n"
            + "add.u32 %r14, %r14, %r19;\nbar.sync 0;\nadd.u32 %r15, %r15, 1;\nsetp.lt.u32 %p4, %r15, 4;\n@%p4 bra L;\n"
            + "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r14;\nret;";

    private static final String BULK = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra WAITERS;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], EXPECT;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\nWAITERS:\n"
            + WAIT_PHASE0;

    private static final String CP_ASYNC = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\nbar.sync 0;\nshl.b32 %r8, %r1, 2;\n"
            + "add.u32 %r9, %r3, %r8;\nmul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\ncp.async.ca.shared.global [%r9], [%rd8], 4;\n"
            + "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r2];\n" + WAIT_PHASE0 + READ_OUT + "ret;";

    /** Two CTAs of a cluster: st.async into the peer with complete-tx, cluster barriers around it. */
    private static final String CLUSTER_ST_ASYNC = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbarrier.cluster.arrive;\n"
            + "barrier.cluster.wait;\n@!%p1 bra WAITERS;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 4;\nxor.b32 %r13, %r20, 1;\n"
            + "mapa.shared::cluster.u32 %r14, %r3, %r13;\nmapa.shared::cluster.u32 %r15, %r2, %r13;\nadd.u32 %r16, %r20, 40;\n"
            + "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r14], %r16, [%r15];\nWAITERS:\n" + WAIT_PHASE0
            + READ_OUT + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 256);
    }

    /** What a run ends with, to compare the original and the re-executed ending. */
    private record Ending(List<Long> hashes, Outcome outcome, List<Diagnostic> diagnostics, List<PrintfLine> printf,
                          Map<String, List<Number>> buffers, String deadlock) {}

    /** Steps to the end, hashing the state after every step. */
    private static Ending runRecording(LaunchedRun r) {
        Interpreter x = r.interpreter();
        List<Long> hashes = new ArrayList<>();
        for (int guard = 0; x.step(); guard++) {
            hashes.add(StateHash.of(x));
            assertTrue(guard < 200_000, "runaway run");
        }
        hashes.add(StateHash.of(x));
        String deadlock = x.outcome() == Outcome.DEADLOCK ? DeadlockExplainer.explain(x).text() : null;
        return new Ending(hashes, x.outcome(), List.copyOf(x.diagnostics()), List.copyOf(x.printfLines()), r.buffers(), deadlock);
    }

    /** Steps until {@code when} holds, checkpoints, runs on, then restores twice and checks each re-execution. */
    private static Ending assertReplaysFrom(LaunchedRun r, Predicate<Interpreter> when) {
        Interpreter x = r.interpreter();
        while (!when.test(x)) assertTrue(x.step(), "the run ended before the checkpoint's moment\n" + r.summary());
        boolean zeros = java.util.Arrays.stream(x.machine().regs).allMatch(v -> v == 0);
        Checkpoint cp = Checkpoint.take(x);
        long atTake = StateHash.of(x);
        assertEquals(x.machine().steps, cp.step());
        assertEquals(x.machine().cycles, cp.cycles());
        // Registers all 0 (the start of a run) are not copied.
        assertTrue(cp.bytes() > (zeros ? 0 : 8L * x.machine().regs.length), "bytes() covers at least the registers: " + cp.bytes());
        Ending first = runRecording(r);
        for (int again = 0; again < 2; again++) {
            cp.restoreInto(x);
            assertEquals(atTake, StateHash.of(x), "restored state hashes as at take time");
            assertEquals(cp.step(), x.machine().steps);
            assertEquals(first, runRecording(r), "re-execution " + (again + 1) + " retraces the run");
        }
        return first;
    }

    private static Predicate<Interpreter> atStep(long n) { return x -> x.machine().steps >= n; }

    private static Predicate<Interpreter> copyInFlight() { return x -> !x.machine().async.isEmpty(); }

    private static boolean anyStatus(Interpreter x, byte status) {
        Machine m = x.machine();
        for (int s = 0; s < m.slots; s++) if (m.status[s] == status) return true;
        return false;
    }

    /** At the start every register is 0: the checkpoint keeps no copy of them, and restoring it zeroes them again. */
    @Test
    void aCheckpointOfAllZeroRegistersKeepsNoCopyAndRestoresThem() {
        LaunchedRun r = kernel(CTA_LOOP).threads(64).launch();
        Interpreter x = r.interpreter();
        Checkpoint start = Checkpoint.take(x);
        long hash = StateHash.of(x);
        for (int i = 0; i < 40; i++) x.step();
        assertTrue(java.util.Arrays.stream(x.machine().regs).anyMatch(v -> v != 0), "the run wrote registers");
        Checkpoint later = Checkpoint.take(x);
        assertTrue(start.bytes() + 8L * x.machine().regs.length <= later.bytes() + 1024, start.bytes() + " vs " + later.bytes());
        start.restoreInto(x);
        assertEquals(hash, StateHash.of(x));
        assertTrue(java.util.Arrays.stream(x.machine().regs).allMatch(v -> v == 0));
    }

    @Test
    void ctaBarrierLoopWithCallsAndSleepersReplaysIdenticallyUnderTheRandomPolicy() {
        for (long seed = 0; seed < 3; seed++) {
            LaunchedRun r = kernel(CTA_LOOP).threads(128).policy("random", seed).launch();
            Ending e = assertReplaysFrom(r, x -> anyStatus(x, ThreadStatus.BAR_WAIT) && anyStatus(x, ThreadStatus.SLEEPING));
            assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
        }
    }

    @Test
    void roundRobinAndAdversarialPoliciesResumeTheirTurnsAndRandomness() {
        for (String policy : List.of("round-robin", "adversarial")) {
            LaunchedRun r = kernel(CTA_LOOP).threads(128).policy(policy, 6).launch();
            Ending e = assertReplaysFrom(r, atStep(301));
            assertEquals(Outcome.COMPLETED, e.outcome(), policy + "\n" + r.summary());
        }
    }

    @Test
    void aCheckpointTakenInsideACallRestoresTheCallStack() {
        LaunchedRun r = kernel(CTA_LOOP).threads(128).policy("random", 9).launch();
        Ending e = assertReplaysFrom(r, x -> {
            for (int d : x.machine().callDepth) if (d > 0) return true;
            return false;
        });
        assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
    }

    @Test
    void aBulkCopyInFlightLandsTheSameWayAfterRestore() {
        LaunchedRun r = kernel(BULK.replace("EXPECT", "128") + READ_OUT + "ret;").threads(64).policy("random", 3).launch();
        Ending e = assertReplaysFrom(r, copyInFlight());
        assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
        for (int i = 0; i < 32; i++) assertEquals(i, e.buffers().get("out").get(i).intValue());
    }

    @Test
    void cpAsyncWithMbarrierArrivesReplaysFromEveryFewSteps() {
        long length = kernel(CP_ASYNC).threads(32).policy("random", 4).run().machine().steps;
        for (long step = 0; step < length; step += Math.max(1, length / 7)) {
            LaunchedRun r = kernel(CP_ASYNC).threads(32).policy("random", 4).launch();
            Ending e = assertReplaysFrom(r, atStep(step));
            assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
        }
    }

    @Test
    void clusterBarriersAndRemoteStoresReplayAndKeepTheClusterBarrierShared() {
        LaunchedRun r = kernel(CLUSTER_ST_ASYNC).cluster(2).threads(32).policy("random", 5).launch();
        Machine m = r.machine();
        Ending e = assertReplaysFrom(r, x -> copyInFlight().test(x) && m.clusterBarriers[0].phase > 0);
        assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
        assertEquals(41L, e.buffers().get("out").get(0).longValue());
        assertTrue(m.clusterBarriers[0] == m.clusterBarriers[1], "both CTAs still see one cluster barrier object");
    }

    @Test
    void aDeadlockAndItsExplanationAreReproducedAfterRestore() {
        LaunchedRun r = kernel(BULK.replace("EXPECT", "256") + "ret;").threads(32).policy("random", 1).launch();
        Ending e = assertReplaysFrom(r, atStep(6));
        assertEquals(Outcome.DEADLOCK, e.outcome(), r.summary());
        assertTrue(e.deadlock().contains("128 bytes expected but not delivered"), e.deadlock());
    }

    @Test
    void aDiagnosisAfterTheCheckpointIsUndoneAndReproduced() {
        LaunchedRun r = PtxRun.kernel(".reg .b32 %r<2>;\nbarrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;").cluster(2).threads(32)
                .policy("random", 2).launch();
        Interpreter x = r.interpreter();
        Checkpoint start = Checkpoint.take(x);
        Ending e = assertReplaysFrom(r, atStep(1));
        assertEquals(Outcome.DIAGNOSED, e.outcome());
        assertEquals(1, e.diagnostics().size());
        start.restoreInto(x);
        assertEquals(Outcome.RUNNING, x.outcome());
        assertEquals(List.of(), x.diagnostics());
    }

    @Test
    void printfLinesAndLocalMemoryReplayFromTheCorpusKernel() throws Exception {
        Path ptx = Path.of(getClass().getResource("/ptx-corpus/printf_debug.ptx").toURI());
        List<Number> xs = List.of(1.5f, -2.25f, 3f, -0.5f, 0f, -0.001f, -9f, -4f);
        List<Number> labels = List.of(0L, 1L, 2L, 7L, 4L, 10L, 6L, 7L);
        List<ArgSpec> args = List.of(new ArgSpec("x", ScalarType.F32, 8, "data", xs, null),
                new ArgSpec("labels", ScalarType.S32, 8, "data", labels, null), new ArgSpec(null, ScalarType.U32, 0, null, null, 6L));
        LaunchSpec spec = new LaunchSpec(ptx.resolveSibling("printf_debug.json"), ptx, "debug_print", new Dim3(2, 1, 1),
                new Dim3(4, 1, 1), null, args, 0, null, "random", 4, 1_000_000, List.of());
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        Ending e = assertReplaysFrom(r, x -> !x.printfLines().isEmpty());
        assertEquals(Outcome.COMPLETED, e.outcome(), r.summary());
        assertEquals(6, e.printf().size());
    }

    @Test
    void restoringForwardAndBackwardBetweenTwoCheckpointsGivesTheirStates() {
        LaunchedRun r = kernel(CLUSTER_ST_ASYNC).cluster(2).threads(32).policy("random", 8).launch();
        Interpreter x = r.interpreter();
        Checkpoint early = Checkpoint.take(x); // before any mbarrier exists
        long earlyHash = StateHash.of(x);
        while (!copyInFlight().test(x)) assertTrue(x.step());
        Checkpoint late = Checkpoint.take(x);
        long lateHash = StateHash.of(x);
        List<Long> fromLate = runRecording(r).hashes();
        early.restoreInto(x);
        assertEquals(earlyHash, StateHash.of(x));
        assertTrue(x.machine().mbarriers.all().isEmpty(), "mbarriers first touched after the checkpoint are gone");
        late.restoreInto(x);
        assertEquals(lateHash, StateHash.of(x));
        assertEquals(fromLate, runRecording(r).hashes());
    }

    @Test
    void listenersStayAttachedAcrossARestore() {
        LaunchedRun r = kernel(CTA_LOOP).threads(64).policy("random", 2).launch();
        Interpreter x = r.interpreter();
        int[] steps = {0};
        int[] changes = {0};
        x.addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) { steps[0]++; }

            @Override
            public void statusChange(long step, int warp, int lanes, byte from, byte to) { changes[0]++; }
        });
        for (int i = 0; i < 20; i++) x.step();
        Checkpoint cp = Checkpoint.take(x);
        r.runToEnd();
        int stepsAfterFirst = steps[0];
        int changesAfterFirst = changes[0];
        cp.restoreInto(x);
        assertEquals(stepsAfterFirst, steps[0], "a restore tells the listeners nothing");
        r.runToEnd();
        assertEquals(2 * stepsAfterFirst - 20, steps[0]);
        assertTrue(changes[0] > changesAfterFirst, "status changes are still observed");
    }

    @Test
    void restoringIntoAnotherLaunchIsRefusedAndChangesNothing() {
        LaunchedRun a = kernel(CTA_LOOP).threads(128).policy("random", 1).launch();
        LaunchedRun sameText = kernel(CTA_LOOP).threads(128).policy("random", 1).launch();
        LaunchedRun other = kernel(CP_ASYNC).threads(32).policy("random", 1).launch();
        for (int i = 0; i < 30; i++) a.interpreter().step();
        Checkpoint cp = Checkpoint.take(a.interpreter());
        for (LaunchedRun target : List.of(other, sameText)) {
            for (int i = 0; i < 5; i++) target.interpreter().step();
            long before = StateHash.of(target.interpreter());
            assertThrows(IllegalArgumentException.class, () -> cp.restoreInto(target.interpreter()));
            assertEquals(before, StateHash.of(target.interpreter()));
        }
    }

    @Test
    void restoringARunOfAnotherPolicyIsRefused() {
        LaunchedRun r = kernel(CP_ASYNC).threads(32).policy("random", 1).launch();
        Checkpoint cp = Checkpoint.take(r.interpreter());
        Interpreter roundRobin = new Interpreter(r.machine(), new io.barrierscope.exec.RoundRobinPolicy());
        assertThrows(IllegalArgumentException.class, () -> cp.restoreInto(roundRobin));
    }
}
