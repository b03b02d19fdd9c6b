package io.barrierscope.exec;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.CorpusKernel;
import io.barrierscope.testing.PtxRun;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** setmaxnreg (PTX ISA 9.7.19.5): semantics.md section 11, one test per rule. */
class SetmaxnregTest {
    /** Registers and the warp index in %r1 (warp in CTA), then {@code code}, then each thread stores 1 to out[tid]. */
    private static String body(String code) {
        return ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\nmov.u32 %r0, %tid.x;\nshr.u32 %r1, %r0, 5;\n"
                + "shr.u32 %r2, %r0, 7;\n" + code + "\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + "mul.wide.u32 %rd3, %r0, 4;\nadd.s64 %rd4, %rd2, %rd3;\nmov.u32 %r9, 1;\nst.global.u32 [%rd4], %r9;\nret;";
    }

    /** Warpgroup 0 gives registers back, warpgroups 1 and 2 ask for more: the usual warp-specialized split. */
    private static final String PRODUCER_CONSUMERS = "setp.eq.u32 %p1, %r2, 0;\n@%p1 bra PRODUCER;\n"
            + "setmaxnreg.inc.sync.aligned.u32 INC;\nbra.uni DONE;\nPRODUCER:\nsetmaxnreg.dec.sync.aligned.u32 40;\nDONE:";

    private static LaunchedRun run(String code, int threads, String directives, String policy, long seed) {
        return PtxRun.kernel(body(code)).directives(directives).buffer("out", threads).threads(threads).policy(policy, seed).run();
    }

