package io.barrierscope.exec;

import static io.barrierscope.testing.PtxRun.codes;
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

/**
 * {@code atom.cas.b128} and {@code atom.exch.b128} (PTX ISA 9.7.13.5; PTX ISA 8.3, sm_90): one
 * atomic access of 16 naturally aligned bytes, low half first (semantics.md, "Instructions").
 * {@code in} holds u32 0, 1, 2, ... (iota); {@code out} receives results.
 */
class AtomB128Test {
    private static final String REGS = ".reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n.reg .b128 %q<6>;\n.reg .pred %p<2>;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";

    private static PtxRun kernel(String body, int threads) {
        return PtxRun.kernel(REGS + body).header(".shared .align 16 .b8 sm[64];")
                .buffer("in", 8, ScalarType.U32, "iota").buffer("out", 16).threads(threads);
    }

    /** Builds %q1 = {lo, hi} from two 64-bit immediates. */
    private static String q(String reg, long lo, long hi) {
        return "mov.u64 %rd10, " + lo + ";\nmov.u64 %rd11, " + hi + ";\nmov.b128 " + reg + ", {%rd10, %rd11};\n";
    }

    @Test
    void atomCasB128ReplacesAllSixteenBytesWhenTheyEqualBAndReturnsTheOldValue() {
        // in[0..3] = 0,1,2,3: the 16 bytes are lo = 0 | 1 << 32, hi = 2 | 3 << 32.
        String body = q("%q1", 1L << 32, 2 | 3L << 32) + q("%q2", 7, -1) + "atom.global.cas.b128 %q3, [%rd2], %q1, %q2;\n"
                + "ld.global.b128 %q4, [%rd2];\nst.global.b128 [%rd4], %q3;\nst.global.b128 [%rd4+16], %q4;\nret;";
        LaunchedRun r = kernel(body, 1).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0L, 1L, 2L, 3L, 7L, 0L, 0xFFFFFFFFL, 0xFFFFFFFFL), u32(r, "out").subList(0, 8));
    }

    @Test
    void atomCasB128KeepsTheLocationWhenOnlyTheHighHalfDiffers() {
        // b's low half matches (0 | 1 << 32), its high half does not (2 | 4 << 32): no swap, d is the old value.
        String body = q("%q1", 1L << 32, 2 | 4L << 32) + q("%q2", 7, 8) + "atom.global.cas.b128 %q3, [%rd2], %q1, %q2;\n"
                + "ld.global.b128 %q4, [%rd2];\nst.global.b128 [%rd4], %q3;\nst.global.b128 [%rd4+16], %q4;\nret;";
        LaunchedRun r = kernel(body, 1).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0L, 1L, 2L, 3L, 0L, 1L, 2L, 3L), u32(r, "out").subList(0, 8));
    }

    @Test
    void atomExchB128OnSharedMemoryInTheIsasExampleOrderReturnsTheOldBytesAndStoresB() {
        // "atom.shared.b128.exch" is the ISA's own example spelling (qualifiers after the type).
        String body = "mov.u32 %r1, sm;\n" + q("%q1", 0x1111, 0x2222) + "st.shared.b128 [%r1+32], %q1;\n" + q("%q2", 0x3333, 0x4444)
                + "atom.shared.b128.exch %q3, [%r1+32], %q2;\nld.shared.b128 %q4, [%r1+32];\n"
                + "st.global.b128 [%rd4], %q3;\nst.global.b128 [%rd4+16], %q4;\nret;";
        LaunchedRun r = kernel(body, 1).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0x1111L, 0L, 0x2222L, 0L, 0x3333L, 0L, 0x4444L, 0L), u32(r, "out").subList(0, 8));
    }

    @Test
    void atomExchB128WithTheSinkDestinationStillStores() {
        String body = q("%q2", 5, 6) + "atom.global.exch.b128 _, [%rd2+16], %q2;\nld.global.b128 %q4, [%rd2+16];\n"
                + "st.global.b128 [%rd4], %q4;\nret;";
        LaunchedRun r = kernel(body, 1).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(5L, 0L, 6L, 0L), u32(r, "out").subList(0, 4));
    }

    @Test
    void atomB128AtAnAddressNotAMultipleOf16IsAMisalignedAccess() {
        // 8-byte aligned but not 16: the access of 16 bytes must be naturally aligned (5.4.5 / 9.7.13.5 "alignment requirements").
        String body = q("%q2", 5, 6) + "atom.global.exch.b128 %q3, [%rd2+8], %q2;\nret;";
        LaunchedRun r = kernel(body, 1).run();
        assertEquals(List.of("misaligned-access"), codes(r), r.summary());
        assertTrue(r.summary().contains("misaligned 16-byte"), r.summary());
    }

    @Test
    void twoThreadsAtomB128OnOneLocationDoNotRace() {
        // Atomic accesses are not a data race with each other (same .gpu scope): each is one 16-byte atomic.
        String body = "mov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd12, %r1;\n" + "mov.b128 %q2, {%rd12, %rd12};\n"
                + "atom.global.exch.b128 %q3, [%rd4], %q2;\nret;";
        LaunchedRun r = kernel(body, 2).run();
        assertEquals(List.of(), codes(r), r.summary());
    }

    @Test
    void aPlainStoreToTheHighHalfRacesWithAnAtomB128OfTheWholeSixteenBytes() {
        // Thread 0's atom covers bytes 0-15; thread 1 writes bytes 8-15 with a plain store, unordered: a race.
        String body = "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n" + q("%q2", 5, 6)
                + "@%p1 atom.global.exch.b128 %q3, [%rd4], %q2;\n@!%p1 st.global.u64 [%rd4+8], %rd10;\nret;";
        LaunchedRun r = kernel(body, 2).run();
        assertEquals(List.of("race"), codes(r), r.summary());
    }

    @Test
    void redAndOperationsOtherThanCasAndExchOnB128AreRefusedAtLoad() {
        for (String bad : List.of("red.global.exch.b128 [%rd2], %q1;", "atom.global.add.b128 %q2, [%rd2], %q1;",
                "atom.global.cas.L2::cache_hint.b128 %q2, [%rd2], %q1, %q1, %rd5;", "atom.global.exch.b128 %q2, [%rd2], 5;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> kernel(bad + "\nret;", 1).run(), bad);
            assertTrue(e.getMessage().contains(".b128") || e.getMessage().contains("cache_hint"), e.getMessage());
            assertTrue(e.getMessage().matches("(?s).*\\.ptx:\\d+:\\d+: .*"), e.getMessage());
        }
    }
}
