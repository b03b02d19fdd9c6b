package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * One test per warp-level synchronization rule of semantics.md section 4 (PTX ISA 9.7.13.2 and
 * 9.7.13.9-14, shfl.sync 9.7.9.x). Expected values are computed here from the ISA's and CUDA's
 * definitions, never read back from the engine.
 */
class WarpSyncRulesTest {
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<8>;\n";
    /** %r1 = tid.x, %r2 = laneid, %rd3 = &out[tid * 4] (four u32 result slots per thread). */
    private static final String PRE = REGS + "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\n"
            + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd2, %r1, 16;\n"
            + "add.s64 %rd3, %rd1, %rd2;\n";
    private static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");

    private static String st(int slot, String reg) { return "st.global.u32 [%rd3+" + (4 * slot) + "], " + reg + ";\n"; }

    /** Stores predicate {@code p} as 0/1 into {@code slot}. */
    private static String stp(int slot, String p) { return "selp.u32 %r30, 1, 0, " + p + ";\n" + st(slot, "%r30"); }

    private static LaunchedRun run(String body, int threads) { return run(body, threads, "round-robin", 0); }

    private static LaunchedRun run(String body, int threads, String policy, long seed) {
        return PtxRun.kernel(PRE + body).header(".shared .align 4 .b8 sm[4096];").buffer("out", 4 * threads)
                .threads(threads).policy(policy, seed).run();
    }

    /** As run, without race detection: both warps use the same sm slots, a race on purpose between warps. */
    private static LaunchedRun racyRun(String body, int threads, String policy, long seed) {
        return PtxRun.kernel(PRE + body).header(".shared .align 4 .b8 sm[4096];").buffer("out", 4 * threads)
                .threads(threads).policy(policy, seed).racy().run();
    }

    private static long slot(LaunchedRun r, int thread, int slot) { return u32(r, "out").get(thread * 4 + slot); }

