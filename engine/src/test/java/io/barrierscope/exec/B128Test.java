package io.barrierscope.exec;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ld/ldu/st .b128 and mov.b128 pack/unpack (PTX ISA 9.7.9.8, 9.7.9.10, 9.7.9.11, 9.7.9.4; PTX ISA 8.3, sm_70+), semantics.md "Instructions". */
class B128Test {
    private static final String REGS = ".reg .b32 %r<4>;\n.reg .b64 %rd<12>;\n.reg .b128 %q<4>;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(".shared .align 16 .b8 sm[64];")
                .buffer("in", 8, ScalarType.U32, "iota").buffer("out", 8).threads(1);
    }

    @Test
    void ldB128LoadsSixteenBytesThatMovUnpacksLowHalfFirstAndStB128StoresThemBack() {
        // in = 0,1,2,3 as u32: the low half is bytes 0..7 (0 | 1 << 32), the high half bytes 8..15.
        String body = "ld.global.b128 %q1, [%rd2];\nmov.b128 {%rd5, %rd6}, %q1;\nmov.b128 %q2, {%rd6, %rd5};\n"
                + "st.global.b128 [%rd4], %q2;\nst.global.u64 [%rd4+16], %rd5;\nret;";
        LaunchedRun r = kernel(body).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(2L, 3L, 0L, 1L, 0L, 1L, 0L, 0L), u32(r, "out"));
    }

    @Test
    void aB128ValueRoundTripsThroughSharedMemory() {
        String body = "mov.u64 %rd5, 0x1122334455667788;\nmov.u64 %rd6, -1;\nmov.b128 %q1, {%rd5, %rd6};\nmov.u32 %r1, sm;\n"
                + "st.shared.b128 [%r1+16], %q1;\nld.shared.b128 %q2, [%r1+16];\nst.global.b128 [%rd4], %q2;\n"
                + "ld.shared.u32 %r2, [%r1+20];\nst.global.u32 [%rd4+16], %r2;\nret;";
        LaunchedRun r = kernel(body).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0x55667788L, 0x11223344L, 0xFFFFFFFFL, 0xFFFFFFFFL, 0x11223344L, 0L, 0L, 0L), u32(r, "out"));
    }

    @Test
    void movB128PacksAndUnpacksFourThirtyTwoBitElementsLowestFirst() {
        // PTX ISA 9.7.9.4: d = a.x | (a.y << 32) | (a.z << 64) | (a.w << 96); a sink skips an element.
        String body = "ld.global.b128 %q1, [%rd2];\nmov.b128 {%r0, _, %r2, %r3}, %q1;\nmov.b128 %q2, {%r3, %r2, 7, %r0};\n"
                + "st.global.b128 [%rd4], %q2;\nret;";
        LaunchedRun r = PtxRun.kernel(".reg .b32 %r<4>;\n.reg .b64 %rd<12>;\n.reg .b128 %q<4>;\nld.param.u64 %rd1, [in];\n"
                + "cvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n" + body)
                .buffer("in", 8, ScalarType.U32, "iota").buffer("out", 8).threads(1).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(3L, 2L, 7L, 0L, 0L, 0L, 0L, 0L), u32(r, "out"));
    }

    @Test
    void aPlainMovB128CopyIsRefusedAtLoadSinceTheIsaHasOnlyPackAndUnpack() {
        // 9.7.9.3's mov lists no .b128 type; 9.7.9.4's mov.b128 needs a vector on one side.
        BadInputException e = assertThrows(BadInputException.class, () -> kernel("mov.b128 %q3, %q2;\nret;").run());
        assertTrue(e.getMessage().contains("9.7.9.4"), e.getMessage());
        for (String bad : List.of("mov.b128 {_, _}, %q1;", "mov.b128 {%rd5, %rd6, %rd7}, %q1;", "mov.b128 %q1, {%r1, %r2, %r3, %rd5};")) {
            assertThrows(BadInputException.class, () -> kernel(bad + "\nret;").run(), bad);
        }
    }

    @Test
    void lduLoadsFromGlobalOrGenericAddressesOnlyAndOtherSpacesAreRefusedAtLoad() {
        // PTX ISA 9.7.9.10: ldu{.ss}.type with .ss = { .global }.
        LaunchedRun r = kernel("ldu.global.b128 %q1, [%rd2];\nldu.b128 %q2, [%rd2];\nst.global.b128 [%rd4], %q1;\n"
                + "st.global.b128 [%rd4+16], %q2;\nret;").run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0L, 1L, 2L, 3L, 0L, 1L, 2L, 3L), u32(r, "out"));
        for (String bad : List.of("mov.u32 %r1, sm;\nldu.shared.b128 %q1, [%r1];", "mov.u32 %r1, sm;\nldu.shared.u32 %r2, [%r1];")) {
            BadInputException e = assertThrows(BadInputException.class, () -> kernel(bad + "\nret;").run(), bad);
            assertTrue(e.getMessage().contains("9.7.9.10"), e.getMessage());
        }
    }

    @Test
    void aB128AccessNotAlignedTo16BytesIsMisaligned() {
        LaunchedRun r = kernel("ld.global.b128 %q1, [%rd2+8];\nret;").run();
        assertEquals(List.of("misaligned-access"), codes(r), r.summary());
    }

    @Test
    void aB128RegisterAnywhereButLdStMovB128IsRefusedAtLoad() {
        for (String bad : List.of("add.u64 %rd5, %q1, 1;", "mov.b64 %rd5, %q1;", "ld.global.b128 %rd5, [%rd2];",
                "mov.b128 {%r1, %r2}, %q1;", "st.global.u64 [%rd4], %q1;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> kernel(bad + "\nret;").run(), bad);
            assertTrue(e.getMessage().contains(".b128"), e.getMessage());
        }
    }

    @Test
    void vectorOrOrderedB128LoadsAreRefusedByName() {
        // atom .b128 is modelled: AtomB128Test.
        for (String bad : List.of("ld.global.v2.b128 {%q1, %q2}, [%rd2];",
                "ld.relaxed.gpu.global.b128 %q1, [%rd2];")) {
            BadInputException e = assertThrows(BadInputException.class, () -> kernel(bad + "\nret;").run(), bad);
            assertTrue(e.getMessage().contains("not modelled") || e.getMessage().contains("unsupported"), e.getMessage());
        }
    }
}
