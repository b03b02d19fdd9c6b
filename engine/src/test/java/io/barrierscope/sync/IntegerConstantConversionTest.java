package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An integer constant is 64 bits and "converted to the appropriate size based on the data or
 * instruction type at its use" (PTX ISA 4.5.1, Integer Constants): a constant wider than a
 * 32-bit operand is that operand's low 32 bits, not an error (semantics.md section 4 and 6).
 */
class IntegerConstantConversionTest {
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
            + "mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
            + "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n";

    @Test
    void aSixtyFourBitMemberMaskConstantIsItsLow32BitsSoElectSyncElectsAmongThoseLanes() {
        // Lanes with bit 2 set reach elect.sync; 0xffffffff_f0f0f0f0 as a .b32 mask is 0xf0f0f0f0: lane 4 is elected.
        String body = "and.b32 %r5, %r1, 4;\nsetp.eq.u32 %p1, %r5, 0;\nmov.u32 %r4, 99;\n@%p1 bra DONE;\n"
                + "elect.sync %r4|%p2, 0xfffffffff0f0f0f0;\nDONE:\nst.global.u32 [%rd3], %r4;\nret;";
        LaunchedRun r = PtxRun.kernel(REGS + body).buffer("out", 32).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r));
        List<Long> out = u32(r, "out");
        for (int l = 0; l < 32; l++) assertEquals((l & 4) == 0 ? 99L : 4L, out.get(l), "lane " + l);
    }

    /** Virtual time at the end of a try_wait with {@code hint} on a phase that never completes. */
    private static long cyclesAfterTryWait(String hint) {
        String body = "mov.u32 %r2, bar;\nmbarrier.init.shared::cta.b64 [%r2], 2;\n"
                + "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0, " + hint + ";\n"
                + "selp.u32 %r3, 1, 0, %p2;\nst.global.u32 [%rd3], %r3;\nret;";
        LaunchedRun r = PtxRun.kernel(REGS + body).header(".shared .align 8 .b64 bar;").buffer("out", 1).threads(1).racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(0L, u32(r, "out").get(0), "the phase never completes: try_wait returns false after its hint");
        return r.machine().cycles;
    }

    @Test
    void aSuspendTimeHintConstantPast32BitsIsItsLow32BitsOfNanoseconds() {
        // suspendTimeHint is a 32-bit unsigned operand (9.7.13.15.16): 2^32 + 5000 is 5000 ns, 2^32 is 0.
        long wide = cyclesAfterTryWait("4294972296");
        long fiveUs = cyclesAfterTryWait("5000");
        assertTrue(fiveUs > cyclesAfterTryWait("0"), "the hint is honoured at all");
        assertEquals(fiveUs, wide);
        assertTrue(wide < 4294967296L, "not suspended for 2^32 ns: " + wide);
        assertEquals(cyclesAfterTryWait("0"), cyclesAfterTryWait("4294967296"));
    }
}
