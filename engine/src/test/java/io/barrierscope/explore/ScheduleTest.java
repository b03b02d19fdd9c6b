package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.StateHash;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
    /** 4 warps exchange values through shared memory around bar.sync, in a loop. */
    private static PtxRun kernel() {
        return PtxRun.kernel("""
                .reg .b32 %r<8>; .reg .pred %p;
                .shared .align 4 .b32 s[128];
                mov.u32 %r1, %tid.x;
                mov.u32 %r5, 0;
                shl.b32 %r2, %r1, 2;
                mov.u32 %r3, s;
                add.u32 %r3, %r3, %r2;
                LOOP:
                st.shared.u32 [%r3], %r1;
                bar.sync 0;
                xor.b32 %r4, %r2, 4;
                mov.u32 %r6, s;
                add.u32 %r6, %r6, %r4;
                ld.shared.u32 %r7, [%r6];
                add.u32 %r1, %r1, %r7;
                bar.sync 0;
                add.u32 %r5, %r5, 1;
                setp.lt.u32 %p, %r5, 5;
                @%p bra LOOP;
                ret;
                """).threads(128);
    }

    private static List<Long> hashes(LaunchedRun r) {
        List<Long> h = new ArrayList<>();
        h.add(StateHash.of(r.interpreter()));
        while (r.interpreter().step()) h.add(StateHash.of(r.interpreter()));
        h.add(StateHash.of(r.interpreter()));
        return h;
    }

    @Test
    void aRecordedRandomRunReplaysFromItsStringWithTheSameStateAtEveryStep() {
        SchedulePolicy rec = new SchedulePolicy();
        rec.randomize(new SplitMix64(42), 3);
        LaunchedRun a = kernel().launch(rec);
        List<Long> original = hashes(a);
        assertEquals(Outcome.COMPLETED, a.interpreter().outcome());
        String s = rec.taken().toString();
        assertTrue(s.startsWith("s1:") && s.length() > 4, s);

        SchedulePolicy replay = new SchedulePolicy(Schedule.parse(s));
        LaunchedRun b = kernel().launch(replay);
        assertEquals(original, hashes(b));
        assertEquals(0, replay.unconsumed());
        assertEquals(s, replay.taken().toString());

        // The default schedule is another run: the recording really changed decisions.
        assertNotEquals(original, hashes(kernel().launch(new SchedulePolicy())));
    }

    @Test
    void scheduleStringsRoundTrip() {
        Schedule s = Schedule.EMPTY.with(3, 'w', 2).with(4, 't', 1).with(40, 'a', 20000).with(41, 'g', 7);
        assertEquals("s1:3w2,0t1,35a20000,0g7", s.toString());
        assertEquals(s, Schedule.parse(s.toString()));
        assertEquals(Schedule.EMPTY, Schedule.parse("s1:"));
    }

    @Test
    void malformedSchedulesAreRefusedWithAClearMessage() {
        for (String bad : new String[] {"", "w3", "s2:0w1", "s1:x", "s1:3", "s1:3w", "s1:3q1", "s1:0w1,", "s1:0w1;1w2",
                "s1:0t2", "s1:0a0", "s1:0w99999999999"}) {
            BadInputException e = assertThrows(BadInputException.class, () -> Schedule.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("error: "), e.getMessage());
        }
        assertTrue(assertThrows(BadInputException.class, () -> Schedule.parse("s2:0w1")).getMessage().contains("version"));
        assertTrue(assertThrows(BadInputException.class, () -> Schedule.parse("s1:0w1x")).getMessage().contains("column 7"));
    }

    @Test
    void aScheduleThatDoesNotFitTheLaunchIsRefusedAtTheDecisionItNames() {
        // Decision 0 of this kernel is a warp choice among 4 warps: warp 9 does not exist, 'a' is the wrong kind.
        for (String s : new String[] {"s1:0w9", "s1:0a5"}) {
            LaunchedRun r = kernel().launch(new SchedulePolicy(Schedule.parse(s)));
            BadInputException e = assertThrows(BadInputException.class, () -> r.runToEnd(), s);
            assertTrue(e.getMessage().contains("does not match this launch: decision 0"), e.getMessage());
        }
        SchedulePolicy p = new SchedulePolicy(Schedule.parse("s1:999999w1"));
        LaunchedRun r = kernel().launch(p);
        r.runToEnd();
        assertEquals(1, p.unconsumed());
    }

    @Test
    void nonAsciiDigitsInAScheduleAreRefusedAtTheirColumn() {
        String prefix = Schedule.PREFIX;
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                () -> Schedule.parse(prefix + "\u0663w0"));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("column 4"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                () -> Schedule.parse(prefix + "0w\u0661"));
        org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                () -> Schedule.parse(prefix + "0w99999999999"));
    }
    @Test
    void aWarpDecisionOffersEveryRunnableWarpEvenPast64() {
        // 70 warps in 5 CTAs, all runnable at the first decision: 69 alternatives to the default, warp 69 among them.
        LaunchedRun r = PartialOrderTest.manyWarps(5, 14, false);
        SchedulePolicy p = (SchedulePolicy) r.interpreter().policy();
        List<long[]> first = new ArrayList<>();
        p.listen((idx, kind, chosen, alts, n) -> {
            if (first.isEmpty() && kind == SchedulePolicy.WARP) first.add(java.util.Arrays.copyOf(alts, n));
        }, 0);
        r.runToEnd();
        assertEquals(69, first.get(0).length);
        assertTrue(java.util.Arrays.stream(first.get(0)).anyMatch(w -> w == 69));
    }
}
