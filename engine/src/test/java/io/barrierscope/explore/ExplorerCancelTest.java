package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window's hooks: progress after every schedule counted, and a cancel honoured between schedules. */
class ExplorerCancelTest {
    private static LaunchedRun fresh() {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .shared .align 4 .b32 s[128];
                mov.u32 %r1, %tid.x;
                shl.b32 %r2, %r1, 2;
                mov.u32 %r3, s;
                add.u32 %r3, %r3, %r2;
                st.shared.u32 [%r3], %r1;
                bar.sync 0;
                xor.b32 %r4, %r2, 4;
                mov.u32 %r6, s;
                add.u32 %r6, %r6, %r4;
                ld.shared.u32 %r7, [%r6];
                ret;
                """).threads(128).launch(new SchedulePolicy());
    }

    @Test
    void progressCountsEverySchedule() {
        Explorer ex = new Explorer(fresh(), () -> 0L);
        List<Long> seen = new ArrayList<>();
        ex.onProgress((n, findings) -> seen.add(n));
        Explorer.Result r = ex.explore(new Explorer.Options(40, 0, 0, 2, 100_000));
        assertEquals(r.coverage().schedules(), seen.size());
        assertEquals(r.coverage().schedules(), (long) seen.get(seen.size() - 1));
    }

    @Test
    void aCancelStopsBeforeTheNextScheduleAndSaysSo() {
        Explorer ex = new Explorer(fresh(), () -> 0L);
        ex.onProgress((n, findings) -> {
            if (n == 5) ex.cancel();
        });
        Explorer.Result r = ex.explore(new Explorer.Options(1000, 0, 0, 3, 100_000));
        assertEquals(Coverage.CANCELLED, r.coverage().stoppedBy());
        assertTrue(r.coverage().schedules() >= 5 && r.coverage().schedules() <= 6, "" + r.coverage().schedules());
    }
}
