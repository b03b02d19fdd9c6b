package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;

import org.junit.jupiter.api.Test;

/** Vector operands and vector sizes that have no meaning are refused where they are written (docs/reliability.md, campaign of 2026-11-28 evening). */
class VectorOperandCountTest {

    @Test
    void aMovPackOrUnpackOfOtherThanTwoOrFourPartsIsRefusedNotSplitIntoOddWidths() {
        // 3 into a .b64 was run as three 21-bit parts; 1 and 5 likewise had no meaning.
        assertRefusedAtLine("mov.b64 %rd1, {%r1, %r2, %r3};", "2 or 4 parts of at least 8 bits, not 3");
        assertRefusedAtLine("mov.b64 %rd1, {%r1};", "not 1");
        assertRefusedAtLine("mov.b32 {%r1, %r2, %r3, %r4, %r5}, %r6;", "not 5");
        assertRefusedAtLine("mov.b16 {%h1, %h2, %h3, %h4}, %h5;", "not 4");
        ExecKernel.of("mov.b64 %rd1, {%r1, %r2};\nmov.b32 {%h1, %h2}, %r3;").launch();
    }

    @Test
    void anInstructionNamingTwoVectorSizesIsRefusedNotRunAsTheFirst() {
        assertRefusedAtLine("ld.global.v2.v4.u32 {%r1, %r2}, [%rd1];", "more than one vector size (.v2, .v4)");
    }

    @Test
    void anAsyncStoresVectorSizeMustBeTheIsasAndMatchItsValuesNotBeIgnored() {
        // `.v8.b32 [a], {%r1, %r2}, [m]` ran as a .v2 store: the size was never read.
        String st = "st.async.shared::cluster.mbarrier::complete_tx::bytes";
        assertRefusedAtLine(st + ".v8.b32 [%r1], {%r2, %r3}, [%r4];", "st.async takes .v2 or .v4");
        assertRefusedAtLine(st + ".v4.b64 [%r1], {%rd1, %rd2, %rd3, %rd4}, [%r4];", "st.async takes .v2 or .v4");
        assertRefusedAtLine(st + ".v4.b32 [%r1], {%r2, %r3}, [%r4];", "is .v4 but gives 2 values");
        assertRefusedAtLine(st + ".v2.b32 [%r1], %r2, [%r4];", "is .v2 but gives a single value");
        assertRefusedAtLine(st + ".b32 [%r1], {%r2, %r3}, [%r4];", "names no vector size but gives 2 values");
        assertRefusedAtLine("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.v2.add.u32 [%r1], {%r2, %r3}, [%r4];",
                "red.async takes no vector size");
    }
}
