package io.barrierscope.exec;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one instruction sequence over many inputs, one thread per input: thread i loads a[i],
 * b[i], c[i] into %r1, %r2, %r3 (32-bit inputs) or %rd1, %rd2, %rd3 (64-bit inputs), runs the body,
 * which leaves its result in %r10 (or %rd10 with {@code wide}), and that is returned as out[i].
 */
final class LaneKernel {
    private LaneKernel() {}

    static long[] run32(String body, long[]... inputs) { return run(body, false, false, inputs); }

    static long[] run64in(String body, long[]... inputs) { return run(body, true, false, inputs); }

    static long[] run64out(String body, long[]... inputs) { return run(body, false, true, inputs); }

    static long[] run(String body, boolean wideIn, boolean wideOut, long[]... inputs) {
        return run("sm_90a", body, wideIn, wideOut, inputs);
    }

    /** As {@link #run(String, boolean, boolean, long[]...)} in a module whose {@code .target} is {@code target}. */
    static long[] run(String target, String body, boolean wideIn, boolean wideOut, long[]... inputs) {
        int n = inputs[0].length;
        if (n > 1024) throw new IllegalArgumentException("at most 1024 inputs");
        StringBuilder k = new StringBuilder("mov.u32 %r60, %tid.x;\nmul.wide.u32 %rd30, %r60, " + (wideIn ? 8 : 4) + ";\n");
        String[] names = {"a", "b", "c"};
        ExecKernel e = null;
        List<Object[]> bufs = new ArrayList<>();
        for (int i = 0; i < inputs.length; i++) {
            k.append("ld.param.u64 %rd3").append(i + 1).append(", [").append(names[i]).append("];\n")
                    .append("cvta.to.global.u64 %rd3").append(i + 1).append(", %rd3").append(i + 1).append(";\n")
                    .append("add.s64 %rd3").append(i + 1).append(", %rd3").append(i + 1).append(", %rd30;\n")
                    .append(wideIn ? "ld.global.u64 %rd" + (i + 1) : "ld.global.u32 %r" + (i + 1)).append(", [%rd3").append(i + 1)
                    .append("];\n");
            List<Number> data = new ArrayList<>();
            for (long v : inputs[i]) data.add(v);
            bufs.add(new Object[] {names[i], data});
        }
        k.append(body).append("\n");
        if (wideOut) {
            k.append("mul.wide.u32 %rd35, %r60, 8;\nadd.s64 %rd35, %rd41, %rd35;\nst.global.u64 [%rd35], %rd10;\n");
        } else {
            k.append("mul.wide.u32 %rd35, %r60, 4;\nadd.s64 %rd35, %rd40, %rd35;\nst.global.u32 [%rd35], %r10;\n");
        }
        e = ExecKernel.of(k.toString()).target(target).threads(n).wSlots(Math.max(64, n));
        for (Object[] b : bufs) {
            @SuppressWarnings("unchecked")
            List<Number> data = (List<Number>) b[1];
            e.buffer((String) b[0], wideIn ? ScalarType.U64 : ScalarType.U32, data);
        }
        if (wideOut && n > 64) throw new IllegalArgumentException("x holds 64 results");
        LaunchedRun r = e.ok();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = wideOut ? ExecKernel.x(r, i) : ExecKernel.w(r, i);
        return out;
    }
}
