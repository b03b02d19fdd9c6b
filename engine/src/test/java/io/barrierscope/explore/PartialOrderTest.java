package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PartialOrderTest {
    /** Each warp exchanges its warp number into one global word, then writes its own word: 3 warps, 3! orders of the exchanges. */
    private static LaunchedRun exchanges(int warps) {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                atom.global.exch.b32 %r3, [%rd1], %r2;
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2+4], %r3;
                ret;
                """).buffer("out", 1 + 32 * warps).threads(32 * warps).launch(new SchedulePolicy());
    }

    static Explorer.Result search(LaunchedRun run, boolean por, int bound, Set<String> seen) {
        Explorer ex = new Explorer(run, () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(por);
        if (seen != null) ex.onSchedule(s -> seen.add(s.toString()));
        return ex.explore(new Explorer.Options(100_000, 0, 0, bound, 100_000, false, -1));
    }

    @Test
    void probe() {
        for (boolean por : new boolean[] {false, true}) {
            Set<String> seen = new TreeSet<>();
            Explorer.Result r = search(exchanges(3), por, 8, seen);
            System.out.println("por=" + por + " " + r.coverage() + " " + r.findings());
            if (por) System.out.println(seen);
        }
    }
}
