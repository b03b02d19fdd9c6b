package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.ptx.PtxException;
import org.junit.jupiter.api.Test;

/**
 * What the engine does not execute is refused at load with a located message, never run as a
 * silent no-op (semantics.md section 10).
 */
class UnsupportedInstructionTest {
    private static final String SHARED = ".shared .align 8 .b64 bar0;";

    private static BadInputException refuse(String body) {
        return assertThrows(BadInputException.class, () -> ExecKernel.of(body).header(SHARED).launch());
    }

    /** 1-based line of the first line of the kernel's PTX equal to {@code text}. */
    private static int lineOf(String body, String text) {
        String[] lines = ExecKernel.of(body).header(SHARED).ptx().split("\n", -1);
        for (int i = 0; i < lines.length; i++) if (lines[i].trim().equals(text)) return i + 1;
        throw new AssertionError(text);
    }

    private static void assertLocated(BadInputException e, int line) {
        assertTrue(e.getCause() instanceof PtxException, "cause: " + e.getCause());
        assertEquals(line, ((PtxException) e.getCause()).pos().line(), e.getMessage());
        assertTrue(e.getMessage().contains(":" + line + ":"), "file:line:col in " + e.getMessage());
    }

    @Test
    void anMbarrierArriveWithSemButNoScopeOrScopeButNoSemIsRefusedWithItsLocation() {
        // "Qualifiers .sem and .scope must be specified together." (PTX ISA 9.7.13.15.13)
        for (String insn : new String[] {"mbarrier.arrive.release.shared::cta.b64 %rd1, [%r1];",
                "mbarrier.arrive.cta.shared::cta.b64 %rd1, [%r1];", "mbarrier.arrive.expect_tx.relaxed.shared::cta.b64 %rd1, [%r1], 16;",
                "mbarrier.arrive.expect_tx.cluster.shared::cluster.b64 _, [%r1], 16;"}) {
            String body = "mov.u32 %r1, bar0;\n" + insn;
            BadInputException e = refuse(body);
            assertTrue(e.getMessage().contains(".sem and .scope must be specified together"), e.getMessage());
            assertLocated(e, lineOf(body, insn));
        }
        // Both, or neither: accepted.
        ExecKernel.of("mov.u32 %r1, bar0;\nmbarrier.init.shared::cta.b64 [%r1], 1;\nmbarrier.arrive.release.cta.shared::cta.b64 %rd1, [%r1];\n")
                .header(SHARED).ok();
    }

    @Test
    void aWaitOnASharedClusterMbarrierIsRefusedWithItsLocation() {
        String insn = "mbarrier.try_wait.parity.shared::cluster.b64 %p1, [%r1], %r2;";
        String body = "mov.u32 %r1, 1;\n" + insn;
        BadInputException e = refuse(body);
        assertTrue(e.getMessage().contains("only arrive, expect_tx and complete_tx take .shared::cluster"), e.getMessage());
        assertLocated(e, lineOf(body, insn));
    }

    @Test
    void anIm2colTensorCopyWhoseOffsetsDoNotMatchItsSpatialDimensionsIsRefusedWithItsLocation() {
        // A 4-d (NHWC) copy takes 2 im2col offsets, W and H (PTX ISA 5.5.4.1).
        String insn = "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3, %r4}], [bar0], {%h1};";
        BadInputException e = refuse(insn);
        assertTrue(e.getMessage().contains("is 4-d, so it takes 2 im2col offsets (one per spatial dimension), not 1"), e.getMessage());
        assertLocated(e, lineOf(insn, insn));
    }

    @Test
    void anIm2colCopyOfFewerThanThreeDimensionsAndTheWModesAreRefused() {
        BadInputException e = refuse("cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2}], [bar0], {%h1};");
        assertTrue(e.getMessage().contains("im2col mode needs a 3d, 4d or 5d tensor"), e.getMessage());
        e = refuse("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3}], [bar0], {%h1, %h2};");
        assertTrue(e.getMessage().contains("tensor copy mode .im2col::w is not modelled"), e.getMessage());
    }

