package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;

import org.junit.jupiter.api.Test;

/**
 * The .sem, .scope, state-space and type lists of the mbarrier instructions (PTX ISA
 * 9.7.13.15.9-17), match.sync (9.7.13.10) and red.async (9.7.13.7): a qualifier outside its
 * instruction's list is refused at its line, never given a meaning.
 */
class SyncQualifierFormsTest {
    private static final String INIT = ".shared .align 8 .b64 bar;\nmov.u32 %r2, bar;\nmbarrier.init.shared::cta.b64 [%r2], 1;\n";

    @Test
    void mbarrierArriveTakesReleaseOrRelaxedAtCtaOrClusterScope() {
        // 9.7.13.15.13-14: ".sem = { .release, .relaxed }", ".scope = { .cta, .cluster }".
        assertRefusedAtLine("mbarrier.arrive.acquire.cta.shared::cta.b64 %rd1, [%r2];", ".acquire is not a .sem");
        assertRefusedAtLine("mbarrier.arrive_drop.acq_rel.cta.shared::cta.b64 %rd1, [%r2];", ".acq_rel is not a .sem");
        assertRefusedAtLine("mbarrier.arrive.release.gpu.shared::cta.b64 %rd1, [%r2];", ".gpu is not a .scope");
        assertRefusedAtLine("mbarrier.arrive_drop.relaxed.sys.shared::cta.b64 %rd1, [%r2];", ".sys is not a .scope");
        ExecKernel.of(INIT + "mbarrier.arrive.relaxed.cluster.shared::cta.b64 %rd1, [%r2];\n").ok();
    }

    @Test
    void mbarrierExpectTxAndCompleteTxAreRelaxedOnly() {
        // 9.7.13.15.11-12: ".sem = { .relaxed }".
        assertRefusedAtLine("mbarrier.expect_tx.release.cta.shared::cta.b64 [%r2], 8;", ".release is not a .sem");
        assertRefusedAtLine("mbarrier.complete_tx.release.cta.shared::cta.b64 [%r2], 8;", ".release is not a .sem");
        assertRefusedAtLine("mbarrier.complete_tx.relaxed.gpu.shared::cta.b64 [%r2], 8;", ".gpu is not a .scope");
        ExecKernel.of(INIT + "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%r2], 8;\n"
                + "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r2], 8;\n").ok();
    }

    @Test
    void mbarrierWaitsTakeAcquireOrRelaxedAtCtaOrClusterScope() {
        // 9.7.13.15.16: ".sem = { .acquire, .relaxed }", ".scope = { .cta, .cluster }".
        assertRefusedAtLine("mbarrier.test_wait.release.cta.shared::cta.b64 %p1, [%r2], %rd1;", ".release is not a .sem");
        assertRefusedAtLine("mbarrier.try_wait.parity.acquire.gpu.shared::cta.b64 %p1, [%r2], 0;", ".gpu is not a .scope");
        ExecKernel.of(INIT + "mbarrier.arrive.shared::cta.b64 %rd1, [%r2];\nmbarrier.test_wait.relaxed.cluster.shared::cta.b64 %p1, [%r2], %rd1;\n"
                + "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p2, [%r2], 0;\n").ok();
    }

    @Test
    void mbarrierInitInvalAndPendingCountTakeNoSemScopeOrForPendingCountStateSpace() {
        // 9.7.13.15.9, .10, .17: "mbarrier.init{.shared{::cta}}.b64 [addr], count;", "mbarrier.pending_count.b64 count, state;".
        assertRefusedAtLine("mbarrier.init.relaxed.cta.shared::cta.b64 [%r2], 1;", "it takes none");
        assertRefusedAtLine("mbarrier.inval.cta.shared::cta.b64 [%r2];", "it takes none");
        assertRefusedAtLine("mbarrier.pending_count.shared::cta.b64 %r3, %rd1;", "takes no state space");
    }

    @Test
    void mbarrierArriveWithBothNoCompleteAndExpectTxIsRefused() {
        // The .noComplete and .expect_tx forms of 9.7.13.15.13 and .14 are separate; none has both.
        assertRefusedAtLine("mbarrier.arrive.expect_tx.noComplete.shared::cta.b64 %rd1, [%r2], 1;", ".noComplete and .expect_tx");
        assertRefusedAtLine("mbarrier.arrive_drop.noComplete.expect_tx.shared::cta.b64 %rd1, [%r2], 1;", ".noComplete and .expect_tx");
    }

    @Test
    void matchSyncTakesB32OrB64AndAtMostOneSinkDestination() {
        // 9.7.13.10: ".type = { .b32, .b64 }"; "The sink symbol '_' may be used in place of any one of the destination operands."
        assertRefusedAtLine("match.all.sync.u32 %r2, %r1, 0xffffffff;", "match.sync takes .b32 or .b64");
        assertRefusedAtLine("match.any.sync.s64 %r2, %rd1, 0xffffffff;", "match.sync takes .b32 or .b64");
        assertRefusedAtLine("match.all.sync.b32 _|_, %r1, 0xffffffff;", "only one of the destinations");
        ExecKernel.of("mov.u32 %r1, 5;\nmatch.all.sync.b32 _|%p1, %r1, 1;\nmatch.all.sync.b32 %r2|_, %r1, 1;\n").ok();
    }

