package io.barrierscope.exec;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs many video instructions over many operand triples in one kernel: thread t loads a, b, c
 * into %r1, %r2, %r3 from its three words of {@code in}; each instruction writes %r4, stored to
 * w[t * K + k]. Operands are random with a fixed seed, biased towards the edges of bytes,
 * half-words and words, and towards small values (shift amounts) in some threads.
 */
final class VideoBatch {
    private VideoBatch() {}

    static final int THREADS = 32;

    /** THREADS operand triples {a, b, c}. */
    static long[][] operands(SplittableRandom r) {
        long[] edges = {0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFFL, 0x80000000L, 0xFFFFFFFFL, 0xFFFFFFFEL, 31, 32, 33};
        long[][] out = new long[THREADS][3];
        for (int t = 0; t < THREADS; t++) {
            for (int k = 0; k < 3; k++) {
                long v;
                switch (r.nextInt(5)) {
                    case 0 -> v = edges[r.nextInt(edges.length)];
                    case 1 -> {
                        byte[] bs = {0, 1, 0x7F, (byte) 0x80, (byte) 0xFF, (byte) r.nextInt()};
                        v = 0;
                        for (int i = 0; i < 4; i++) v |= (bs[r.nextInt(bs.length)] & 0xFFL) << (8 * i);
                    }
                    case 2 -> v = r.nextInt(40); // shift amounts around 32
                    default -> v = r.nextLong() & 0xFFFFFFFFL;
                }
                out[t][k] = v;
            }
        }
        return out;
    }

    /** results[k][t]: what instruction k wrote for thread t's operands. */
    static long[][] run(List<String> insns, long[][] ops) {
        int n = insns.size();
        List<Number> in = new ArrayList<>();
        for (long[] o : ops) for (long v : o) in.add(v);
        StringBuilder body = new StringBuilder();
        body.append("mov.u32 %r60, %tid.x;\nld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd1, %rd1;\n")
                .append("mul.wide.u32 %rd2, %r60, 12;\nadd.s64 %rd2, %rd1, %rd2;\n")
                .append("ld.global.u32 %r1, [%rd2];\nld.global.u32 %r2, [%rd2+4];\nld.global.u32 %r3, [%rd2+8];\n")
                .append("mul.wide.u32 %rd3, %r60, ").append(4 * n).append(";\nadd.s64 %rd3, %rd40, %rd3;\n");
        for (int k = 0; k < n; k++) body.append(insns.get(k)).append("\nst.global.u32 [%rd3+").append(4 * k).append("], %r4;\n");
        LaunchedRun run = ExecKernel.of(body.toString()).buffer("in", ScalarType.U32, in).threads(ops.length).wSlots(n * ops.length).ok();
        long[][] res = new long[n][ops.length];
        for (int k = 0; k < n; k++) for (int t = 0; t < ops.length; t++) res[k][t] = ExecKernel.w(run, t * n + k);
        return res;
    }
}
