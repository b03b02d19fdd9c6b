package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A converged full warp executes integer arithmetic, comparisons and 4-byte shared accesses
 * through warp-wide loops; a partial warp lane by lane. Both must give what the ISA says, so
 * the same per-lane instructions run with 32 threads and with 31, on operands chosen for the
 * edges (shift amounts at and past the width, sign bits, unsigned order), against Java.
 */
class WarpWideOpsTest {
    private static final long[] A = new long[32];
    private static final long[] B = new long[32];

    static {
        long[] edges = {0, 1, -1, 0x7fffffffL, 0x80000000L, 0xffffffffL, Long.MIN_VALUE, Long.MAX_VALUE,
                0x123456789abcdef0L, -123456789L, 31, 32, 33, 63, 64, 65};
        for (int l = 0; l < 32; l++) {
            A[l] = l < 16 ? edges[l] : 0x9E3779B97F4A7C15L * (l + 1);
            B[l] = l < 16 ? edges[15 - l] : (l - 16) * 5L; // shift amounts 0..75 on the upper lanes
        }
    }

    private static final int K = 24;

    private static String body() {
        StringBuilder s = new StringBuilder();
        s.append("mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd1, %r1, 8;\n");
        s.append("ld.param.u64 %rd2, [in];\ncvta.to.global.u64 %rd2, %rd2;\nadd.s64 %rd3, %rd2, %rd1;\n");
        s.append("ld.global.u64 %rd4, [%rd3];\nld.global.u64 %rd5, [%rd3+256];\n");
        s.append("cvt.u32.u64 %r2, %rd4;\ncvt.u32.u64 %r3, %rd5;\n");
        s.append("ld.param.u64 %rd6, [out];\ncvta.to.global.u64 %rd6, %rd6;\nmul.wide.u32 %rd7, %r1, " + 8 * K + ";\n");
        s.append("add.s64 %rd8, %rd6, %rd7;\n");
        String[] ops = {
            "shl.b32 %r10, %r2, %r3;", "shr.u32 %r10, %r2, %r3;", "shr.s32 %r10, %r2, %r3;",
            "shl.b64 %rd10, %rd4, %r3;", "shr.u64 %rd10, %rd4, %r3;", "shr.s64 %rd10, %rd4, %r3;",
            "mul.lo.s32 %r10, %r2, %r3;", "mul.wide.s32 %rd10, %r2, %r3;", "mul.wide.u32 %rd10, %r2, %r3;",
            "mad.lo.s32 %r10, %r2, %r3, %r2;", "mad.wide.s32 %rd10, %r2, %r3, %rd4;", "mad.wide.u32 %rd10, %r2, %r3, %rd5;",
            "setp.lo.u32 %p1, %r2, %r3;", "setp.hs.u64 %p1, %rd4, %rd5;", "setp.lt.s32 %p1, %r2, %r3;",
            "setp.ge.s64 %p1, %rd4, %rd5;", "setp.ne.u32 %p2|%p1, %r2, %r3;", "shr.s32 %r10, %r2, 7;",
            "mad.lo.s32 %r10, %r2, 3, %r3;",
            "mov.b64 %rd10, %rd5;", "mov.u32 %r10, -7;",
            "setp.lt.u32 %p3, %r2, %r3;\nselp.b32 %r10, %r2, %r3, %p3;", "setp.lt.u32 %p3, %r2, %r3;\nselp.u64 %rd10, 5, %rd4, %p3;",
        };
        for (int k = 0; k < ops.length; k++) {
            s.append(ops[k]).append('\n');
            if (ops[k].startsWith("setp") && !ops[k].contains("selp")) s.append("selp.u32 %r10, 1, 0, %p1;\n");
            s.append(ops[k].contains("%rd10") ? "st.global.u64 [%rd8+" + 8 * k + "], %rd10;\n"
                    : "st.global.u32 [%rd8+" + 8 * k + "], %r10;\n");
        }
        // Shared: each lane stores its word, then loads its neighbour's sign-extended into 64 bits.
        s.append("mov.u32 %r20, sh;\nshl.b32 %r21, %r1, 2;\nadd.s32 %r22, %r20, %r21;\nst.shared.u32 [%r22], %r2;\n");
        s.append("bar.sync 0;\nmov.u32 %r26, %ntid.x;\nadd.s32 %r23, %r1, 1;\nrem.u32 %r23, %r23, %r26;\nshl.b32 %r24, %r23, 2;\n");
        s.append("add.s32 %r25, %r20, %r24;\nld.shared.s32 %rd11, [%r25];\nst.global.u64 [%rd8+" + 8 * (K - 1) + "], %rd11;\n");
        return s.toString();
    }

