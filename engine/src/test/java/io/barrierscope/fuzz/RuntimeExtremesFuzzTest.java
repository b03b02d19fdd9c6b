package io.barrierscope.fuzz;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * `runtime-extremes` (docs/reliability.md, the campaign of 2026-11-29 morning): PTX that parses and
 * then does unusual things at run time: an instruction of each family with an extreme operand (shifts
 * by the width and beyond, division and remainder by 0 and of the most negative value by -1, bit
 * fields past the word, NaN, infinities and huge values converted to integers and narrow floats,
 * loads, stores, atomics and vector loads at misaligned and far offsets, shared and local offsets out
 * of range, mbarrier counts, tx-counts and parities out of range, bulk copies of odd sizes, shuffles,
 * votes and barriers with odd masks, lanes and counts, copies kept in flight), each drawn from a
 * seeded {@link Random} and run on 64 threads with the race detector. Oracle: a run to an outcome
 * (completed, deadlock, diagnosed, step limit) or a located refusal, never another exception, within
 * the campaign's bound.
 */
class RuntimeExtremesFuzzTest {
    private static final String[] I32 = {"0", "1", "-1", "31", "32", "33", "64", "0x80000000", "0x7fffffff", "0xffffffff"};
    private static final String[] F32 = {"0f7FC00000", "0f7F800000", "0fFF800000", "0f00000001", "0f4F000000", "0fCF000001", "0f80000000"};

    /** One body per family, {@code %s} the extreme operand; each leaves a word in %r1. */
    private static final String[] INT_BODIES = {
        "mov.b32 %r2, 0x80000001;\nmov.b32 %r3, %s;\nshl.b32 %r1, %r2, %r3;",
        "mov.b32 %r2, 0x80000001;\nmov.b32 %r3, %s;\nshr.s32 %r1, %r2, %r3;",
        "mov.b32 %r2, 0x80000000;\nmov.b32 %r3, %s;\ndiv.s32 %r1, %r2, %r3;",
        "mov.b32 %r2, 0x80000000;\nmov.b32 %r3, %s;\nrem.u32 %r1, %r2, %r3;",
        "mov.b64 %rd5, 0x8000000000000000;\ncvt.s64.s32 %rd6, %s;\ndiv.s64 %rd7, %rd5, %rd6;\ncvt.u32.u64 %r1, %rd7;",
        "mov.b32 %r2, 0xdeadbeef;\nbfe.s32 %r1, %r2, %s, %s;",
        "mov.b32 %r2, 0xdeadbeef;\nbfi.b32 %r1, %r2, %r9, %s, %s;",
        "mov.b32 %r2, 0xdeadbeef;\nshf.r.clamp.b32 %r1, %r2, %r9, %s;",
        "fns.b32 %r1, 0xffffffff, %s, %s;",
        "shfl.sync.idx.b32 %r1, %r10, %s, 31, 0xffffffff;",
        "setp.eq.u32 %p1, %r10, 0;\nvote.sync.ballot.b32 %r1, %p1, %s;",
        "bar.sync 1, %s;\nmov.b32 %r1, 0;",
        "cvt.s64.s32 %rd3, %s;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r1, [%rd4];",
        "cvt.s64.s32 %rd3, %s;\nadd.s64 %rd4, %rd2, %rd3;\natom.global.cas.b64 %rd5, [%rd4], 0, 1;\ncvt.u32.u64 %r1, %rd5;",
        "cvt.s64.s32 %rd3, %s;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd4];",
        "cvt.u32.s32 %r3, %s;\nst.shared.u32 [%r3], %r9;\nmov.b32 %r1, 0;",
        "mov.b32 %r1, %s;\nmbarrier.init.shared::cta.b64 [mb], %r1;\nmbarrier.arrive.shared::cta.b64 %rd5, [mb];",
        "mbarrier.init.shared::cta.b64 [mb], 1;\nmbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], %s;\n"
                + "mbarrier.arrive.shared::cta.b64 %rd5, [mb];\nmov.b32 %r1, 0;",
        "mbarrier.init.shared::cta.b64 [mb], 1;\nmov.b32 %r3, %s;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sbuf], [%rd2], %r3, [mb];\n"
                + "mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [mb], %r3;\nmov.b32 %r1, 0;",
        "mov.u32 %r5, 0;\nL:\ncp.async.ca.shared.global [sbuf], [%rd2], 16;\nadd.u32 %r5, %r5, 1;\nsetp.lt.u32 %p1, %r5, %s;\n@%p1 bra L;\n"
                + "cp.async.wait_all;\nmov.b32 %r1, 0;",
    };
    private static final String[] FLOAT_BODIES = {
        "mov.f32 %f1, %s;\ncvt.rni.s32.f32 %r1, %f1;",
        "mov.f32 %f1, %s;\ncvt.rzi.sat.u32.f32 %r1, %f1;",
        "mov.f32 %f1, %s;\ncvt.rn.f16.f32 %h1, %f1;\ncvt.u32.u16 %r1, %h1;",
        "mov.f32 %f1, %s;\ncvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f1;\ncvt.u32.u16 %r1, %h1;",
        "mov.f32 %f1, %s;\nmov.f32 %f2, 0f00000000;\ndiv.rn.f32 %f3, %f1, %f2;\nmov.b32 %r1, %f3;",
        "mov.f32 %f1, %s;\nsqrt.rn.f32 %f3, %f1;\nmov.b32 %r1, %f3;",
        "mov.f32 %f1, %s;\nred.global.add.f32 [%rd2+4], %f1;\nmov.b32 %r1, 0;",
    };

