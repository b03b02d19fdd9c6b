package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.u32;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Integer arithmetic and bit instructions (PTX ISA 9.7.1, 9.7.8); expectations from Java or the ISA pseudocode. */
class IntegerOpsTest {
    private static final BigInteger TWO64 = BigInteger.ONE.shiftLeft(64);

    private static BigInteger unsigned(long v) { return new BigInteger(Long.toUnsignedString(v)); }

    @Test
    void addSubWrapAndSaturate() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 0x7fffffff;\nadd.s32 %r2, %r1, 1;\n" + w(0, "%r2")
                + "add.sat.s32 %r3, %r1, 1;\n" + w(1, "%r3") + "mov.u32 %r4, 3;\nsub.u32 %r5, %r4, 5;\n" + w(2, "%r5")
                + "mov.s32 %r6, -2147483647;\nsub.sat.s32 %r7, %r6, 5;\n" + w(3, "%r7")
                + "mov.u64 %rd1, 0xffffffffffffffff;\nadd.u64 %rd2, %rd1, 2;\n" + x(0, "%rd2")
                + "mov.u64 %rd3, 0;\nsub.s64 %rd4, %rd3, 7;\n" + x(1, "%rd4")
                + "mov.u16 %h1, 0xfffe;\nadd.u16 %h2, %h1, 5;\nst.global.u16 [%rd40+16], %h2;\n").ok();
        assertEquals(u32(Integer.MAX_VALUE + 1), w(r, 0));
        assertEquals(u32(Integer.MAX_VALUE), w(r, 1));
        assertEquals(u32(3 - 5), w(r, 2));
        assertEquals(u32(Integer.MIN_VALUE), w(r, 3));
        assertEquals(1L, x(r, 0));
        assertEquals(-7L, x(r, 1));
        assertEquals((0xfffe + 5) & 0xFFFF, w(r, 4));
    }

    @Test
    void mulLoHiWide32() {
        int a = -123456789;
        int b = 987654;
        LaunchedRun r = ExecKernel.of("mov.s32 %r1, " + a + ";\nmov.s32 %r2, " + b + ";\n"
                + "mul.lo.s32 %r3, %r1, %r2;\n" + w(0, "%r3") + "mul.hi.s32 %r4, %r1, %r2;\n" + w(1, "%r4")
                + "mul.hi.u32 %r5, %r1, %r2;\n" + w(2, "%r5") + "mul.wide.s32 %rd1, %r1, %r2;\n" + x(0, "%rd1")
                + "mul.wide.u32 %rd2, %r1, %r2;\n" + x(1, "%rd2") + "mul.lo.u32 %r6, %r1, 3;\n" + w(3, "%r6")
                + "mov.u16 %h1, 0xffff;\nmul.wide.u16 %r7, %h1, %h1;\n" + w(4, "%r7")
                + "mov.u16 %h2, 0x8000;\nmul.wide.s16 %r8, %h2, %h2;\n" + w(5, "%r8")).ok();
        long sa = a;
        long ua = a & 0xFFFFFFFFL;
        assertEquals(u32(a * b), w(r, 0));
        assertEquals(u32((int) ((sa * b) >> 32)), w(r, 1));
        assertEquals((ua * b) >>> 32, w(r, 2));
        assertEquals(sa * b, x(r, 0));
        assertEquals(ua * b, x(r, 1));
        assertEquals(u32(a * 3), w(r, 3));
        assertEquals(0xffffL * 0xffffL, w(r, 4));
        assertEquals(32768L * 32768L, w(r, 5));
    }

    @Test
    void mul64LoAndHiSignedAndUnsigned() {
        long a = 0xfedcba9876543210L;
        long b = 0x0123456789abcdefL;
        LaunchedRun r = ExecKernel.of("mov.b64 %rd1, " + a + ";\nmov.b64 %rd2, " + b + ";\n"
                + "mul.lo.u64 %rd3, %rd1, %rd2;\n" + x(0, "%rd3") + "mul.hi.u64 %rd4, %rd1, %rd2;\n" + x(1, "%rd4")
                + "mul.hi.s64 %rd5, %rd1, %rd2;\n" + x(2, "%rd5") + "mul.hi.u64 %rd6, %rd1, %rd1;\n" + x(3, "%rd6")
                + "mul.hi.s64 %rd7, %rd1, %rd1;\n" + x(4, "%rd7")).ok();
        assertEquals(a * b, x(r, 0));
        assertEquals(unsigned(a).multiply(unsigned(b)).shiftRight(64).longValue(), x(r, 1));
        assertEquals(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).shiftRight(64).longValue(), x(r, 2));
        assertEquals(unsigned(a).multiply(unsigned(a)).shiftRight(64).longValue(), x(r, 3));
        assertEquals(BigInteger.valueOf(a).multiply(BigInteger.valueOf(a)).shiftRight(64).longValue(), x(r, 4));
    }

    @Test
    void madLoHiAndWide() {
        int a = 0x89abcdef;
        int b = 0x12345;
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, " + u32(a) + ";\nmov.b32 %r2, " + b + ";\nmov.b32 %r3, 1000;\n"
                + "mad.lo.s32 %r4, %r1, %r2, %r3;\n" + w(0, "%r4") + "mad.hi.u32 %r5, %r1, %r2, %r3;\n" + w(1, "%r5")
                + "mov.b64 %rd1, -5;\nmad.wide.s32 %rd2, %r1, %r2, %rd1;\n" + x(0, "%rd2")
                + "mad.wide.u32 %rd3, %r1, %r2, %rd1;\n" + x(1, "%rd3")
                + "mov.b64 %rd4, 0x100000001;\nmad.lo.u64 %rd5, %rd4, %rd4, 7;\n" + x(2, "%rd5")).ok();
        assertEquals(u32(a * b + 1000), w(r, 0));
        assertEquals(((((a & 0xFFFFFFFFL) * b) >>> 32) + 1000) & 0xFFFFFFFFL, w(r, 1));
        assertEquals((long) a * b - 5, x(r, 0));
        assertEquals((a & 0xFFFFFFFFL) * b - 5, x(r, 1));
        assertEquals(0x100000001L * 0x100000001L + 7, x(r, 2));
    }

    @Test
    void divAndRemSignedTruncateTowardZeroAndUnsignedUseAllBits() {
        LaunchedRun r = ExecKernel.of("mov.s32 %r1, -7;\nmov.s32 %r2, 2;\ndiv.s32 %r3, %r1, %r2;\n" + w(0, "%r3")
                + "rem.s32 %r4, %r1, %r2;\n" + w(1, "%r4") + "div.u32 %r5, %r1, %r2;\n" + w(2, "%r5")
                + "rem.u32 %r6, %r1, 10;\n" + w(3, "%r6") + "rem.s32 %r7, 7, -3;\n" + w(4, "%r7")
                + "mov.b64 %rd1, -1000000000000;\ndiv.s64 %rd2, %rd1, 7;\n" + x(0, "%rd2") + "rem.s64 %rd3, %rd1, 7;\n"
                + x(1, "%rd3") + "div.u64 %rd4, %rd1, 7;\n" + x(2, "%rd4") + "rem.u64 %rd5, %rd1, 7;\n" + x(3, "%rd5")).ok();
        assertEquals(u32(-7 / 2), w(r, 0));
        assertEquals(u32(-7 % 2), w(r, 1));
        assertEquals(Integer.toUnsignedLong(Integer.divideUnsigned(-7, 2)), w(r, 2));
        assertEquals(Integer.toUnsignedLong(Integer.remainderUnsigned(-7, 10)), w(r, 3));
        assertEquals(u32(7 % -3), w(r, 4));
        assertEquals(-1000000000000L / 7, x(r, 0));
        assertEquals(-1000000000000L % 7, x(r, 1));
        assertEquals(Long.divideUnsigned(-1000000000000L, 7), x(r, 2));
        assertEquals(Long.remainderUnsigned(-1000000000000L, 7), x(r, 3));
    }

    @Test
    void divisionByZeroIsDiagnosed() {
        for (String insn : List.of("div.u32 %r3, %r1, %r2;", "div.s32 %r3, %r1, %r2;", "rem.u32 %r3, %r1, %r2;",
                "rem.s32 %r3, %r1, %r2;")) {
            LaunchedRun r = ExecKernel.of("mov.u32 %r1, 10;\nmov.u32 %r2, 0;\n" + insn + "\n" + w(0, "%r1")).run();
            assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), insn);
            assertEquals(List.of("divide-by-zero"), codes(r), insn);
            assertEquals(0L, w(r, 0), "the run stops at the faulting instruction");
        }
        LaunchedRun r = ExecKernel.of("mov.u64 %rd1, 10;\nmov.u64 %rd2, 0;\ndiv.u64 %rd3, %rd1, %rd2;").run();
        assertEquals(List.of("divide-by-zero"), codes(r));
        r = ExecKernel.of("mov.u64 %rd1, 10;\nmov.u64 %rd2, 0;\nrem.s64 %rd3, %rd1, %rd2;").run();
        assertEquals(List.of("divide-by-zero"), codes(r));
    }

    @Test
    void divisionByZeroNamesTheThreadThatDividedNotTheFirstLane() {
        // Only lane 3 divides by zero; lanes 0-2 and 4-31 divide by one.
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, %laneid;\nsetp.eq.u32 %p1, %r1, 3;\nselp.u32 %r2, 0, 1, %p1;\n"
                + "div.u32 %r3, 100, %r2;").threads(32).run();
        assertEquals(List.of("divide-by-zero"), codes(r));
        assertEquals(List.of(3), r.interpreter().diagnostics().get(0).threads(), r.summary());
    }

    @Test
    void minMaxAbsNeg() {
        LaunchedRun r = ExecKernel.of("mov.s32 %r1, -5;\nmov.s32 %r2, 3;\nmin.s32 %r3, %r1, %r2;\n" + w(0, "%r3")
                + "max.s32 %r4, %r1, %r2;\n" + w(1, "%r4") + "min.u32 %r5, %r1, %r2;\n" + w(2, "%r5")
                + "max.u32 %r6, %r1, %r2;\n" + w(3, "%r6") + "abs.s32 %r7, %r1;\n" + w(4, "%r7") + "neg.s32 %r8, %r2;\n"
                + w(5, "%r8") + "mov.s32 %r9, -2147483648;\nabs.s32 %r10, %r9;\n" + w(6, "%r10")
                + "mov.b64 %rd1, -9;\nmin.s64 %rd2, %rd1, 4;\n" + x(0, "%rd2") + "max.u64 %rd3, %rd1, 4;\n" + x(1, "%rd3")
                + "abs.s64 %rd4, %rd1;\n" + x(2, "%rd4") + "neg.s64 %rd5, %rd1;\n" + x(3, "%rd5")
                + "mov.s16 %h1, -300;\nabs.s16 %h2, %h1;\nst.global.u16 [%rd40+28], %h2;\n").ok();
        assertEquals(u32(-5), w(r, 0));
        assertEquals(3L, w(r, 1));
        assertEquals(3L, w(r, 2));
        assertEquals(u32(-5), w(r, 3));
        assertEquals(5L, w(r, 4));
        assertEquals(u32(-3), w(r, 5));
        assertEquals(u32(Integer.MIN_VALUE), w(r, 6)); // abs of the most negative value is itself
        assertEquals(-9L, x(r, 0));
        assertEquals(-9L, x(r, 1));
        assertEquals(9L, x(r, 2));
        assertEquals(9L, x(r, 3));
        assertEquals(300L, w(r, 7));
    }

    @Test
    void logicOps() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0xf0f0ff00;\nmov.b32 %r2, 0x3c3c0ff0;\nand.b32 %r3, %r1, %r2;\n" + w(0, "%r3")
                + "or.b32 %r4, %r1, %r2;\n" + w(1, "%r4") + "xor.b32 %r5, %r1, %r2;\n" + w(2, "%r5") + "not.b32 %r6, %r1;\n"
                + w(3, "%r6") + "cnot.b32 %r7, %r1;\n" + w(4, "%r7") + "cnot.b32 %r8, 0;\n" + w(5, "%r8")
                + "mov.b64 %rd1, 0x00ff00ff00ff00ff;\nnot.b64 %rd2, %rd1;\n" + x(0, "%rd2") + "xor.b64 %rd3, %rd1, -1;\n"
                + x(1, "%rd3") + "setp.eq.u32 %p1, 1, 1;\nnot.pred %p2, %p1;\n" + ExecKernel.wp(6, "%p2")
                + "and.pred %p3, %p1, %p2;\n" + ExecKernel.wp(7, "%p3") + "or.pred %p4, %p1, %p2;\n" + ExecKernel.wp(8, "%p4")
                + "xor.pred %p5, %p1, %p1;\n" + ExecKernel.wp(9, "%p5")).ok();
        int a = 0xf0f0ff00;
        int b = 0x3c3c0ff0;
        assertEquals(u32(a & b), w(r, 0));
        assertEquals(u32(a | b), w(r, 1));
        assertEquals(u32(a ^ b), w(r, 2));
        assertEquals(u32(~a), w(r, 3));
        assertEquals(0L, w(r, 4));
        assertEquals(1L, w(r, 5));
        assertEquals(~0x00ff00ff00ff00ffL, x(r, 0));
        assertEquals(~0x00ff00ff00ff00ffL, x(r, 1));
        assertEquals(List.of(0L, 0L, 1L, 0L), List.of(w(r, 6), w(r, 7), w(r, 8), w(r, 9)));
    }

    @Test
    void shiftsByTheWidthOrMoreClampInsteadOfWrapping() {
        // PTX: shift amounts greater than the register width are clamped to N (not taken mod N as in C/Java).
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x80000001;\nmov.u32 %r9, 32;\nmov.u32 %r10, 40;\nmov.u32 %r11, -1;\n"
                + "shl.b32 %r2, %r1, 31;\n" + w(0, "%r2") + "shl.b32 %r3, %r1, %r9;\n" + w(1, "%r3")
                + "shl.b32 %r4, %r1, %r10;\n" + w(2, "%r4") + "shr.u32 %r5, %r1, %r9;\n" + w(3, "%r5")
                + "shr.s32 %r6, %r1, %r10;\n" + w(4, "%r6") + "shr.s32 %r7, %r1, 4;\n" + w(5, "%r7")
                + "shr.b32 %r8, %r1, 4;\n" + w(6, "%r8") + "shr.s32 %r12, %r1, %r11;\n" + w(7, "%r12")
                + "shr.u32 %r13, 0x7fffffff, %r11;\n" + w(8, "%r13")
                + "mov.b64 %rd1, 0x8000000000000001;\nmov.u32 %r14, 64;\nshl.b64 %rd2, %rd1, %r14;\n" + x(0, "%rd2")
                + "shr.s64 %rd3, %rd1, %r14;\n" + x(1, "%rd3") + "shr.u64 %rd4, %rd1, 63;\n" + x(2, "%rd4")
                + "shl.b64 %rd5, %rd1, 63;\n" + x(3, "%rd5") + "mov.u32 %r15, 16;\nmov.b16 %h1, 0x8001;\n"
                + "shl.b16 %h2, %h1, %r15;\nst.global.u16 [%rd40+36], %h2;\nshr.s16 %h3, %h1, %r15;\n"
                + "st.global.u16 [%rd40+40], %h3;\n").ok();
        int a = 0x80000001;
        assertEquals(u32(a << 31), w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(0L, w(r, 2));
        assertEquals(0L, w(r, 3));
        assertEquals(0xFFFFFFFFL, w(r, 4));
        assertEquals(u32(a >> 4), w(r, 5));
        assertEquals(u32(a >>> 4), w(r, 6));
        assertEquals(0xFFFFFFFFL, w(r, 7));
        assertEquals(0L, w(r, 8));
        assertEquals(0L, x(r, 0));
        assertEquals(-1L, x(r, 1));
        assertEquals(1L, x(r, 2));
        assertEquals(0x8000000000000000L, x(r, 3));
        assertEquals(0L, w(r, 9));
        assertEquals(0xFFFFL, w(r, 10));
    }

    @Test
    void popcClzBrev() {
        int a = 0x00f01234;
        long b = 0x0000f00000001234L;
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, " + a + ";\nmov.b64 %rd1, " + b + ";\npopc.b32 %r2, %r1;\n" + w(0, "%r2")
                + "popc.b64 %r3, %rd1;\n" + w(1, "%r3") + "clz.b32 %r4, %r1;\n" + w(2, "%r4") + "clz.b64 %r5, %rd1;\n"
                + w(3, "%r5") + "clz.b32 %r6, 0;\n" + w(4, "%r6") + "brev.b32 %r7, %r1;\n" + w(5, "%r7")
                + "brev.b64 %rd2, %rd1;\n" + x(0, "%rd2") + "popc.b32 %r8, -1;\n" + w(6, "%r8")).ok();
        assertEquals(Integer.bitCount(a), w(r, 0));
        assertEquals(Long.bitCount(b), w(r, 1));
        assertEquals(Integer.numberOfLeadingZeros(a), w(r, 2));
        assertEquals(Long.numberOfLeadingZeros(b), w(r, 3));
        assertEquals(32L, w(r, 4));
        assertEquals(u32(Integer.reverse(a)), w(r, 5));
        assertEquals(Long.reverse(b), x(r, 0));
        assertEquals(32L, w(r, 6));
    }

    @Test
    void bfindFindsTheMostSignificantNonSignBit() {
        LaunchedRun r = ExecKernel.of("bfind.u32 %r1, 0x00012345;\n" + w(0, "%r1") + "bfind.u32 %r2, 0;\n" + w(1, "%r2")
                + "bfind.s32 %r3, -100;\n" + w(2, "%r3") + "bfind.s32 %r4, -1;\n" + w(3, "%r4")
                + "bfind.shiftamt.u32 %r5, 0x00012345;\n" + w(4, "%r5") + "bfind.shiftamt.u32 %r6, 0;\n" + w(5, "%r6")
                + "mov.b64 %rd1, 0x0000400000000000;\nbfind.u64 %r7, %rd1;\n" + w(6, "%r7")
                + "bfind.shiftamt.u64 %r8, %rd1;\n" + w(7, "%r8") + "mov.b64 %rd2, -0x10000000000;\nbfind.s64 %r9, %rd2;\n"
                + w(8, "%r9")).ok();
        assertEquals(31L - Integer.numberOfLeadingZeros(0x12345), w(r, 0));
        assertEquals(0xFFFFFFFFL, w(r, 1));
        assertEquals(31L - Integer.numberOfLeadingZeros(~(-100)), w(r, 2)); // first bit that differs from the sign
        assertEquals(0xFFFFFFFFL, w(r, 3));
        assertEquals((long) Integer.numberOfLeadingZeros(0x12345), w(r, 4)); // .shiftamt: 31 - position
        assertEquals(0xFFFFFFFFL, w(r, 5));
        assertEquals(46L, w(r, 6));
        assertEquals(63L - 46, w(r, 7));
        assertEquals(63L - Long.numberOfLeadingZeros(~(-0x10000000000L)), w(r, 8));
    }

    /** bfe as the ISA's pseudocode states it, bit by bit. */
    private static long bfeModel(long a, int pos, int len, int bits, boolean signed) {
        int msb = bits - 1;
        pos &= 0xff;
        len &= 0xff;
        long sbit = (!signed || len == 0) ? 0 : (a >>> Math.min(pos + len - 1, msb)) & 1;
        long d = 0;
        for (int i = 0; i <= msb; i++) {
            long bit = (i < len && pos + i <= msb) ? (a >>> (pos + i)) & 1 : sbit;
            d |= bit << i;
        }
        return d;
    }

    @Test
    void bfeExtractsFieldsWithSignOrZeroFill() {
        int[][] cases = {{4, 8}, {28, 8}, {0, 32}, {31, 1}, {8, 0}, {40, 5}, {20, 200}, {0, 255}};
        int a32 = 0x9abcdef5;
        long a64 = 0x9abcdef012345678L;
        StringBuilder body = new StringBuilder("mov.b32 %r1, " + u32(a32) + ";\nmov.b64 %rd1, " + a64 + ";\n");
        for (int i = 0; i < cases.length; i++) {
            int pos = cases[i][0];
            int len = cases[i][1];
            body.append("bfe.u32 %r2, %r1, ").append(pos).append(", ").append(len).append(";\n").append(w(2 * i, "%r2"));
            body.append("bfe.s32 %r3, %r1, ").append(pos).append(", ").append(len).append(";\n").append(w(2 * i + 1, "%r3"));
            body.append("bfe.u64 %rd2, %rd1, ").append(pos).append(", ").append(len).append(";\n").append(x(2 * i, "%rd2"));
            body.append("bfe.s64 %rd3, %rd1, ").append(pos).append(", ").append(len).append(";\n").append(x(2 * i + 1, "%rd3"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        for (int i = 0; i < cases.length; i++) {
            int pos = cases[i][0];
            int len = cases[i][1];
            String c = "pos " + pos + " len " + len;
            assertEquals(bfeModel(a32 & 0xFFFFFFFFL, pos, len, 32, false), w(r, 2 * i), "u32 " + c);
            assertEquals(bfeModel(a32 & 0xFFFFFFFFL, pos, len, 32, true), w(r, 2 * i + 1), "s32 " + c);
            assertEquals(bfeModel(a64, pos, len, 64, false), x(r, 2 * i), "u64 " + c);
            assertEquals(bfeModel(a64, pos, len, 64, true), x(r, 2 * i + 1), "s64 " + c);
        }
    }

    private static long bfiModel(long a, long b, int pos, int len, int bits) {
        long f = b;
        for (int i = 0; i < len && pos + i <= bits - 1; i++) {
            long bit = (a >>> i) & 1;
            f = (f & ~(1L << (pos + i))) | (bit << (pos + i));
        }
        return bits == 32 ? f & 0xFFFFFFFFL : f;
    }

    @Test
    void bfiInsertsFields() {
        int[][] cases = {{4, 8}, {28, 8}, {0, 32}, {8, 0}, {40, 4}, {60, 10}};
        StringBuilder body = new StringBuilder("mov.b32 %r1, 0x12345;\nmov.b32 %r2, 0xf0f0f0f0;\n"
                + "mov.b64 %rd1, 0x123456789;\nmov.b64 %rd2, 0x0f0f0f0f0f0f0f0f;\n");
        for (int i = 0; i < cases.length; i++) {
            body.append("bfi.b32 %r3, %r1, %r2, ").append(cases[i][0]).append(", ").append(cases[i][1]).append(";\n")
                    .append(w(i, "%r3"));
            body.append("bfi.b64 %rd3, %rd1, %rd2, ").append(cases[i][0]).append(", ").append(cases[i][1]).append(";\n")
                    .append(x(i, "%rd3"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        for (int i = 0; i < cases.length; i++) {
            assertEquals(bfiModel(0x12345, 0xf0f0f0f0L, cases[i][0], cases[i][1], 32), w(r, i), "b32 case " + i);
            assertEquals(bfiModel(0x123456789L, 0x0f0f0f0f0f0f0f0fL, cases[i][0], cases[i][1], 64), x(r, i), "b64 case " + i);
        }
    }

    @Test
    void prmtSelectsAndSignReplicatesBytes() {
        int a = 0x8844cc22;
        int b = 0x11ff7700;
        int[] selectors = {0x3210, 0x7654, 0x0123, 0x4444, 0x89ab, 0xcdef, 0x5140, 0x00008000};
        StringBuilder body = new StringBuilder("mov.b32 %r1, " + u32(a) + ";\nmov.b32 %r2, " + b + ";\n");
        for (int i = 0; i < selectors.length; i++) {
            body.append("prmt.b32 %r3, %r1, %r2, ").append(selectors[i]).append(";\n").append(w(i, "%r3"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        long src = (a & 0xFFFFFFFFL) | ((b & 0xFFFFFFFFL) << 32); // bytes 0-3 from a, 4-7 from b
        for (int i = 0; i < selectors.length; i++) {
            long d = 0;
            for (int k = 0; k < 4; k++) {
                int n = (selectors[i] >> (4 * k)) & 0xf;
                long byt = (src >>> (8 * (n & 7))) & 0xff;
                if ((n & 8) != 0) byt = (byt & 0x80) != 0 ? 0xff : 0;
                d |= byt << (8 * k);
            }
            assertEquals(d, w(r, i), "selector " + Integer.toHexString(selectors[i]));
        }
    }

    @Test
    void shfFunnelShiftsWrapAndClamp() {
        int lo = 0x89abcdef;
        int hi = 0x01234567;
        int[] ns = {0, 4, 31, 32, 36, 100};
        StringBuilder body = new StringBuilder("mov.b32 %r1, " + u32(lo) + ";\nmov.b32 %r2, " + hi + ";\n");
        for (int i = 0; i < ns.length; i++) {
            body.append("shf.l.wrap.b32 %r3, %r1, %r2, ").append(ns[i]).append(";\n").append(w(4 * i, "%r3"));
            body.append("shf.l.clamp.b32 %r3, %r1, %r2, ").append(ns[i]).append(";\n").append(w(4 * i + 1, "%r3"));
            body.append("shf.r.wrap.b32 %r3, %r1, %r2, ").append(ns[i]).append(";\n").append(w(4 * i + 2, "%r3"));
            body.append("shf.r.clamp.b32 %r3, %r1, %r2, ").append(ns[i]).append(";\n").append(w(4 * i + 3, "%r3"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        BigInteger cat = BigInteger.valueOf(hi & 0xFFFFFFFFL).shiftLeft(32).or(BigInteger.valueOf(lo & 0xFFFFFFFFL));
        BigInteger mask32 = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
        for (int i = 0; i < ns.length; i++) {
            int wrap = ns[i] & 31;
            int clamp = Math.min(ns[i], 32);
            assertEquals(cat.shiftLeft(wrap).shiftRight(32).and(mask32).longValue(), w(r, 4 * i), "l.wrap " + ns[i]);
            assertEquals(cat.shiftLeft(clamp).shiftRight(32).and(mask32).longValue(), w(r, 4 * i + 1), "l.clamp " + ns[i]);
            assertEquals(cat.shiftRight(wrap).and(mask32).longValue(), w(r, 4 * i + 2), "r.wrap " + ns[i]);
            assertEquals(cat.shiftRight(clamp).and(mask32).longValue(), w(r, 4 * i + 3), "r.clamp " + ns[i]);
        }
    }

    @Test
    void lop3AppliesTheTruthTable() {
        int a = 0xf0f0aa55;
        int b = 0xcccc0ff0;
        int c = 0xaaaa3c3c;
        int[] luts = {0x96, 0xe8, 0xf0, 0x80, 0xfe, 0x1a, 0x00, 0xff};
        StringBuilder body = new StringBuilder("mov.b32 %r1, " + u32(a) + ";\nmov.b32 %r2, " + u32(b) + ";\nmov.b32 %r3, "
                + u32(c) + ";\n");
        for (int i = 0; i < luts.length; i++) body.append("lop3.b32 %r4, %r1, %r2, %r3, ").append(luts[i]).append(";\n").append(w(i, "%r4"));
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        assertEquals(u32(a ^ b ^ c), w(r, 0));
        assertEquals(u32((a & b) | (a & c) | (b & c)), w(r, 1));
        assertEquals(u32(a), w(r, 2));
        assertEquals(u32(a & b & c), w(r, 3));
        assertEquals(u32(a | b | c), w(r, 4));
        // 0x1a = (a & ~b & ~c) | ... evaluate with the ta/tb/tc constants: 0xF0, 0xCC, 0xAA
        int lut = 0x1a;
        int expect = 0;
        for (int bit = 0; bit < 32; bit++) {
            int idx = (((a >>> bit) & 1) << 2) | (((b >>> bit) & 1) << 1) | ((c >>> bit) & 1);
            expect |= ((lut >>> idx) & 1) << bit;
        }
        assertEquals(u32(expect), w(r, 5));
        assertEquals(0L, w(r, 6));
        assertEquals(0xFFFFFFFFL, w(r, 7));
        assertTrue(((0xF0 ^ 0xCC ^ 0xAA) & 0xff) == 0x96, "the ISA's example LUT for a^b^c");
    }

    @Test
    void mul24UsesThe24BitOperandsBySignedness() {
        // mul24.lo: low 32 bits of a[23:0] * b[23:0]; mul24.hi: bits 47..16. .u32 zero-extends, .s32 sign-extends.
        int a = 0x00c00003; // bit 23 set
        int b = 0x00800005;
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, " + a + ";\nmov.b32 %r2, " + b + ";\n"
                + "mul24.lo.u32 %r3, %r1, %r2;\n" + w(0, "%r3") + "mul24.hi.u32 %r4, %r1, %r2;\n" + w(1, "%r4")
                + "mul24.lo.s32 %r5, %r1, %r2;\n" + w(2, "%r5") + "mul24.hi.s32 %r6, %r1, %r2;\n" + w(3, "%r6")
                + "mad24.lo.u32 %r7, %r1, %r2, 9;\n" + w(4, "%r7") + "mad24.hi.u32 %r8, %r1, %r2, 9;\n" + w(5, "%r8")).ok();
        long ua = a & 0xFFFFFF;
        long ub = b & 0xFFFFFF;
        long sa = (a << 8) >> 8;
        long sb = (b << 8) >> 8;
        assertEquals((ua * ub) & 0xFFFFFFFFL, w(r, 0));
        assertEquals(((ua * ub) >>> 16) & 0xFFFFFFFFL, w(r, 1));
        assertEquals((sa * sb) & 0xFFFFFFFFL, w(r, 2));
        assertEquals(((sa * sb) >> 16) & 0xFFFFFFFFL, w(r, 3));
        assertEquals((ua * ub + 9) & 0xFFFFFFFFL, w(r, 4));
        assertEquals((((ua * ub) >>> 16) + 9) & 0xFFFFFFFFL, w(r, 5));
    }

    @Test
    void minMaxReluClampNegativeResultsToZero() {
        // PTX ISA 8.0: min.relu / max.relu on .s32 return max(result, 0).
        LaunchedRun r = ExecKernel.of("mov.s32 %r1, -5;\nmov.s32 %r2, -3;\nmax.relu.s32 %r3, %r1, %r2;\n" + w(0, "%r3")
                + "min.relu.s32 %r4, %r1, 7;\n" + w(1, "%r4") + "max.relu.s32 %r5, %r1, 7;\n" + w(2, "%r5")).ok();
        assertEquals(0L, w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(7L, w(r, 2));
    }

    @Test
    void madHiSatSaturatesTheSum() {
        // (0x7fffffff * 0x7fffffff) >> 32 = 0x3fffffff; + 0x7fffffff overflows s32 and saturates.
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x7fffffff;\nmad.hi.sat.s32 %r2, %r1, %r1, %r1;\n" + w(0, "%r2")
                + "mov.b32 %r3, -0x7fffffff;\nmad.hi.sat.s32 %r4, %r1, %r3, %r3;\n" + w(1, "%r4")
                + "mad.hi.sat.s32 %r5, %r1, %r1, -5;\n" + w(2, "%r5")).ok();
        long hi = (0x7fffffffL * 0x7fffffffL) >> 32;
        assertEquals(u32(Integer.MAX_VALUE), w(r, 0));
        assertEquals(u32(Integer.MIN_VALUE), w(r, 1));
        assertEquals(u32((int) (hi - 5)), w(r, 2));
    }
}