    private static List<Long> run(int threads) {
        List<Number> in = new ArrayList<>();
        for (long v : A) in.add(v);
        for (long v : B) in.add(v);
        List<Number> zero = new ArrayList<>();
        for (int i = 0; i < 32 * K; i++) zero.add(0L);
        LaunchedRun r = ExecKernel.of(body()).header(".shared .align 4 .b8 sh[128];").threads(threads).buffer("in", ScalarType.U64, in)
                .buffer("out", ScalarType.U64, zero).ok();
        return r.buffers().get("out").stream().map(Number::longValue).toList();
    }

    private static long u32(long v) { return v & 0xFFFFFFFFL; }

    private static long shr32s(long a, long b) { return u32((long) (int) a >> Math.min(u32(b), 63)); }

    /** What the ISA gives lane {@code l} for result {@code k} (threads: the block size). */
    private static long expected(int l, int k, int threads) {
        long a = A[l], b = B[l], a32 = u32(a), b32 = u32(b);
        long sh = b32;
        LongBinaryOperator lt = (x, y) -> x < y ? 1 : 0;
        return switch (k) {
            case 0 -> sh >= 32 ? 0 : u32(a32 << sh);
            case 1 -> sh >= 32 ? 0 : a32 >>> sh;
            case 2 -> shr32s(a32, b32);
            case 3 -> sh >= 64 ? 0 : a << sh;
            case 4 -> sh >= 64 ? 0 : a >>> sh;
            case 5 -> a >> Math.min(sh, 63);
            case 6 -> u32((int) a * (int) b);
            case 7 -> (long) (int) a * (int) b;
            case 8 -> a32 * b32;
            case 9 -> u32((int) a * (int) b + (int) a);
            case 10 -> (long) (int) a * (int) b + a;
            case 11 -> a32 * b32 + b;
            case 12 -> Long.compareUnsigned(a32, b32) < 0 ? 1 : 0;
            case 13 -> Long.compareUnsigned(a, b) >= 0 ? 1 : 0;
            case 14 -> lt.applyAsLong((int) a, (int) b);
            case 15 -> a >= b ? 1 : 0;
            case 16 -> a32 == b32 ? 1 : 0; // the second destination of setp.ne
            case 17 -> shr32s(a32, 7);
            case 18 -> u32((int) a * 3 + (int) b);
            case 19 -> b;
            case 20 -> u32(-7);
            case 21 -> Long.compareUnsigned(a32, b32) < 0 ? a32 : b32;
            case 22 -> Long.compareUnsigned(a32, b32) < 0 ? 5 : a;
            default -> (long) (int) A[(l + 1) % threads];
        };
    }

    @Test
    void fullAndPartialWarpsComputeWhatTheIsaSays() {
        List<Long> full = run(32);
        List<Long> partial = run(31);
        for (int l = 0; l < 32; l++) {
            for (int k = 0; k < K; k++) {
                assertEquals(expected(l, k, 32), full.get(l * K + k), "full warp, lane " + l + ", result " + k);
                if (l < 31) assertEquals(expected(l, k, 31), partial.get(l * K + k), "31 threads, lane " + l + ", result " + k);
            }
        }
    }
}