    private static String kernel(String body) {
        return ".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n"
                + "ld.param.u64 %rd1, [buf];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r9, 7;\nmov.u32 %r10, %tid.x;\n" + body + "\n"
                + "mul.wide.u32 %rd14, %r10, 4;\nadd.s64 %rd15, %rd2, %rd14;\nst.global.u32 [%rd15], %r1;\nret;";
    }

    @Test
    void everyInstructionFamilyWithAnExtremeOperandRunsToAnOutcomeOrIsRefusedAtItsLine() {
        Random rnd = FuzzInputs.random("runtime-extremes");
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < FuzzInputs.tries() * 4; i++) {
            boolean f = rnd.nextInt(3) == 0;
            String[] family = f ? FLOAT_BODIES : INT_BODIES;
            String[] values = f ? F32 : I32;
            String b = family[rnd.nextInt(family.length)];
            while (b.contains("%s")) b = b.replaceFirst("%s", values[rnd.nextInt(values.length)]);
            bodies.add(b);
        }
        int ran = 0;
        int refused = 0;
        for (String body : bodies) {
            String[] outcome = new String[1];
            assertTimeoutPreemptively(EndToEndFuzzTest.BOUND, () -> {
                try {
                    LaunchedRun r = PtxRun.kernel(kernel(body)).header(".shared .align 8 .b64 mb;\n.shared .align 128 .b8 sbuf[256];")
                            .buffer("buf", 64, ScalarType.U32, "zero").threads(64).maxSteps(20_000).latency(1_000_000_000L, 1_000_000_000L)
                            .launch();
                    Outcome o = r.runToEnd(20_000);
                    if (o == Outcome.RUNNING || o == Outcome.ERROR) fail(body + ": ended " + o);
                    r.summary();
                    outcome[0] = o.jsonName();
                } catch (BadInputException | PtxException e) {
                    if (e.getMessage() == null || !e.getMessage().contains("error")) fail(body + ": refused without an error: " + e.getMessage());
                    outcome[0] = "refused";
                }
            }, body);
            if (outcome[0].equals("refused")) refused++;
            else ran++;
        }
        System.out.println("fuzz runtime-extremes: " + bodies.size() + " inputs: " + ran + " ran to an outcome, " + refused
                + " refused as bad input");
    }
}
