package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts of the mbarrier and bulk-copy paths (a whole warp arriving or passing a wait at
 * once, the object cache, per-object waiter counts, bulk copies as one array copy) change no
 * run. Race detection watches every lane, so with it on the lanes go one by one and copies word
 * by word: with it off the same run must happen, event for event.
 */
class MbarrierFastPathTest {
    private static final String HEADER = ".shared .align 8 .b64 bar[4];\n.shared .align 16 .b8 tile[1024];";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, bar;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";

    /**
     * A two-stage bulk-copy pipeline in the shape nvcc emits for CUTLASS: warp 0 produces (parity
     * wait on empty[s], elect.sync, arrive.expect_tx and cp.async.bulk on full[s], bar.warp.sync),
     * warps 1-2 consume (parity wait on full[s], two shared loads, arrive on empty[s]) and
     * accumulate. bar[0..1] = full, bar[2..3] = empty (count 64). out[c] = sum over 8 tiles.
     */
    private static final String PIPELINE = "@!%p1 bra INIT_DONE;\n"
            + "mbarrier.init.shared::cta.b64 [%r2], 1;\nadd.u32 %r4, %r2, 8;\nmbarrier.init.shared::cta.b64 [%r4], 1;\n"
            + "add.u32 %r4, %r2, 16;\nmbarrier.init.shared::cta.b64 [%r4], 64;\nadd.u32 %r4, %r2, 24;\nmbarrier.init.shared::cta.b64 [%r4], 64;\n"
            + "INIT_DONE:\nbar.sync 0;\nmov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r10, 0;\nsetp.ge.u32 %p2, %r1, 32;\n@%p2 bra CONSUMER;\n"
            // producer: stage %r5, phase %r6 (starts 1), tile %r10
            + "mov.u32 %r6, 1;\nPLOOP:\nshl.b32 %r7, %r5, 3;\nadd.u32 %r8, %r2, %r7;\nadd.u32 %r9, %r8, 16;\n"
            + "PW:\nmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r9], %r6;\n@!%p3 bra PW;\n"
            + "elect.sync %r11|%p4, -1;\n@!%p4 bra PSYNC;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r8], 128;\nshl.b32 %r12, %r5, 7;\nadd.u32 %r13, %r3, %r12;\n"
            + "mul.wide.u32 %rd5, %r10, 128;\nadd.s64 %rd6, %rd2, %rd5;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r13], [%rd6], 128, [%r8];\n"
            + "PSYNC:\nbar.warp.sync -1;\nadd.u32 %r5, %r5, 1;\nsetp.eq.u32 %p5, %r5, 2;\nselp.u32 %r14, 1, 0, %p5;\n"
            + "xor.b32 %r6, %r6, %r14;\nselp.u32 %r5, 0, %r5, %p5;\nadd.u32 %r10, %r10, 1;\nsetp.lt.u32 %p6, %r10, 8;\n@%p6 bra PLOOP;\nret;\n"
            // consumer c = tid - 32 reads word c % 32 and word 31 - c % 32 of the tile
            + "CONSUMER:\nsub.u32 %r15, %r1, 32;\nand.b32 %r16, %r15, 31;\nshl.b32 %r17, %r16, 2;\nsub.u32 %r18, 124, %r17;\nmov.u32 %r19, 0;\n"
            + "CLOOP:\nshl.b32 %r7, %r5, 3;\nadd.u32 %r8, %r2, %r7;\n"
            + "CW:\nmbarrier.try_wait.parity.shared::cta.b64 %p3, [%r8], %r6;\n@!%p3 bra CW;\n"
            + "shl.b32 %r12, %r5, 7;\nadd.u32 %r13, %r3, %r12;\nadd.u32 %r20, %r13, %r17;\nld.shared.u32 %r21, [%r20];\n"
            + "add.u32 %r22, %r13, %r18;\nld.shared.u32 %r23, [%r22];\nadd.u32 %r9, %r8, 16;\nmbarrier.arrive.shared::cta.b64 _, [%r9];\n"
            + "mad.lo.s32 %r19, %r21, 3, %r19;\nadd.u32 %r19, %r19, %r23;\n"
            + "add.u32 %r5, %r5, 1;\nsetp.eq.u32 %p5, %r5, 2;\nselp.u32 %r14, 1, 0, %p5;\n"
            + "xor.b32 %r6, %r6, %r14;\nselp.u32 %r5, 0, %r5, %p5;\nadd.u32 %r10, %r10, 1;\nsetp.lt.u32 %p6, %r10, 8;\n@%p6 bra CLOOP;\n"
            + "mul.wide.u32 %rd7, %r15, 4;\nadd.s64 %rd8, %rd4, %rd7;\nst.global.u32 [%rd8], %r19;\nret;";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 256, ScalarType.U32, "iota").buffer("out", 64);
    }

    /** out[c] of PIPELINE, computed directly: for each tile t, 3 * in[32t + c%32] + in[32t + 31 - c%32]. */
    private static long expected(int c) {
        long sum = 0;
        for (int t = 0; t < 8; t++) sum += 3L * (32 * t + c % 32) + (32 * t + 31 - c % 32);
        return sum & 0xFFFFFFFFL;
    }

    /** Every listener callback of a run, in order, and how it ended. */
    private static List<String> transcript(PtxRun k, boolean races) {
        LaunchedRun r = (races ? k : k.racy()).launch();
        List<String> log = new ArrayList<>();
        r.interpreter().addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                log.add("step " + step + " w" + warp + " pc" + pc + " " + group + "/" + active);
            }

            @Override
            public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
                log.add("sync " + step + " " + kind + " s" + slot + " " + object + " " + a + " " + b);
            }

            @Override
            public void statusChange(long step, int warp, int lanes, byte from, byte to) {
                log.add("status " + step + " w" + warp + " " + lanes + " " + from + ">" + to);
            }

            @Override
            public void timeJump(long step, long cycles) { log.add("jump " + step + " " + cycles); }
        });
        r.runToEnd();
        log.add("outcome " + outcome(r));
        for (Diagnostic d : r.interpreter().diagnostics()) log.add("diagnostic " + d.code().code() + " " + d.message());
        log.add("buffers " + r.buffers());
        log.add("mbarriers " + r.machine().mbarriers.all());
        return log;
    }

    private static void assertSameRunWithAndWithoutRaceDetection(PtxRun k, String what) {
        List<String> laneByLane = transcript(k, true);
        List<String> fast = transcript(k, false);
        assertEquals(laneByLane.size(), fast.size(), what + ": transcript lengths");
        for (int i = 0; i < fast.size(); i++) assertEquals(laneByLane.get(i), fast.get(i), what + ": entry " + i);
    }

    @Test
    void aBulkCopyPipelineRunsTheSameLaneByLaneAndWarpAtOnce() {
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 1; seed <= 3; seed++) {
                PtxRun k = kernel(PIPELINE).threads(96).policy(policy, seed);
                assertSameRunWithAndWithoutRaceDetection(k, policy + " " + seed);
                LaunchedRun r = k.racy().run();
                assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
                for (int c = 0; c < 64; c++) assertEquals(expected(c), u32(r, "out").get(c), "out[" + c + "]");
            }
        }
    }

    @Test
    void undefinedArrivalsAndWaitsAreReportedAtTheSameLane() {
        String init = "@%p1 mbarrier.init.shared::cta.b64 [%r2], COUNT;\nbar.sync 0;\n";
        List<String> bodies = List.of(
                // the 16th lane completes the phase, the 17th arrives in the next one before anyone observed it
                init.replace("COUNT", "16") + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nret;",
                // the whole warp arrives in phase 1 before anyone observed phase 0 complete
                init.replace("COUNT", "32") + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nret;",
                // a parity operand that is neither 0 nor 1
                init.replace("COUNT", "32") + "mov.u32 %r5, 2;\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\nret;",
                // a wait on an object nobody initialised
                "add.u32 %r4, %r2, 8;\nmov.u32 %r5, 0;\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], %r5;\nret;",
                // lanes on different objects: each goes its own way
                init.replace("COUNT", "16") + "and.b32 %r6, %r1, 1;\nshl.b32 %r6, %r6, 3;\nadd.u32 %r4, %r2, %r6;\n"
                        + "@%p1 add.u32 %r7, %r2, 8;\n@%p1 mbarrier.init.shared::cta.b64 [%r7], 16;\nbar.sync 0;\n"
                        + "mbarrier.arrive.shared::cta.b64 %rd9, [%r4];\nmov.u32 %r5, 0;\n"
                        + "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], %r5;\n@!%p2 bra W;\nret;");
        for (String body : bodies) {
            for (String policy : List.of("round-robin", "random")) {
                assertSameRunWithAndWithoutRaceDetection(kernel(body).threads(32).policy(policy, 4), body);
            }
        }
        LaunchedRun over = kernel(bodies.get(0)).threads(32).racy().run();
        assertEquals(List.of("mbarrier-phase-unobserved"), codes(over));
        assertTrue(over.interpreter().diagnostics().get(0).message().contains("thread (16,0,0)"), over.summary());
    }

    @Test
    void aBulkCopyThatCannotLandWholeFaultsWhereTheWordByWordCopyFaults() {
        String copy = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra DONE;\n"
                + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [DST], [SRC], 128, [%r2];\nDONE:\n"
                + "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W;\nret;";
        // over the valid mbarrier itself (the copy lands on bar[0..3]); from past the end of `in`; both fine
        String onBarrier = copy.replace("DST", "%r2").replace("SRC", "%rd2");
        String pastEnd = "add.s64 %rd2, %rd2, 1024;\n" + copy.replace("DST", "%r3").replace("SRC", "%rd2");
        String fine = copy.replace("DST", "%r3").replace("SRC", "%rd2");
        for (String body : List.of(onBarrier, pastEnd, fine)) assertSameRunWithAndWithoutRaceDetection(kernel(body).threads(32), body);
        assertEquals(List.of("mbarrier-clobbered"), codes(kernel(onBarrier).threads(32).racy().run()));
        assertEquals(List.of("memory-fault"), codes(kernel(pastEnd).threads(32).racy().run()));
    }

    /** Per object, the threads now suspended in a try_wait on it and parked on it, from the statuses. */
    private static void assertWaiterCounts(Machine m) {
        for (Mbarrier b : m.mbarriers.all()) {
            long key = MbarrierUnit.key(b.cta, b.offset);
            int suspended = 0;
            int parked = 0;
            for (int s = 0; s < m.slots; s++) {
                if (m.waitValue[s] != key) continue;
                if (m.status[s] == ThreadStatus.MBAR_WAIT) suspended++;
                if (m.status[s] == ThreadStatus.PARKED) parked++;
            }
            assertEquals(suspended, b.suspended, "suspended on " + b + " at step " + m.steps);
            assertEquals(parked, b.parked, "parked on " + b + " at step " + m.steps);
        }
    }

    @Test
    void waiterCountsFollowEverySuspensionParkingReleaseAndTimeout() {
        int[] seen = new int[2];
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 1; seed <= 4; seed++) {
                LaunchedRun r = kernel(PIPELINE).threads(96).policy(policy, seed).racy().launch();
                Interpreter x = r.interpreter();
                Machine m = r.machine();
                while (x.step()) {
                    assertWaiterCounts(m);
                    for (Mbarrier b : m.mbarriers.all()) {
                        seen[0] += b.suspended;
                        seen[1] += b.parked;
                    }
                }
                assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
            }
        }
        assertTrue(seen[0] > 0 && seen[1] > 0, "both suspended and parked waiters occurred: " + seen[0] + ", " + seen[1]);
        // a try_wait that times out (a short hint, an arrival that never comes) leaves no count behind
        LaunchedRun r = kernel("@%p1 mbarrier.init.shared::cta.b64 [%r2], 64;\nbar.sync 0;\nmov.u32 %r5, 0;\n"
                + "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5, 50;\nret;").threads(32).racy().launch();
        while (r.interpreter().step()) assertWaiterCounts(r.machine());
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(0, r.machine().mbarriers.at(0, 0).suspended);
    }

    @Test
    void restoringACheckpointForgetsCachedObjectsAndRetracesTheRun() {
        for (long seed = 1; seed <= 3; seed++) {
            LaunchedRun r = kernel(PIPELINE).threads(96).policy("random", seed).racy().launch();
            Interpreter x = r.interpreter();
            Checkpoint start = Checkpoint.take(x); // before any mbarrier exists
            Checkpoint waiting = null;
            int waitingAt = 0;
            // the state after every step() call (a time jump is a call without a warp step)
            List<Long> hashes = new ArrayList<>();
            while (x.step()) {
                hashes.add(StateHash.of(x));
                int waiters = 0;
                for (Mbarrier b : x.machine().mbarriers.all()) waiters += b.suspended + b.parked;
                if (waiting == null && waiters > 0 && x.machine().steps > 200) {
                    waiting = Checkpoint.take(x);
                    waitingAt = hashes.size();
                }
            }
            assertTrue(waiting != null, "a checkpoint with waiters was taken");
            Object buffers = r.buffers();
            for (Checkpoint cp : List.of(start, waiting, start)) {
                cp.restoreInto(x);
                if (cp == start) assertTrue(x.machine().mbarriers.all().isEmpty(), "objects touched later are gone");
                assertWaiterCounts(x.machine());
                int i = cp == start ? 0 : waitingAt;
                while (x.step()) {
                    assertEquals(hashes.get(i++), StateHash.of(x), "seed " + seed + " from step " + cp.step());
                    assertWaiterCounts(x.machine());
                }
                assertEquals(hashes.size(), i);
                assertEquals(Outcome.COMPLETED, outcome(r));
                assertEquals(buffers, r.buffers());
            }
        }
    }

    @Test
    void reinitialisingAtTheSameAddressAfterInvalStartsAFreshObject() {
        // Two lifetimes of bar[0], each: the whole warp arrives and waits for phase 0 (parity 0).
        String life = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\nbar.sync 0;\nmbarrier.arrive.shared::cta.b64 _, [%r2];\n"
                + "mov.u32 %r5, 0;\nW#:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W#;\nbar.sync 0;\n"
                + "@%p1 mbarrier.inval.shared::cta.b64 [%r2];\nbar.sync 0;\n";
        String body = life.replace("#", "1") + life.replace("#", "2") + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 7;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            PtxRun k = kernel(body).threads(32).policy(policy, 3);
            assertSameRunWithAndWithoutRaceDetection(k, policy);
            LaunchedRun r = k.racy().run();
            assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
            Mbarrier b = r.machine().mbarriers.at(0, 0);
            assertEquals(0, b.phase, "the last init starts at phase 0");
            assertEquals(7, b.pending);
            assertTrue(b.valid);
        }
    }
}