    private static void assertCompleted(LaunchedRun r) {
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r), r.summary());
    }

    // ---------------------------------------------------------------- bar.warp.sync

    /** Lanes write sm[lane] = 3*lane + 1, sync, read sm[lane ^ 16]. */
    private static final String EXCHANGE_AFTER = "bar.warp.sync 0xffffffff;\nbra.uni JOIN;\n";

    @Test
    void barWarpSyncInDifferentBranchesCompletesAndOrdersSharedMemory() {
        // sm_70+: the two halves sync at two different bar.warp.sync instructions; that is legal.
        String body = "mov.u32 %r3, sm;\nshl.b32 %r4, %r2, 2;\nadd.u32 %r5, %r3, %r4;\nmad.lo.u32 %r6, %r2, 3, 1;\n"
                + "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra LOW;\n"
                + "st.shared.u32 [%r5], %r6;\n" + EXCHANGE_AFTER
                + "LOW:\nadd.u32 %r7, %r2, 0;\nst.shared.u32 [%r5], %r6;\n" + EXCHANGE_AFTER
                + "JOIN:\nxor.b32 %r8, %r2, 16;\nshl.b32 %r8, %r8, 2;\nadd.u32 %r8, %r3, %r8;\nld.shared.u32 %r9, [%r8];\n"
                + st(0, "%r9") + "ret;";
        for (String policy : POLICIES) {
            for (long seed = 0; seed < 4; seed++) {
                LaunchedRun r = racyRun(body, 64, policy, seed);
                assertCompleted(r);
                for (int t = 0; t < 64; t++) assertEquals(3L * ((t % 32) ^ 16) + 1, slot(r, t, 0), policy + " " + seed + " t" + t);
            }
        }
    }

    @Test
    void barWarpSyncWaitsForTheSlowestMember() {
        // Lane 31 loops 40 times before writing its slot; every lane reads lane 31's slot after the sync.
        String body = "mov.u32 %r3, sm;\nsetp.ne.u32 %p1, %r2, 31;\n@%p1 bra SYNC;\nmov.u32 %r4, 0;\n"
                + "LOOP:\nadd.u32 %r4, %r4, 1;\nsetp.lt.u32 %p2, %r4, 40;\n@%p2 bra LOOP;\nst.shared.u32 [%r3], %r4;\n"
                + "SYNC:\nbar.warp.sync -1;\nld.shared.u32 %r9, [%r3];\n" + st(0, "%r9") + "ret;";
        for (String policy : POLICIES) {
            LaunchedRun r = run(body, 32, policy, 7);
            assertCompleted(r);
            for (int t = 0; t < 32; t++) assertEquals(40L, slot(r, t, 0), policy + " t" + t);
        }
    }

    @Test
    void aMemberThatNeverArrivesDeadlocksAndIsNamed() {
        // Lanes 16-31 wait at a CTA barrier that needs warp 0's lanes 0-15, which wait at bar.warp.sync for them.
        String body = "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra W;\nbar.sync 0;\nbra.uni DONE;\nW:\nbar.warp.sync -1;\nDONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.deadlockText().contains("warp .sync"), r.deadlockText());
    }

    @Test
    void disjointMasksSyncIndependently() {
        String body = "setp.lt.u32 %p1, %r2, 16;\nselp.b32 %r3, 0x0000ffff, 0xffff0000, %p1;\nbar.warp.sync %r3;\n"
                + "vote.sync.ballot.b32 %r4, %p1, %r3;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        // "A thread not specified in membermask will contribute a 0 for its entry in vote.sync.ballot.b32"
        for (int t = 0; t < 32; t++) assertEquals(t < 16 ? 0x0000FFFFL : 0L, slot(r, t, 0), "t" + t);
    }

    @Test
    void executingThreadOutsideItsMembermaskIsReported() {
        String body = "bar.warp.sync 0xffffffdf;\nret;"; // lane 5 is not in the mask
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.DIAGNOSED, outcome(r));
        assertEquals(List.of("warp-sync-not-member"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("lane 5"), r.summary());
    }

    @Test
    void barWarpSyncNamingAnExitedLaneIsReportedNotWaitedOnForever() {
        String body = "setp.ge.u32 %p1, %r2, 16;\n@%p1 exit;\nbar.warp.sync -1;\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of("warp-sync-exited-member"), codes(r));
    }

    @Test
    void barWarpSyncReachedBeforeTheOtherLanesExitIsStillReported() {
        // Lanes 0-15 wait first; lanes 16-31 then exit: the exit must trigger the report, not a deadlock.
        String body = "setp.ge.u32 %p1, %r2, 16;\n@%p1 bra SLOW;\nbar.warp.sync -1;\nret;\n"
                + "SLOW:\nmov.u32 %r4, 0;\nLOOP:\nadd.u32 %r4, %r4, 1;\nsetp.lt.u32 %p2, %r4, 20;\n@%p2 bra LOOP;\nexit;";
        LaunchedRun r = run(body, 32);
        assertEquals(List.of("warp-sync-exited-member"), codes(r), r.summary());
    }

    @Test
    void partialWarpFullMaskSyncCompletesOverTheExistingLanes() {
        // blockDim 48: warp 1 has lanes 0-15 only; lanes 16-31 do not exist and are not "exited members".
        String body = "bar.warp.sync -1;\nsetp.ne.u32 %p1, %r2, 3;\nvote.sync.ballot.b32 %r4, %p1, -1;\n"
                + "bar.warp.sync 0xffffffff;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 48);
        assertCompleted(r);
        for (int t = 0; t < 48; t++) assertEquals(t < 32 ? 0xFFFFFFF7L : 0x0000FFF7L, slot(r, t, 0), "t" + t);
    }

    @Test
    void membersMeetingAtDifferentKindsAreAMismatch() {
        String body = "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra A;\nvote.sync.ballot.b32 %r4, %p1, -1;\nbra.uni DONE;\n"
                + "A:\nshfl.sync.idx.b32 %r4, %r2, 0, 0x1f, -1;\nDONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(List.of("warp-sync-mismatch"), codes(r), r.summary());
        assertEquals(2, r.interpreter().diagnostics().get(0).ptxLocations().size());
    }

    @Test
    void voteWithDifferentModesIsAMismatch() {
        // "the same qualifiers": .all and .any on one mask do not meet.
        String body = "setp.lt.u32 %p1, %r2, 16;\n@%p1 bra A;\nvote.sync.all.pred %p2, %p1, -1;\nbra.uni DONE;\n"
                + "A:\nvote.sync.any.pred %p2, %p1, -1;\nDONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(List.of("warp-sync-mismatch"), codes(r), r.summary());
    }

    // ---------------------------------------------------------------- shfl.sync

    /** Runs one shfl.sync with a = 100 + 3*lane and stores d and p; b and c are PTX operand texts. */
    private static LaunchedRun shfl(String mode, String b, String c, String mask) {
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nshfl.sync." + mode + ".b32 %r4|%p3, %r3, " + b + ", " + c + ", " + mask
                + ";\n" + st(0, "%r4") + stp(1, "%p3") + "ret;";
        return run(body, 32);
    }

    private static long a(int lane) { return 100 + 3L * lane; }

    /** Checks d and p against CUDA's definition: src(lane) or -1 for "out of range, own value, p false". */
    private static void assertShfl(LaunchedRun r, IntUnaryOperator src) {
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            int j = src.applyAsInt(l);
            assertEquals(j < 0 ? a(l) : a(j), slot(r, l, 0), "value of lane " + l);
            assertEquals(j < 0 ? 0L : 1L, slot(r, l, 1), "predicate of lane " + l);
        }
    }

    @Test
    void shflUpWholeWarp() {
        assertShfl(shfl("up", "2", "0", "-1"), l -> l - 2 >= 0 ? l - 2 : -1);
    }

    @Test
    void shflDownWholeWarp() {
        assertShfl(shfl("down", "5", "0x1f", "-1"), l -> l + 5 <= 31 ? l + 5 : -1);
    }

    @Test
    void shflBflyWholeWarp() {
        assertShfl(shfl("bfly", "6", "0x1f", "-1"), l -> l ^ 6);
    }

    @Test
    void shflIdxWholeWarp() {
        assertShfl(shfl("idx", "9", "0x1f", "-1"), l -> 9);
    }

    // CUDA: c = ((32 - width) << 8) for up, ((32 - width) << 8) | 0x1f otherwise; width 16 -> 0x1000 / 0x101f.
    @Test
    void shflUpWithinWidth16Segments() {
        assertShfl(shfl("up", "3", "0x1000", "-1"), l -> l % 16 - 3 >= 0 ? l - 3 : -1);
    }

    @Test
    void shflDownWithinWidth16Segments() {
        assertShfl(shfl("down", "3", "0x101f", "-1"), l -> l % 16 + 3 < 16 ? l + 3 : -1);
    }

    @Test
    void shflIdxWithinWidth8Segments() {
        // __shfl_sync(mask, v, 5, 8): each lane reads lane 5 of its own 8-lane segment; c = (24 << 8) | 0x1f.
        assertShfl(shfl("idx", "13", "0x181f", "-1"), l -> (l / 8) * 8 + 13 % 8);
    }

    @Test
    void shflBflyWithinWidth16SegmentsMayReadEarlierButNotLaterSegments() {
        // lane ^ 17 moves to the other segment: allowed downward (j <= maxLane), own value upward.
        assertShfl(shfl("bfly", "17", "0x101f", "-1"), l -> (l ^ 17) <= (l / 16) * 16 + 15 ? l ^ 17 : -1);
    }

    @Test
    void shflIdxWithPerLaneSourceRegister() {
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nmul.lo.u32 %r5, %r2, 7;\nrem.u32 %r5, %r5, 32;\n"
                + "shfl.sync.idx.b32 %r4, %r3, %r5, 0x1f, -1;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) assertEquals(a(l * 7 % 32), slot(r, l, 0), "lane " + l);
    }

    @Test
    void shflUsesOnlyTheLowFiveBitsOfTheLaneOperand() {
        // ISA: bval[4:0] = b[4:0], so b = 33 behaves as b = 1.
        assertShfl(shfl("bfly", "33", "0x1f", "-1"), l -> l ^ 1);
        assertShfl(shfl("down", "33", "0x1f", "-1"), l -> l + 1 <= 31 ? l + 1 : -1);
        assertShfl(shfl("up", "34", "0", "-1"), l -> l >= 2 ? l - 2 : -1);
    }

    @Test
    void shflWithHalfWarpMasksStaysWithinEachHalf() {
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nsetp.lt.u32 %p1, %r2, 16;\nselp.b32 %r5, 0xffff, 0xffff0000, %p1;\n"
                + "shfl.sync.bfly.b32 %r4, %r3, 1, 0x1f, %r5;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) assertEquals(a(l ^ 1), slot(r, l, 0), "lane " + l);
    }

    @Test
    void shflAtTwoInstructionsInDivergentBranchesExchangesAcrossThem() {
        // Lanes 0-15 shuffle %r3 (= 100 + 3*lane) at one instruction; lanes 16-31 take a detour and shuffle %r6
        // (= 1000 + lane) at another. bfly 16 pairs lane l with l ^ 16: each reads the other's own source operand.
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nadd.u32 %r6, %r2, 1000;\nsetp.lt.u32 %p1, %r2, 16;\n@%p1 bra LOW;\n"
                + "mov.u32 %r7, 0;\nLOOP:\nadd.u32 %r7, %r7, 1;\nsetp.lt.u32 %p2, %r7, 5;\n@%p2 bra LOOP;\n"
                + "shfl.sync.bfly.b32 %r4, %r6, 16, 0x1f, -1;\nbra.uni J;\n"
                + "LOW:\nshfl.sync.bfly.b32 %r4, %r3, 16, 0x1f, -1;\nJ:\n" + st(0, "%r4") + "ret;";
        for (String policy : POLICIES) {
            LaunchedRun r = run(body, 32, policy, 11);
            assertCompleted(r);
            for (int l = 0; l < 32; l++) assertEquals(l < 16 ? 1000L + (l ^ 16) : a(l ^ 16), slot(r, l, 0), policy + " lane " + l);
        }
    }

    @Test
    void shflReadingALaneOutsideTheMembermaskIsReported() {
        // Only lanes 0-15 take part (mask 0xffff); idx 20 reads a lane that is not a member.
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nsetp.ge.u32 %p1, %r2, 16;\n@%p1 bra DONE;\n"
                + "shfl.sync.idx.b32 %r4, %r3, 20, 0x1f, 0xffff;\nDONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.DIAGNOSED, outcome(r));
        assertEquals(List.of("shfl-inactive-source"), codes(r));
    }

    @Test
    void shflReadingAnExitedLaneIsReported() {
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nsetp.ge.u32 %p1, %r2, 16;\n@%p1 exit;\n"
                + "shfl.sync.down.b32 %r4, %r3, 8, 0x1f, -1;\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(List.of("shfl-inactive-source"), codes(r), r.summary());
    }

    @Test
    void shflWhoseOutOfRangeSourceFallsBackToItselfNeedsNoOtherLane() {
        // Lanes 16-31 exited; shfl.down by 8 with width-16 segments never leaves lanes 0-15: fine.
        String body = "mad.lo.u32 %r3, %r2, 3, 100;\nsetp.ge.u32 %p1, %r2, 16;\n@%p1 exit;\n"
                + "shfl.sync.down.b32 %r4, %r3, 8, 0x101f, 0xffff;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int l = 0; l < 16; l++) assertEquals(l + 8 < 16 ? a(l + 8) : a(l), slot(r, l, 0));
    }

    // ---------------------------------------------------------------- vote.sync

    @Test
    void voteModesAndNegatedPredicate() {
        // p = lane < 16; q = true everywhere.
        String body = "setp.lt.u32 %p1, %r2, 16;\nsetp.eq.u32 %p2, %r2, %r2;\n"
                + "vote.sync.all.pred %p3, %p1, -1;\n" + stp(0, "%p3")
                + "vote.sync.any.pred %p3, !%p1, -1;\n" + stp(1, "%p3")
                + "vote.sync.uni.pred %p3, %p1, -1;\nvote.sync.uni.pred %p4, !%p2, -1;\nvote.sync.all.pred %p5, %p2, -1;\n"
                + "vote.sync.any.pred %p6, !%p2, -1;\n"
                + "selp.u32 %r10, 1, 0, %p3;\nselp.u32 %r11, 2, 0, %p4;\nselp.u32 %r12, 4, 0, %p5;\nselp.u32 %r13, 8, 0, %p6;\n"
                + "or.b32 %r10, %r10, %r11;\nor.b32 %r10, %r10, %r12;\nor.b32 %r10, %r10, %r13;\n" + st(2, "%r10") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            assertEquals(0L, slot(r, l, 0), "all(lane<16) is false");
            assertEquals(1L, slot(r, l, 1), "any(!(lane<16)) is true");
            // uni(p) false, uni(!q) true, all(q) true, any(!q) false
            assertEquals(0 | 2 | 4 | 0, slot(r, l, 2), "lane " + l);
        }
    }

    @Test
    void voteBallotCopiesEachMembersPredicateAndItsNegation() {
        String body = "and.b32 %r5, %r2, 5;\nsetp.eq.u32 %p1, %r5, 1;\nvote.sync.ballot.b32 %r4, %p1, -1;\n"
                + "vote.sync.ballot.b32 %r6, !%p1, -1;\n" + st(0, "%r4") + st(1, "%r6") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        long expect = 0;
        for (int l = 0; l < 32; l++) if ((l & 5) == 1) expect |= 1L << l;
        for (int l = 0; l < 32; l++) {
            assertEquals(expect, slot(r, l, 0));
            assertEquals(~expect & 0xFFFFFFFFL, slot(r, l, 1));
        }
    }

    @Test
    void voteCountsOnlyNonExitedMembersAndIsNotAnExitedMemberError() {
        // Lanes 24-31 exit; the full-mask vote over the remaining lanes, all with p true.
        String body = "setp.ge.u32 %p1, %r2, 24;\n@%p1 exit;\nsetp.lt.u32 %p2, %r2, 24;\n"
                + "vote.sync.all.pred %p3, %p2, -1;\nvote.sync.ballot.b32 %r4, %p2, -1;\nvote.sync.uni.pred %p4, %p2, -1;\n"
                + stp(0, "%p3") + st(1, "%r4") + stp(2, "%p4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 24; l++) {
            assertEquals(1L, slot(r, l, 0));
            assertEquals(0x00FFFFFFL, slot(r, l, 1));
            assertEquals(1L, slot(r, l, 2));
        }
    }

    @Test
    void voteCompletesWhenTheLastMissingMemberExits() {
        // Lanes 0-15 wait in vote.sync first; lanes 16-31 loop, then exit: their exit releases the vote.
        String body = "setp.ge.u32 %p1, %r2, 16;\n@%p1 bra SLOW;\nvote.sync.ballot.b32 %r4, %p1, -1;\n" + st(0, "%r4")
                + "ret;\nSLOW:\nmov.u32 %r4, 0;\nLOOP:\nadd.u32 %r4, %r4, 1;\nsetp.lt.u32 %p2, %r4, 20;\n@%p2 bra LOOP;\nexit;";
        for (String policy : POLICIES) {
            LaunchedRun r = run(body, 32, policy, 5);
            assertCompleted(r);
            for (int l = 0; l < 16; l++) assertEquals(0L, slot(r, l, 0));
        }
    }

    // ---------------------------------------------------------------- match.sync

    @Test
    void matchAnyB32GroupsLanesWithEqualValues() {
        String body = "rem.u32 %r3, %r2, 3;\nmatch.any.sync.b32 %r4, %r3, -1;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            long e = 0;
            for (int o = 0; o < 32; o++) if (o % 3 == l % 3) e |= 1L << o;
            assertEquals(e, slot(r, l, 0), "lane " + l);
        }
    }

    @Test
    void matchAllB32SetsMaskAndPredicate() {
        String body = "mov.u32 %r3, 42;\nmatch.all.sync.b32 %r4|%p1, %r3, -1;\n" + st(0, "%r4") + stp(1, "%p1")
                + "setp.eq.u32 %p2, %r2, 7;\nselp.u32 %r5, 1, 42, %p2;\nmatch.all.sync.b32 %r6|%p3, %r5, -1;\n"
                + st(2, "%r6") + stp(3, "%p3") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            assertEquals(0xFFFFFFFFL, slot(r, l, 0));
            assertEquals(1L, slot(r, l, 1));
            assertEquals(0L, slot(r, l, 2));
            assertEquals(0L, slot(r, l, 3));
        }
    }

    @Test
    void matchB64ComparesAllSixtyFourBits() {
        // Values differ only in bit 40 (odd lanes): b64 sees two groups.
        String body = "and.b32 %r3, %r2, 1;\ncvt.u64.u32 %rd4, %r3;\nshl.b64 %rd4, %rd4, 40;\nor.b64 %rd4, %rd4, 5;\n"
                + "match.any.sync.b64 %r4, %rd4, -1;\nmatch.all.sync.b64 %r5|%p1, %rd4, -1;\n"
                + st(0, "%r4") + st(1, "%r5") + stp(2, "%p1") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            assertEquals((l & 1) == 1 ? 0xAAAAAAAAL : 0x55555555L, slot(r, l, 0), "lane " + l);
            assertEquals(0L, slot(r, l, 1));
            assertEquals(0L, slot(r, l, 2));
        }
    }

    @Test
    void matchAllOverNonExitedMembersReportsTheirMask() {
        String body = "setp.lt.u32 %p1, %r2, 4;\n@%p1 exit;\nmov.u32 %r3, 9;\nmatch.all.sync.b32 %r4|%p2, %r3, -1;\n"
                + st(0, "%r4") + stp(1, "%p2") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 4; l < 32; l++) {
            assertEquals(0xFFFFFFF0L, slot(r, l, 0));
            assertEquals(1L, slot(r, l, 1));
        }
    }

    // ---------------------------------------------------------------- redux.sync

    @Test
    void reduxAddTruncatesTo32Bits() {
        String body = "mul.lo.u32 %r3, %r2, 0x10000001;\nredux.sync.add.u32 %r4, %r3, -1;\nredux.sync.add.s32 %r5, %r3, -1;\n"
                + st(0, "%r4") + st(1, "%r5") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        long sum = 0;
        for (int l = 0; l < 32; l++) sum += (l * 0x10000001L) & 0xFFFFFFFFL;
        for (int l = 0; l < 32; l++) {
            assertEquals(sum & 0xFFFFFFFFL, slot(r, l, 0));
            assertEquals(sum & 0xFFFFFFFFL, slot(r, l, 1));
        }
    }

    @Test
    void reduxMinMaxDependOnSignedness() {
        // values lane - 16: signed -16..15; unsigned 0..15 and 0xfffffff0..0xffffffff.
        String body = "sub.s32 %r3, %r2, 16;\nredux.sync.min.s32 %r4, %r3, -1;\nredux.sync.max.s32 %r5, %r3, -1;\n"
                + "redux.sync.min.u32 %r6, %r3, -1;\nredux.sync.max.u32 %r7, %r3, -1;\n"
                + st(0, "%r4") + st(1, "%r5") + st(2, "%r6") + st(3, "%r7") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        int smin = Integer.MAX_VALUE;
        int smax = Integer.MIN_VALUE;
        int umin = -1;
        int umax = 0;
        for (int l = 0; l < 32; l++) {
            int v = l - 16;
            smin = Math.min(smin, v);
            smax = Math.max(smax, v);
            if (Integer.compareUnsigned(v, umin) < 0) umin = v;
            if (Integer.compareUnsigned(v, umax) > 0) umax = v;
        }
        assertEquals(smin & 0xFFFFFFFFL, slot(r, 0, 0));
        assertEquals(smax & 0xFFFFFFFFL, slot(r, 0, 1));
        assertEquals(umin & 0xFFFFFFFFL, slot(r, 0, 2));
        assertEquals(umax & 0xFFFFFFFFL, slot(r, 0, 3));
    }

    @Test
    void reduxBitwiseOperations() {
        String body = "mul.lo.u32 %r3, %r2, 0x9e3779b9;\nor.b32 %r3, %r3, 0x100;\nredux.sync.and.b32 %r4, %r3, -1;\n"
                + "redux.sync.or.b32 %r5, %r3, -1;\nredux.sync.xor.b32 %r6, %r3, -1;\n"
                + st(0, "%r4") + st(1, "%r5") + st(2, "%r6") + "ret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        int and = -1;
        int or = 0;
        int xor = 0;
        for (int l = 0; l < 32; l++) {
            int v = l * 0x9e3779b9 | 0x100;
            and &= v;
            or |= v;
            xor ^= v;
        }
        for (int l = 0; l < 32; l++) {
            assertEquals(and & 0xFFFFFFFFL, slot(r, l, 0));
            assertEquals(or & 0xFFFFFFFFL, slot(r, l, 1));
            assertEquals(xor & 0xFFFFFFFFL, slot(r, l, 2));
        }
    }

    @Test
    void reduxOverAPartialMaskUsesOnlyItsMembers() {
        // Lanes 0-7 reduce with mask 0xff; the others skip it.
        String body = "setp.ge.u32 %p1, %r2, 8;\n@%p1 bra DONE;\nadd.u32 %r3, %r2, 1;\nredux.sync.add.u32 %r4, %r3, 0xff;\n"
                + st(0, "%r4") + "DONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 8; l++) assertEquals(36L, slot(r, l, 0)); // 1 + 2 + ... + 8
    }

    // ---------------------------------------------------------------- elect.sync, activemask

    @Test
    void electChoosesTheLowestMemberLaneAndSetsPOnlyThere() {
        // Lanes with bit 2 set (mask 0xf0f0f0f0) elect; the others skip it.
        String body = "and.b32 %r5, %r2, 4;\nsetp.eq.u32 %p1, %r5, 0;\n@%p1 bra DONE;\n"
                + "elect.sync %r4|%p2, 0xf0f0f0f0;\n" + st(0, "%r4") + stp(1, "%p2") + "DONE:\nret;";
        LaunchedRun r = run(body, 32);
        assertCompleted(r);
        for (int l = 0; l < 32; l++) {
            if ((l & 4) == 0) continue;
            assertEquals(4L, slot(r, l, 0), "lane " + l);
            assertEquals(l == 4 ? 1L : 0L, slot(r, l, 1), "lane " + l);
        }
    }

    @Test
    void electSyncNamingAnExitedLaneIsReportedNotWaitedOnForever() {
        String body = "setp.ge.u32 %p1, %r2, 16;\n@%p1 exit;\nelect.sync %r4|%p2, -1;\nret;";
        LaunchedRun r = run(body, 32);
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of("warp-sync-exited-member"), codes(r));
    }

    @Test
    void electWithAWholeWarpAndTheSinkDestination() {
        String body = "elect.sync _|%p2, -1;\n" + stp(0, "%p2") + "ret;";
        LaunchedRun r = run(body, 64);
        assertCompleted(r);
        for (int t = 0; t < 64; t++) assertEquals(t % 32 == 0 ? 1L : 0L, slot(r, t, 0), "t" + t);
    }

    @Test
    void activemaskReturnsTheLanesExecutingTogether() {
        String body = "setp.lt.u32 %p1, %r2, 10;\n@%p1 bra A;\nadd.u32 %r5, %r2, 1;\nactivemask.b32 %r4;\nbra.uni J;\n"
                + "A:\nactivemask.b32 %r4;\nJ:\n" + st(0, "%r4")
                + "and.b32 %r6, %r2, 1;\nsetp.eq.u32 %p2, %r6, 1;\nmov.u32 %r7, 0;\n@%p2 activemask.b32 %r7;\n" + st(1, "%r7")
                + "ret;";
        for (String policy : POLICIES) {
            LaunchedRun r = run(body, 32, policy, 3);
            assertCompleted(r);
            for (int l = 0; l < 32; l++) {
                assertEquals(l < 10 ? 0x3FFL : 0xFFFFFC00L, slot(r, l, 0), policy + " lane " + l);
            }
        }
        // After reconvergence the predicated-off (even) lanes contribute 0 and keep their 0.
        // Only meaningful when the warp reconverged, which round-robin guarantees here.
        LaunchedRun r = run(body, 32);
        for (int l = 0; l < 32; l++) assertEquals((l & 1) == 1 ? 0xAAAAAAAAL : 0L, slot(r, l, 1), "lane " + l);
    }

    @Test
    void activemaskInAPartialWarpHasOnlyExistingLanes() {
        String body = "activemask.b32 %r4;\n" + st(0, "%r4") + "ret;";
        LaunchedRun r = run(body, 40);
        assertCompleted(r);
        assertEquals(0xFFFFFFFFL, slot(r, 0, 0));
        assertEquals(0xFFL, slot(r, 39, 0));
    }

    @Test
    void warpSyncInA2dBlockUsesLinearThreadIds() {
        // 8x8 block: warp 1 is rows 4-7; lanes are linear tid % 32.
        String body = "mov.u32 %r5, %tid.y;\nmov.u32 %r6, %ntid.x;\nmad.lo.u32 %r1, %r5, %r6, %r1;\nmul.wide.u32 %rd2, %r1, 16;\n"
                + "add.s64 %rd3, %rd1, %rd2;\nsetp.eq.u32 %p1, %r5, 5;\nvote.sync.ballot.b32 %r4, %p1, -1;\n" + st(0, "%r4")
                + "ret;";
        LaunchedRun r = PtxRun.kernel(PRE + body).buffer("out", 4 * 64).block(new Dim3(8, 8, 1)).run();
        assertCompleted(r);
        for (int t = 0; t < 64; t++) assertEquals(t < 32 ? 0L : 0xFF00L, u32(r, "out").get(t * 4), "t" + t);
    }
}
