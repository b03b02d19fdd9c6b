package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * fns.b32 (PTX ISA 9.7.1.17, fns): the n-th set bit of a mask from a base bit, either direction.
 * The hand-worked cases compute their expected values from the mask's bits; the sweep compares
 * with the ISA's pseudocode transcribed here.
 */
class FnsTest {
    /** Runs fns.b32 d, mask, base, offset for each {mask, base, offset} with register operands. */
    private static LaunchedRun run(long[][] cases) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < cases.length; i++) {
            body.append("mov.b32 %r1, ").append(cases[i][0]).append(";\nmov.b32 %r2, ").append(cases[i][1])
                    .append(";\nmov.b32 %r3, ").append(cases[i][2]).append(";\nfns.b32 %r4, %r1, %r2, %r3;\n").append(w(i, "%r4"));
        }
        return ExecKernel.of(body.toString()).wSlots(cases.length).ok();
    }

    @Test
    void theIsaExamplesGiveTheIsaResults() {
        LaunchedRun r = ExecKernel.of("fns.b32 %r1, 0xaaaaaaaa, 3, 1;\n" + w(0, "%r1") + "fns.b32 %r1, 0xaaaaaaaa, 3, -1;\n" + w(1, "%r1")
                + "fns.b32 %r1, 0xaaaaaaaa, 2, 1;\n" + w(2, "%r1") + "fns.b32 %r1, 0xaaaaaaaa, 2, -1;\n" + w(3, "%r1")).wSlots(4).ok();
        assertEquals(List.of(3L, 3L, 3L, 1L), List.of(w(r, 0), w(r, 1), w(r, 2), w(r, 3)));
    }

    @Test
    void aPositiveOffsetCountsSetBitsUpwardFromTheBaseIncludingIt() {
        // mask bits set: 0, 4, 5, 17, 31
        long mask = 0x80020031L;
        LaunchedRun r = run(new long[][] {{mask, 0, 1}, {mask, 0, 2}, {mask, 0, 3}, {mask, 1, 1}, {mask, 5, 3}, {mask, 6, 2}, {mask, 31, 1}});
        long[] want = {0, 4, 5, 4, 31, 31, 31};
        for (int i = 0; i < want.length; i++) assertEquals(want[i], w(r, i), "case " + i);
    }

    @Test
    void aNegativeOffsetCountsSetBitsDownwardFromTheBaseIncludingIt() {
        long mask = 0x80020031L;
        LaunchedRun r = run(new long[][] {{mask, 31, -1}, {mask, 31, -2}, {mask, 30, -1}, {mask, 16, -2}, {mask, 31, -5}, {mask, 3, -1}});
        long[] want = {31, 17, 17, 4, 0, 0};
        for (int i = 0; i < want.length; i++) assertEquals(want[i], w(r, i), "case " + i);
    }

    @Test
    void offsetZeroGivesTheBaseOnlyWhenItsBitIsSet() {
        long mask = 0x80020031L;
        LaunchedRun r = run(new long[][] {{mask, 17, 0}, {mask, 16, 0}, {mask, 31, 0}, {0, 0, 0}});
        long[] want = {17, 0xFFFFFFFFL, 31, 0xFFFFFFFFL};
        for (int i = 0; i < want.length; i++) assertEquals(want[i], w(r, i), "case " + i);
    }

    @Test
    void tooFewSetBitsInTheDirectionGivesAllOnes() {
        long mask = 0x80020031L;
        LaunchedRun r = run(new long[][] {{mask, 0, 6}, {mask, 18, 2}, {mask, 3, -2}, {0, 7, 1}, {0xFFFFFFFFL, 0, 0x80000000L}, {0xFFFFFFFFL, 31, 0x7FFFFFFFL}});
        for (int i = 0; i < 6; i++) assertEquals(0xFFFFFFFFL, w(r, i), "case " + i);
    }

    @Test
    void aBaseOutside0To31IsTheDiagnosticFnsBaseRange() {
        for (String base : new String[] {"32", "-1"}) {
            LaunchedRun r = ExecKernel.of("mov.b32 %r2, " + base + ";\nfns.b32 %r1, 0xaaaaaaaa, %r2, 1;\n" + w(0, "%r1")).run();
            assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
            assertEquals(List.of("fns-base-range"), codes(r), r.summary());
            assertTrue(r.summary().contains("outside 0..31"), r.summary());
        }
    }

    @Test
    void onlyTheB32TypeIsAccepted() {
        LaunchedRun r = null;
        try {
            r = ExecKernel.of("fns.u32 %r1, 0xaaaaaaaa, 3, 1;\n").run();
        } catch (RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()).contains("fns is .b32 only"), e.toString());
            return;
        }
        throw new AssertionError("fns.u32 was accepted: " + r.summary());
    }

    /** The ISA's pseudocode (9.7.1.17, Semantics) transcribed, for a base in 0..31. */
    private static long isaFns(long mask, int base, int offset) {
        long d = 0xFFFFFFFFL;
        if (offset == 0) {
            if ((mask >>> base & 1) == 1) d = base;
        } else {
            long pos = base;
            long count = Math.abs((long) offset) - 1;
            int inc = offset > 0 ? 1 : -1;
            while (pos >= 0 && pos < 32) {
                if ((mask >>> pos & 1) == 1) {
                    if (count == 0) {
                        d = pos;
                        break;
                    } else {
                        count = count - 1;
                    }
                }
                pos = pos + inc;
            }
        }
        return d;
    }

    @Test
    void everyBaseAndOffsetFromMinus33To33MatchesTheIsaPseudocodeOnRandomMasks() {
        Random rnd = new Random(0x5EED_0117L);
        List<Number> masks = new ArrayList<>(List.of(0L, 0xFFFFFFFFL));
        while (masks.size() < 5) masks.add(rnd.nextInt() & 0xFFFFFFFFL);
        int offsets = 67; // -33..33
        String body = "ld.param.u64 %rd1, [masks];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u64 %rd5, %rd40;\nmov.u32 %r10, 0;\n"
                + "$Lmask:\nmul.wide.u32 %rd2, %r10, 4;\nadd.u64 %rd3, %rd1, %rd2;\nld.global.u32 %r1, [%rd3];\nmov.u32 %r2, 0;\n"
                + "$Lbase:\nmov.u32 %r3, -33;\n"
                + "$Loff:\nfns.b32 %r4, %r1, %r2, %r3;\nst.global.u32 [%rd5], %r4;\nadd.u64 %rd5, %rd5, 4;\n"
                + "add.s32 %r3, %r3, 1;\nsetp.le.s32 %p1, %r3, 33;\n@%p1 bra $Loff;\n"
                + "add.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 32;\n@%p1 bra $Lbase;\n"
                + "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, " + masks.size() + ";\n@%p1 bra $Lmask;\n";
        LaunchedRun r = ExecKernel.of(body).buffer("masks", ScalarType.U32, masks).wSlots(masks.size() * 32 * offsets).ok();
        int slot = 0;
        for (Number m : masks) {
            for (int base = 0; base < 32; base++) {
                for (int off = -33; off <= 33; off++) {
                    assertEquals(isaFns(m.longValue(), base, off), w(r, slot++),
                            String.format("fns.b32 mask=%08x base=%d offset=%d", m.longValue(), base, off));
                }
            }
        }
    }
}