    @Test
    void wideIm2colGather4Scatter4AndCtaGroupTensorModesAreRefusedNamingSm100a() {
        String[] bad = {
            "cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3}], [bar0], {%h1, %h2};",
            "cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3, %r4}], [bar0], {%h1, %h2};",
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3, %r4, %r5}], [bar0];",
            "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd40, {%r1, %r2, %r3, %r4, %r5}], [bar0];",
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::1 [bar0], [%rd40, {%r1, %r2}], [bar0];",
            "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col::w [%rd40, {%r1, %r2, %r3}], {%h1, %h2};",
            "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [%rd40, {%r1, %r2, %r3, %r4, %r5}];"};
        for (String insn : bad) {
            BadInputException e = refuse(insn);
            String mode = insn.contains("::w::128") ? ".im2col::w::128" : insn.contains("::w") ? ".im2col::w"
                    : insn.contains("gather4") ? ".tile::gather4" : insn.contains("scatter4") ? ".tile::scatter4" : ".cta_group::1";
            assertTrue(e.getMessage().contains("unsupported instruction " + insn.substring(0, insn.indexOf(' '))), e.getMessage());
            assertTrue(e.getMessage().contains(mode + " is not modelled: the ISA lists it for target sm_100a"), e.getMessage());
        }
    }

    @Test
    void anIm2colTensorPrefetchTakesOneOffsetPerSpatialDimension() {
        BadInputException e = refuse("cp.async.bulk.prefetch.tensor.5d.L2.global.im2col [%rd40, {%r1, %r2, %r3, %r4, %r5}], {%h1, %h2};");
        assertTrue(e.getMessage().contains("is 5-d, so it takes 3 im2col offsets"), e.getMessage());
    }

    @Test
    void halfPrecisionSqrtAndRcpAreNotInTheIsaAndAreRefusedNamingTheForm() {
        // PTX ISA 9.7.3.x: sqrt and rcp take .f32 and .f64 only; half precision has ex2.approx and tanh.approx, not these.
        for (String insn : new String[] {"sqrt.approx.f16 %h1, %h2;", "rcp.approx.ftz.f16 %h1, %h2;", "sqrt.approx.bf16 %h1, %h2;",
                "rcp.approx.bf16 %h1, %h2;", "sqrt.rn.f16 %h1, %h2;"}) {
            BadInputException e = refuse(insn);
            String form = insn.substring(0, insn.indexOf(' '));
            assertTrue(e.getMessage().contains(form), insn + ": " + e.getMessage());
            assertLocated(e, lineOf(insn, insn));
        }
    }

    @Test
    void nonSyncWarpVoteIsRefused() {
        BadInputException e = refuse("setp.eq.u32 %p1, 1, 1;\nvote.all.pred %p2, %p1;");
        assertTrue(e.getMessage().contains("unsupported instruction vote.all.pred"), e.getMessage());
    }

    @Test
    void reduxOnF32IsRefused() {
        BadInputException e = refuse("redux.sync.min.f32 %f1, %f2, -1;");
        assertTrue(e.getMessage().contains("unsupported instruction redux.sync.min.f32"), e.getMessage());
    }

    @Test
    void aMisspeltModifierIsAnErrorNamingIt() {
        String insn = "mbarrier.ival.shared::cta.b64 [bar0];";
        BadInputException e = refuse(insn);
        assertTrue(e.getMessage().contains("'.ival'"), e.getMessage());
        assertLocated(e, lineOf(insn, insn));
    }

    @Test
    void aBarrierWithoutSyncArriveOrRedIsRefusedWithItsLocation() {
        // PTX ISA 9.7.13.1 has no bare form: "bar 0" is not a spelling of bar.sync.
        for (String insn : new String[] {"bar 0;", "barrier.cta.aligned 0;"}) {
            String body = "mov.u32 %r1, 1;\n" + insn;
            BadInputException e = refuse(body);
            assertTrue(e.getMessage().contains("needs one of .sync, .arrive or .red"), e.getMessage());
            assertLocated(e, lineOf(body, insn));
        }
    }

    @Test
    void aMisspeltArithmeticModifierIsAnError() {
        BadInputException e = refuse("add.sta.s32 %r1, %r2, %r3;");
        assertTrue(e.getMessage().contains("'.sta'"), e.getMessage());
    }

    @Test
    void anIm2colTensorReductionOfFewerThanThreeDimensionsOrALoadInNoOffsetsModeIsRefused() {
        // (cp.async.bulk.prefetch and the 3d-5d im2col_no_offs reductions, refused here before, run now: docs/semantics.md section 14.)
        BadInputException e = refuse("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd40, {%r1, %r1}], [%r1];");
        assertTrue(e.getMessage().contains("im2col mode needs a 3d, 4d or 5d tensor"), e.getMessage());
        e = refuse("cp.async.bulk.tensor.3d.shared::cluster.global.im2col_no_offs.mbarrier::complete_tx::bytes [bar0], [%rd40, {%r1, %r2, %r3}], [bar0];");
        assertTrue(e.getMessage().contains(".im2col_no_offs is a mode of tensor copies to global memory"), e.getMessage());
    }

    @Test
    void cvtReluToF32IsRefusedRatherThanIgnored() {
        BadInputException e = refuse("cvt.rn.relu.f32.f64 %f1, %fd1;");
        assertTrue(e.getMessage().contains("unsupported instruction cvt.rn.relu.f32.f64"), e.getMessage());
    }
}
