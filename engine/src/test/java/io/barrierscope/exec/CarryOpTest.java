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
    void madCcIsRefusedRatherThanIgnored() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> PtxRun.kernel(REGS + "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\nret;").threads(1).launch());
        assertTrue(e.getMessage().contains("unsupported instruction mad.lo.cc.u32"), e.getMessage());
    }
}