    @Test
    void consumersIncreasingWaitForTheRegistersTheProducerReleasesUnderEveryPolicy() {
        // .maxntid 384: 65536 / 384 -> 168 registers per thread at entry; 128 * (168 - 40) = 2 * 128 * (232 - 168).
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed : new long[] {1, 2, 3}) {
                LaunchedRun r = run(PRODUCER_CONSUMERS.replace("INC", "232"), 384, ".maxntid 384, 1, 1", policy, seed);
                assertEquals(Outcome.COMPLETED, outcome(r), policy + " " + seed + "\n" + r.summary());
                assertEquals(Collections.nCopies(384, 1L), PtxRun.u32(r, "out"));
                Machine m = r.interpreter().machine();
                assertEquals(40, m.registers.count(0));
                assertEquals(232, m.registers.count(4));
                assertEquals(232, m.registers.count(11));
                assertEquals(0, m.registers.pool(0));
            }
        }
    }

    @Test
    void anIncreaseThePoolCanNeverSupplyBlocksForever() {
        // 2 * 128 * (240 - 168) registers asked for, 128 * 128 released: the consumers wait for ever.
        LaunchedRun r = run(PRODUCER_CONSUMERS.replace("INC", "240"), 384, ".maxntid 384, 1, 1", "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.summary().contains("setmaxnreg"), r.summary());
    }

    @Test
    void withoutARegisterBudgetSetmaxnregHasNoEffectAndNeverBlocks() {
        // No .maxnreg or launch bounds: "the setmaxnreg instruction may have no effect".
        LaunchedRun r = run(PRODUCER_CONSUMERS.replace("INC", "256"), 384, "", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(0, r.interpreter().machine().registers.count(4));
    }

    @Test
    void aCountOutside24To256OrNotAMultipleOf8IsADiagnostic() {
        for (String n : List.of("16", "264", "100")) {
            LaunchedRun r = run("setmaxnreg.dec.sync.aligned.u32 " + n + ";", 128, ".maxnreg 256", "round-robin", 0);
            assertEquals(List.of("setmaxnreg-bad-count"), codes(r), n);
        }
    }

    @Test
    void anIncreaseBelowOrADecreaseAboveTheCurrentCountIsADiagnostic() {
        for (String insn : List.of("setmaxnreg.inc.sync.aligned.u32 64;", "setmaxnreg.dec.sync.aligned.u32 200;")) {
            LaunchedRun r = run(insn, 128, ".maxnreg 128", "round-robin", 0);
            assertEquals(List.of("setmaxnreg-wrong-direction"), codes(r), insn);
        }
        // Equal counts are allowed both ways ("greater than or equal", "less than or equal").
        LaunchedRun same = run("setmaxnreg.dec.sync.aligned.u32 128;", 128, ".maxnreg 128", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, outcome(same), same.summary());
    }

    @Test
    void warpsOfAWarpgroupExecutingDifferentSetmaxnregsIsADiagnostic() {
        String code = "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra A;\nsetmaxnreg.dec.sync.aligned.u32 48;\nbra.uni B;\n"
                + "A:\nsetmaxnreg.dec.sync.aligned.u32 40;\nB:";
        for (String policy : List.of("round-robin", "random")) {
            LaunchedRun r = run(code, 128, ".maxntid 128, 1, 1", policy, 5);
            assertEquals(List.of("setmaxnreg-warpgroup-partial"), codes(r), policy);
        }
    }

    @Test
    void aWarpOfTheWarpgroupExitingWithoutExecutingItIsADiagnostic() {
        String code = "setp.eq.u32 %p1, %r1, 3;\n@%p1 bra SKIP;\nsetmaxnreg.dec.sync.aligned.u32 40;\nSKIP:";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = run(code, 128, ".maxntid 128, 1, 1", policy, 7);
            assertEquals(List.of("setmaxnreg-warpgroup-partial"), codes(r), policy);
        }
    }

    @Test
    void aWarpgroupWithFewerThanFourWarpsIsADiagnostic() {
        LaunchedRun r = run("setmaxnreg.dec.sync.aligned.u32 40;", 64, ".maxntid 64, 1, 1", "round-robin", 0);
        assertEquals(List.of("setmaxnreg-warpgroup-partial"), codes(r));
    }

    @Test
    void aSecondSetmaxnregWithoutTheWarpgroupSynchronizingInBetweenIsADiagnostic() {
        LaunchedRun r = run("setmaxnreg.dec.sync.aligned.u32 120;\nsetmaxnreg.dec.sync.aligned.u32 80;", 128, ".maxnreg 160",
                "round-robin", 0);
        assertEquals(List.of("setmaxnreg-missing-sync"), codes(r));
        // A barrier all four warps wait at after the first one is the explicit synchronization.
        LaunchedRun ok = run("setmaxnreg.dec.sync.aligned.u32 120;\nbar.sync 1, 128;\nsetmaxnreg.dec.sync.aligned.u32 80;", 128,
                ".maxnreg 160", "random", 3);
        assertEquals(Outcome.COMPLETED, outcome(ok), ok.summary());
        assertEquals(80, ok.interpreter().machine().registers.count(2));
    }

    @Test
    void theWholeWarpMeetsAtSetmaxnregAndLanesAtAnotherOneAreAMismatch() {
        String code = "and.b32 %r3, %r0, 31;\nsetp.lt.u32 %p1, %r3, 16;\n@%p1 bra A;\nsetmaxnreg.dec.sync.aligned.u32 40;\n"
                + "bra.uni B;\nA:\nsetmaxnreg.dec.sync.aligned.u32 40;\nB:";
        LaunchedRun r = run(code, 128, ".maxntid 128, 1, 1", "round-robin", 0);
        assertEquals(List.of("warp-sync-mismatch"), codes(r));
    }

    @Test
    void anNvccWarpSpecializedKernelWithSetmaxnregRunsClean() {
        // ws_setmaxnreg.cu: __launch_bounds__(384, 1); producer warpgroup dec 40 then fills a buffer, consumers inc 232
        // and after a CTA barrier each of the 256 consumer threads adds 1 + 2 + ... + 64 to out[(t - 128) / 4].
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = CorpusKernel.run("/isa-kernels/ws_setmaxnreg.ptx", "_Z13ws_setmaxnregPi", 384, policy, 3, "out");
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
            List<Number> out = r.buffers().get("out");
            for (int i = 0; i < 64; i++) assertEquals(4 * (64 * 65 / 2), out.get(i).intValue(), policy + " out " + i);
        }
    }
}
