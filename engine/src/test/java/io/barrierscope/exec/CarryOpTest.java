package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Extended-precision add/sub through the condition code's carry flag (PTX ISA 9.7.2). */
class CarryOpTest {
    private static final String REGS = ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n";
    private static final String STORE = "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
            + "st.global.u32 [%rd2], %r5;\nst.global.u32 [%rd2+4], %r6;\nret;";

    private static List<Long> run(String body) {
        LaunchedRun r = PtxRun.kernel(REGS + body + STORE).buffer("out", 2).threads(1).run();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        return PtxRun.u32(r, "out");
    }

    @Test
    void addCcCarriesIntoAddcAcrossA64BitSum() {
        // 0x00000001_FFFFFFFF + 0x00000002_00000001 = 0x00000004_00000000
        List<Long> out = run("mov.u32 %r1, 0xFFFFFFFF;\nmov.u32 %r2, 1;\nmov.u32 %r3, 1;\nmov.u32 %r4, 2;\n"
                + "add.cc.u32 %r5, %r1, %r3;\naddc.u32 %r6, %r2, %r4;\n");
        assertEquals(List.of(0L, 4L), out);
    }

    @Test
    void withoutACarryAddcAddsNothingExtra() {
        List<Long> out = run("mov.u32 %r1, 5;\nmov.u32 %r2, 1;\nadd.cc.u32 %r5, %r1, 7;\naddc.u32 %r6, %r2, 2;\n");
        assertEquals(List.of(12L, 3L), out);
    }

    @Test
    void subCcBorrowsFromSubc() {
        // 0x00000002_00000000 - 0x00000000_00000001 = 0x00000001_FFFFFFFF
        List<Long> out = run("mov.u32 %r1, 0;\nmov.u32 %r2, 2;\nsub.cc.u32 %r5, %r1, 1;\nsubc.u32 %r6, %r2, 0;\n");
        assertEquals(List.of(0xFFFFFFFFL, 1L), out);
    }

    @Test
    void addcCcPropagatesACarryThroughAFullWord() {
        // three words: 0xFFFFFFFF_FFFFFFFF_FFFFFFFF + 1: middle word wraps and carries on
        List<Long> out = run("mov.u32 %r1, 0xFFFFFFFF;\nadd.cc.u32 %r7, %r1, 1;\naddc.cc.u32 %r5, %r1, 0;\naddc.u32 %r6, %r1, 0;\n");
        assertEquals(List.of(0L, 0L), out);
    }

    @Test
    void madCcAddsTheProductsLowOrHighHalfAndMadcCarriesIn() {
        // (0xFFFFFFFF * 0xFFFFFFFF) = 0xFFFFFFFE_00000001; lo + 0xFFFFFFFF = 0x1_00000000: lo word 0, carry 1.
        // madc.hi: hi 0xFFFFFFFE + c 1 + carry 1 = 0x1_00000000: 0 (carry out unused).
        List<Long> out = run("mov.u32 %r1, 0xFFFFFFFF;\nmad.lo.cc.u32 %r5, %r1, %r1, %r1;\nmadc.hi.u32 %r6, %r1, %r1, 1;\n");
        assertEquals(List.of(0L, 0L), out);
        // Signed high half: -2 * 3 = -6 = 0xFFFFFFFF_FFFFFFFA; hi 0xFFFFFFFF + 0 + carry 0 (5 + 7 has none).
        out = run("add.cc.u32 %r9, 5, 7;\nmov.u32 %r1, -2;\nmadc.hi.cc.s32 %r6, %r1, 3, 0;\nmadc.lo.u32 %r5, 2, 3, 4;\n");
        assertEquals(List.of(10L, 0xFFFFFFFFL), out, "madc.lo adds the carry of madc.hi.cc (none here)");
    }

    @Test
    void a64BitMadCcCarriesOutOfTheFullWidth() {
        // 64-bit: lo(2^63 * 2) = 0, + 0xFFFF..F = 0xFFFF..F, no carry; then madc.lo 1*1 + 0 + 0 = 1.
        LaunchedRun r = PtxRun.kernel(REGS + "mov.u64 %rd3, 0x8000000000000000;\nmov.u64 %rd4, -1;\n"
                + "mad.lo.cc.u64 %rd5, %rd3, 2, %rd4;\nmadc.lo.cc.u64 %rd6, 1, 1, 0;\nmad.hi.cc.u64 %rd7, %rd4, %rd4, %rd4;\n"
                + "madc.lo.u32 %r5, 0, 0, 0;\ncvt.u32.u64 %r6, %rd6;\n" + STORE).buffer("out", 2).threads(1).run();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        // hi((2^64-1)^2) = 2^64-2, + (2^64-1) carries out: madc.lo.u32 0*0+0+1 = 1.
        assertEquals(List.of(1L, 1L), PtxRun.u32(r, "out"));
    }

    @Test
    void madWithACarryNeedsLoOrHiAndNotWide() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> PtxRun.kernel(REGS + "mad.wide.cc.u32 %rd1, %r2, %r3, %rd4;\nret;").threads(1).launch());
        assertTrue(e.getMessage().contains(".lo or .hi"), e.getMessage());
    }

    @Test
    void madcWithACarryInAtAllOnesCarriesOutAndSignedHighHalvesAreTheSignedProducts() {
        // Carry 1, then 0xFFFFFFFF*1 + 0xFFFFFFFF + 1 = 0x1_FFFFFFFF: word 0xFFFFFFFF, carry out 1 (addc reads it).
        List<Long> out = run("add.cc.u32 %r1, 0xFFFFFFFF, 1;\nmadc.lo.cc.u32 %r5, 0xFFFFFFFF, 1, 0xFFFFFFFF;\naddc.u32 %r6, 0, 0;\n");
        assertEquals(List.of(0xFFFFFFFFL, 1L), out);
        // (-2^31)^2 = 2^62: high word 0x40000000 + 0xC0000000 = 2^32: 0, carry 1.
        out = run("mov.u32 %r1, 0x80000000;\nmad.hi.cc.s32 %r5, %r1, %r1, 0xC0000000;\naddc.u32 %r6, 0, 0;\n");
        assertEquals(List.of(0L, 1L), out);
        // Signed -1 * 5 = -5: high word all ones (unsigned it is 4), + 1 carries out.
        out = run("mad.hi.cc.s32 %r5, -1, 5, 1;\naddc.u32 %r6, 0, 0;\n");
        assertEquals(List.of(0L, 1L), out);
        out = run("mad.hi.cc.u32 %r5, -1, 5, 1;\naddc.u32 %r6, 0, 0;\n");
        assertEquals(List.of(5L, 0L), out);
        // 64-bit: carry 1, (-1)*(-1) = 1 signed: high half 0, + 0xFFFF..FF + 1 = 2^64: 0, carry 1.
        LaunchedRun r = PtxRun.kernel(REGS + "mov.u64 %rd3, -1;\nadd.cc.u32 %r1, 0xFFFFFFFF, 1;\nmadc.hi.cc.s64 %rd4, %rd3, %rd3, %rd3;\n"
                + "addc.u32 %r6, 0, 0;\ncvt.u32.u64 %r5, %rd4;\n" + STORE).buffer("out", 2).threads(1).run();
        assertEquals(List.of(0L, 1L), PtxRun.u32(r, "out"));
    }
}
