package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Packed 16-bit integer SIMD forms (PTX ISA 9.7.1: add, min, max on .u16x2/.s16x2, min/max.relu
 * on .s16x2) against a reference written here with Java's 16-bit types: each half on its own,
 * add wrapping, comparisons unsigned or signed, .relu making a negative half 0.
 */
class PackedInt16OpsTest {
    static final String[] FORMS = {"add.u16x2", "add.s16x2", "min.u16x2", "min.s16x2", "max.u16x2", "max.s16x2", "min.relu.s16x2",
        "max.relu.s16x2"};

    /** The reference for one half: x and y are its 16 bits. */
    static int ref(String form, int x, int y) {
        boolean signed = form.contains("s16x2");
        int p = signed ? (short) x : x & 0xFFFF;
        int q = signed ? (short) y : y & 0xFFFF;
        int v = form.startsWith("add") ? p + q : form.startsWith("min") ? Math.min(p, q) : Math.max(p, q);
        if (form.contains("relu") && v < 0) v = 0;
        return v & 0xFFFF;
    }

    @Test
    void eachHalfIsAddedComparedAndClampedOnItsOwn() {
        SplittableRandom r = new SplittableRandom(5);
        int[] edge = {0, 1, 0x7FFF, 0x8000, 0xFFFF, 0x8001, 0x0100};
        int pairs = 16;
        long[][] xy = new long[pairs][2];
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < pairs; i++) {
            for (int j = 0; j < 2; j++) {
                int lo = i < 7 ? edge[(i + 3 * j) % 7] : r.nextInt(0x10000);
                int hi = i < 7 ? edge[(i + 5 * j + 2) % 7] : r.nextInt(0x10000);
                xy[i][j] = ((long) hi << 16) | lo;
            }
            body.append("mov.b32 %r1, ").append(xy[i][0]).append(";\nmov.b32 %r2, ").append(xy[i][1]).append(";\n");
            for (int f = 0; f < FORMS.length; f++) body.append(FORMS[f]).append(" %r3, %r1, %r2;\n").append(w(i * FORMS.length + f, "%r3"));
        }
        LaunchedRun run = ExecKernel.of(body.toString()).wSlots(pairs * FORMS.length).ok();
        for (int i = 0; i < pairs; i++) {
            for (int f = 0; f < FORMS.length; f++) {
                int x = (int) xy[i][0], y = (int) xy[i][1];
                long want = ref(FORMS[f], x, y) | ((long) ref(FORMS[f], x >>> 16, y >>> 16) << 16);
                assertEquals(Long.toHexString(want), Long.toHexString(w(run, i * FORMS.length + f)),
                        FORMS[f] + " " + Long.toHexString(xy[i][0]) + ", " + Long.toHexString(xy[i][1]));
            }
        }
    }

    /**
     * End to end: simd16.json runs nvcc's PTX of simd16.cu (CUDA's __vadd2, __vsub2, __vmaxs2,
     * __vmins2, __vmaxu2, __vminu2 lowered to the packed forms, and __vabsdiffu2, __vneg2,
     * __vcmpgtu2, __vhaddu2 to plain integer code) over 64 pairs, edge halves included; its expect
     * block, computed apart from the engine from CUDA's definitions of the intrinsics, is met.
     */
    @Test
    void theNvccLoweringOfCudasSimdIntrinsicsMeetsItsExpectBlock() throws Exception {
        java.nio.file.Path launch = java.nio.file.Path.of(PackedInt16OpsTest.class.getResource("/ptx-corpus/simd16.json").toURI());
        for (String policy : List.of("round-robin", "adversarial")) {
            LaunchedRun r = io.barrierscope.launch.LaunchValidation.validate(launch).start(policy, 1L);
            r.runToEnd();
            assertEquals(List.of(), r.expectDifferences(), policy + "\n" + r.summary());
        }
    }

    @Test
    void formsTheIsaDoesNotListForSm90AreRefusedByName() {
        for (String bad : List.of("sub.u16x2 %r1, %r2, %r3;", "add.sat.s16x2 %r1, %r2, %r3;", "min.relu.u16x2 %r1, %r2, %r3;",
                "mul.lo.s16x2 %r1, %r2, %r3;", "add.relu.s16x2 %r1, %r2, %r3;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }
    /** ptxas answers "Arguments mismatch" for these; the engine refuses them too, naming the operand. */
    @Test
    void immediatesAndOperandsOtherThan32BitIntegerRegistersAreRefused() {
        for (String bad : List.of("add.s16x2 %r1, %r2, 5;", "min.relu.s16x2 %r1, 7, %r3;", "add.u16x2 %h1, %h2, %h3;",
                "max.u16x2 %rd1, %r2, %r3;", "add.u16x2 %r1, %f2, %r3;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("registers only"), e.getMessage());
        }
    }
}
