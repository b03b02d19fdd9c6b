package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SIMD video instructions (PTX ISA 9.7.18.2.2-3) with the default selectors and mask, against a
 * reference written here from the ISA's pseudocode: elements extended to 64-bit longs by their
 * operand's type, combined, clamped with .sat, merged into d's elements or summed onto c with .add.
 */
class VideoSimdOpsTest {
    static final String[] OPS = {"add", "sub", "avrg", "absdiff", "min", "max"};

    static long elem(long v, int i, int w, boolean s) {
        long x = (v >> (w * i)) & ((1L << w) - 1);
        return s && x >= (1L << (w - 1)) ? x - (1L << w) : x;
    }

    static long ref(String op, int n, String[] types, String mode, long a, long b, long c) {
        int w = 32 / n;
        long d = mode.equals("add") ? c : 0;
        for (int i = 0; i < n; i++) {
            long p = elem(a, i, w, types[1].equals("s32"));
            long q = elem(b, i, w, types[2].equals("s32"));
            long t = switch (op) {
                case "add" -> p + q;
                case "sub" -> p - q;
                case "avrg" -> p + q >= 0 ? (p + q + 1) / 2 : -((-(p + q) + 1) / 2);
                case "absdiff" -> p > q ? p - q : q - p;
                case "min" -> p < q ? p : q;
                default -> p > q ? p : q;
            };
            if (mode.equals("sat")) {
                long lo = types[0].equals("s32") ? -(1L << (w - 1)) : 0, hi = types[0].equals("s32") ? (1L << (w - 1)) - 1 : (1L << w) - 1;
                t = t < lo ? lo : t > hi ? hi : t;
            }
            d = mode.equals("add") ? d + t : d | ((t & ((1L << w) - 1)) << (w * i));
        }
        return d & 0xFFFFFFFFL;
    }

    @Test
    void everyOpOnBytesAndHalfWordsWithMergeSaturationAndAccumulate() {
        SplittableRandom r = new SplittableRandom(9);
        String[][] typeSets = {{"u32", "u32", "u32"}, {"s32", "s32", "s32"}, {"s32", "u32", "s32"}, {"u32", "s32", "u32"}};
        long[][] inputs = {{0x80FF7F01L, 0x017F80FFL, 0x12345678L}, {0xFFFF8000L, 0x7FFF0001L, 0xFFFFFFF0L},
            {r.nextLong() & 0xFFFFFFFFL, r.nextLong() & 0xFFFFFFFFL, r.nextLong() & 0xFFFFFFFFL}};
        List<String> forms = new ArrayList<>();
        List<Long> want = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (long[] in : inputs) {
            body.append("mov.b32 %r1, ").append(in[0]).append(";\nmov.b32 %r2, ").append(in[1]).append(";\nmov.b32 %r3, ").append(in[2]).append(";\n");
            for (String op : OPS) {
                for (int n : new int[] {2, 4}) {
                    for (String[] ts : typeSets) {
                        for (String mode : new String[] {"", "sat", "add"}) {
                            String insn = "v" + op + n + "." + String.join(".", ts) + (mode.isEmpty() ? "" : "." + mode);
                            body.append(insn).append(" %r4, %r1, %r2, %r3;\n").append(w(slot++, "%r4"));
                            forms.add(insn + " " + Long.toHexString(in[0]) + ", " + Long.toHexString(in[1]) + ", " + Long.toHexString(in[2]));
                            want.add(ref(op, n, ts, mode, in[0], in[1], in[2]));
                        }
                    }
                }
            }
        }
        LaunchedRun run = ExecKernel.of(body.toString()).wSlots(slot).ok();
        for (int i = 0; i < slot; i++) assertEquals(Long.toHexString(want.get(i)), Long.toHexString(w(run, i)), forms.get(i));
    }

    /**
     * End to end: video_simd.json runs nvcc's PTX of video_simd.cu (CUDA's __vabsdiffs4,
     * __vabsdiffu4, __vsads4, __vsadu4, __vsads2, __vsadu2, __vabsdiffs2: vabsdiff4, vabsdiff4.add
     * and vabsdiff2.add among plain integer code) over 64 pairs; its expect block, computed apart
     * from the engine from CUDA's definitions of the intrinsics, is met.
     */
    @Test
    void theNvccLoweringOfCudasAbsoluteDifferenceIntrinsicsMeetsItsExpectBlock() throws Exception {
        java.nio.file.Path launch = java.nio.file.Path.of(VideoSimdOpsTest.class.getResource("/ptx-corpus/video_simd.json").toURI());
        LaunchedRun r = io.barrierscope.launch.LaunchValidation.validate(launch).start("round-robin", 0L);
        r.runToEnd();
        assertEquals(List.of(), r.expectDifferences(), r.summary());
    }

    @Test
    void saturationWithAccumulateAndOtherFormsAreRefused() {
        for (String bad : List.of("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", "vabsdiff2.u32.u32 %r1, %r2, %r3, %r4;",
                "vmin4.u16.u32.u32 %r1, %r2, %r3, %r4;", "vadd.u32.u32.u32 %r1, %r2, %r3, %r4;", "vset4.u32.u32.lt %r1, %r2, %r3, %r4;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains(bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
        // A mask or selector is an operand suffix, which the PTX parser does not take: an error at its location.
        BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of("vabsdiff4.u32.u32.u32 %r1.b0, %r2, %r3, %r4;").launch());
        assertTrue(e.getMessage().contains("k.ptx:"), e.getMessage());
    }
    /** ptxas: "Incorrect video selector" / "Arguments mismatch"; the engine refuses them too, naming the operand. */
    @Test
    void immediatesAndOperandsOtherThan32BitIntegerRegistersAreRefused() {
        for (String bad : List.of("vadd4.u32.u32.u32 %r1, %r2, %r3, 7;", "vadd4.u32.u32.u32 %r1, 3, %r3, %r4;",
                "vabsdiff2.s32.s32.s32 %rd1, %r2, %r3, %r4;", "vmax4.u32.u32.u32 %r1, %f2, %r3, %r4;", "vmin2.u32.u32.u32.add %r1, %r2, %r3, %h4;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("registers only"), e.getMessage());
        }
    }

    /** An explicit selector or mask (PTX ISA 9.7.18.1) is named, with the register it follows, at its own column. */
    @Test
    void anExplicitSelectorOrMaskIsRefusedNamingItAtItsLocation() {
        String[][] cases = {{"vabsdiff4.u32.u32.u32 %r1.b0, %r2, %r3, %r4;", "%r1.b0"}, {"vadd2.u32.u32.u32 %r1, %r2.h10, %r3, %r4;", "%r2.h10"},
            {"vmax4.s32.s32.s32 %r1, %r2, %r3.b7654, %r4;", "%r3.b7654"}};
        for (String[] k : cases) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(k[0]).launch(), k[0]);
            int col = k[0].indexOf(k[1]) + k[1].indexOf('.') + 1;
            assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:" + col + ": .*"), e.getMessage());
            assertTrue(e.getMessage().contains("selector or mask '" + k[1] + "'"), e.getMessage());
            assertTrue(!e.getMessage().contains("vector registers"), e.getMessage());
        }
    }
}