    @Test
    void redAsyncNeedsRelaxedClusterAndTheSharedClusterSpaceOrNone() {
        // 9.7.13.7: "red.async.sem.scope{.ss}..." with ".sem = { .relaxed }", ".scope = { .cluster }", ".ss = { .shared::cluster }".
        String tail = ".mbarrier::complete_tx::bytes.add.u32 [%r4], 1, [%r5];";
        assertRefusedAtLine("red.async.shared::cluster" + tail, "written red.async.relaxed.cluster");
        assertRefusedAtLine("red.async.relaxed.cta.shared::cluster" + tail, "written red.async.relaxed.cluster");
        assertRefusedAtLine("red.async.relaxed.cluster.shared::cta" + tail, "state space is .shared::cluster or none");
        assertRefusedAtLine("red.async.relaxed.cluster.shared" + tail, "state space is .shared::cluster or none");
    }

    @Test
    void voteWithoutSyncInAModuleWhoseVersionIsNotMajorDotMinorIsRefusedNotACrash() {
        // A .version the notes cannot read (here a hex number the parser takes) counts as recent, as for the version notes.
        BadInputException e = assertThrows(BadInputException.class,
                () -> ExecKernel.of("vote.all.pred %p1, %p2;\n").version("0x40").launch());
        assertTrue(e.getMessage().contains("not supported from PTX ISA 6.4 for .target sm_70 or higher"), e.getMessage());
    }

    @Test
    void voteWithoutSyncIsRefusedSayingWhetherTheIsaRemovedItOrTheEngineDoesNotModelIt() {
        // 9.7.13.8: "Not supported in PTX ISA version 6.4 for .target sm_70 or higher"; older targets keep the deprecated form,
        // whose lockstep "active threads" the engine (independent thread scheduling only) does not model.
        assertRefusedAtLine("vote.all.pred %p1, %p2;", "not supported from PTX ISA 6.4 for .target sm_70 or higher");
        BadInputException e = assertThrows(BadInputException.class,
                () -> ExecKernel.of("vote.all.pred %p1, %p2;\n").version("6.0").target("sm_60").launch());
        assertTrue(e.getMessage().contains("deprecated form without .sync is not modelled"), e.getMessage());
        assertRefusedAtLine("match.any.b32 %r1, %r2, 1;", "match has no form without .sync");
    }

    @Test
    void stAsyncTakesOnlyWeakClusterTheSharedClusterSpaceAndThirtyTwoOrSixtyFourBitTypes() {
        // 9.7.9.12: "st.async{.sem}{.scope}{.ss}{.completion_mechanism}{.vec}.type", .sem = { .weak }, .scope = { .cluster },
        // .ss = { .shared::cluster }, .type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 }.
        String tail = ".shared::cluster.mbarrier::complete_tx::bytes.u32 [%r4], %r1, [%r5];";
        assertRefusedAtLine("st.async.relaxed.cluster" + tail, ".relaxed is not a qualifier of st.async");
        assertRefusedAtLine("st.async.acquire.cluster" + tail, ".acquire is not a qualifier of st.async");
        assertRefusedAtLine("st.async.weak.cta" + tail, ".cta is not a qualifier of st.async");
        assertRefusedAtLine("st.async.shared::cta.mbarrier::complete_tx::bytes.u32 [%r4], %r1, [%r5];", ".shared::cluster or none");
        assertRefusedAtLine("st.async.shared::cluster.mbarrier::complete_tx::bytes.b16 [%r4], %h1, [%r5];", "not .b16");
        assertRefusedAtLine("st.async.shared::cluster.mbarrier::complete_tx::bytes.u8 [%r4], %h1, [%r5];", "not .u8");
        // The .weak .cluster form loads (it reports its peer at run time).
        ExecKernel.of("mov.u32 %r4, 0;\nmov.u32 %r5, 8;\nsetp.ne.u32 %p15, %r4, %r4;\n@%p15 st.async.weak.cluster" + tail + "\n").ok();
    }

    @Test
    void cpAsyncMbarrierArriveIsSharedCtaOrGenericAndB64Only() {
        // 9.7.13.15.8: "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr];"
        assertRefusedAtLine("cp.async.mbarrier.arrive.noinc.shared::cluster.b64 [%r2];", "{.shared{::cta}}.b64");
        assertRefusedAtLine("cp.async.mbarrier.arrive.shared::cta.b32 [%r2];", "{.shared{::cta}}.b64");
        assertRefusedAtLine("cp.async.mbarrier.arrive.noinc.shared::cta [%r2];", "{.shared{::cta}}.b64");
        ExecKernel.of(INIT + "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r2];\n").ok();
    }
}
