package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordingTest {
    /**
     * A synthetic run: full-warp steps, some partial and guarded ones, sync and status events, jumps.
     * As in a real run, the events of a step are recorded while it executes, before the step itself.
     */
    private static Recording synthetic(int steps) {
        Recording r = new Recording(64, 200);
        long cycles = 0;
        for (int s = 0; s < steps; s++) {
            if (s % 97 == 5) r.sync(s, SyncEvent.MBAR_COMPLETE_TX.ordinal(), -1, (3L << 32) | 0x18, 4096, 0);
            int warp = s % 64;
            if (s % 31 == 0) r.sync(s, SyncEvent.BAR_ARRIVE.ordinal(), warp << 5, (1L << 32) | 2, s / 31, -1);
            if (s % 31 == 0) r.status(s, warp << 5, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
            if (s % 13 == 0) r.warpStep(s, warp, 100 + s % 50, 0x0000FFFF, 0x0000FFFF);
            else if (s % 17 == 0) r.warpStep(s, warp, 100 + s % 50, -1, 0x5555);
            else r.warpStep(s, warp, 100 + s % 50, -1, -1);
            cycles++;
            if (s % 1000 == 999) {
                cycles += 5000;
                r.jump(s + 1, cycles);
            }
        }
        r.end(steps, Outcome.COMPLETED);
        return r;
    }

    private static List<String> all(EventCursor c) {
        List<String> out = new ArrayList<>();
        while (c.next()) out.add(c + " @" + c.cycles);
        return out;
    }

    @Test
    void eventsDecodeAsTheyWereRecorded() {
        Recording r = synthetic(200);
        EventCursor c = r.cursor(0);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.SYNC, c.type, "step 0's arrival comes before the step");
        assertEquals(0, c.step);
        assertEquals(0, c.cycles);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.STATUS, c.type);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.WARP_STEP, c.type);
        assertEquals(0, c.step);
        assertEquals(0x0000FFFF, c.group);
        assertEquals(1, c.cycles);
        int steps = 1, arrivals = 1, status = 1;
        while (c.next()) {
            switch (c.type) {
                case WARP_STEP -> {
                    assertEquals(steps % 64, c.warp);
                    assertEquals(100 + steps % 50, c.pc);
                    if (steps % 13 != 0 && steps % 17 == 0) assertEquals(0x5555, c.active);
                    steps++;
                }
                case SYNC -> {
                    if (c.kind == SyncEvent.BAR_ARRIVE) {
                        arrivals++;
                        assertEquals((1L << 32) | 2, c.object);
                        assertEquals(-1, c.b);
                    }
                }
                case STATUS -> {
                    status++;
                    assertEquals(ThreadStatus.BAR_WAIT, c.to);
                }
                case END -> assertEquals(Outcome.COMPLETED, c.outcome);
                default -> { }
            }
        }
        assertEquals(200, steps);
        assertEquals(7, arrivals);
        assertEquals(7, status);
        assertEquals(200, r.steps());
        assertTrue(r.finished());
    }

    @Test
    void aCursorAtAnyStepSeesExactlyTheTailOfAFullScan() {
        Recording r = synthetic(50_000);
        List<String> full = all(r.cursor(0));
        for (long at : new long[] {0, 1, 1023, 1024, 1025, 4096 + 7, 31_000, 49_999, 50_000}) {
            List<String> tail = all(r.cursor(at));
            int skip = full.size() - tail.size();
            assertEquals(full.subList(skip, full.size()), tail, "cursor at " + at);
            if (skip > 0) assertTrue(Long.parseLong(full.get(skip - 1).split(" ")[1]) < at);
            assertTrue(tail.isEmpty() || Long.parseLong(tail.get(0).split(" ")[1]) >= at);
        }
    }

    @Test
    void eventsSpanningManyChunksDecodeInOrder() {
        Recording r = new Recording(64, 200);
        int steps = 400_000;
        for (int s = 0; s < steps; s++) {
            r.sync(s, SyncEvent.MBAR_ARRIVE.ordinal(), s % 2048, (3L << 32) | 0x18, s, -1);
            r.warpStep(s, s % 64, s % 200, -1, -1);
        }
        r.end(steps - 1, Outcome.COMPLETED);
        assertTrue(r.bytes() - 4L * steps > 2L * Recording.CHUNK, "several chunks of encoded events: " + r.bytes());
        EventCursor c = r.cursor(0);
        long last = -1, n = 0;
        while (c.next()) {
            assertTrue(c.step >= last);
            if (c.type == EventCursor.Type.SYNC) assertEquals(c.step, c.a);
            last = c.step;
            n++;
        }
        assertEquals(r.events(), n);
        assertEquals(2L * steps + 1, n);
        assertEquals(EventCursor.Type.END, c.type);
    }

    /** Every kind of step (whole warp, part of it, guarded; any warp and PC) reads back as logged, from any position. */
    @Test
    void stepsOfEveryKindReadBackAsLoggedFromAnyPosition() {
        for (int[] shape : new int[][] {{256, 30_000}, {2048, 600_000}}) { // packed in one int; warp and PC too wide for one
            Recording r = new Recording(shape[0], shape[1]);
            io.barrierscope.exec.SplitMix64 rng = new io.barrierscope.exec.SplitMix64(7);
            int steps = 300_000;
            List<String> expected = new ArrayList<>();
            for (int s = 0; s < steps; s++) {
                int warp = (int) ((rng.nextLong() >>> 1) % shape[0]);
                int p = (int) ((rng.nextLong() >>> 1) % shape[1]);
                int grp = s % 37 == 0 ? 0xFFFF : s % 3001 == 0 ? 0 : -1;
                int act = s % 41 == 0 ? 0x0F0F : grp;
                r.warpStep(s, warp, p, grp, act);
                expected.add("step " + s + " warp " + warp + " pc " + p + " group " + Integer.toHexString(grp)
                        + (act != grp ? " active " + Integer.toHexString(act) : ""));
            }
            assertEquals(steps, r.steps());
            for (long at : new long[] {0, 1, 1023, 1024, 77_777, 299_999, 300_000}) {
                EventCursor c = r.cursor(at);
                List<String> got = new ArrayList<>();
                while (c.next()) got.add(c.toString());
                assertEquals(expected.subList((int) at, steps), got, "cursor at " + at + " of " + shape[0] + " warps");
            }
            assertEquals(expected.get(123_456).split(" ")[3], String.valueOf(r.warpOf(123_456)));
            assertEquals(expected.get(123_456).split(" ")[5], String.valueOf(r.pcOf(123_456)));
        }
    }

    /** A step already logged is a re-execution (a seek): logging it again changes nothing. */
    @Test
    void aStepLoggedAgainIsIgnored() {
        Recording r = new Recording(4, 10);
        r.warpStep(0, 1, 2, -1, -1);
        r.warpStep(1, 2, 3, -1, -1);
        r.warpStep(0, 3, 4, -1, -1);
        assertEquals(2, r.steps());
        assertEquals(1, r.warpOf(0));
        assertEquals(2, r.pcOf(0));
    }

    /**
     * The merged stream in the trace-file format, byte for byte: the events of a step before it, the
     * end after the last step, label deltas relative to the previous event of either stream.
     */
    @Test
    void theEncodedStreamMergesStepsAndEventsInTheTraceFormat() {
        Recording r = new Recording(4, 300);
        r.status(0, 1, -1, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
        r.warpStep(0, 1, 200, -1, -1);
        r.warpStep(1, 2, 5, 0xFF, 0xFF);
        r.jump(2, 40);
        r.warpStep(2, 3, 6, -1, 0x3);
        r.end(2, Outcome.COMPLETED);
        byte[] want = {
            Recording.T_STATUS_LANES, 1, -1, -1, -1, -1, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT,
            Recording.T_STEP_FULL, 1, (byte) (200 & 0x7F | 0x80), 1,
            Recording.T_STEP | 1 << 4, 2, 5, (byte) 0xFF, 0, 0, 0,
            Recording.T_JUMP | 1 << 4, 40,
            Recording.T_STEP_GUARD, 3, 6, -1, -1, -1, -1, 3, 0, 0, 0,
            Recording.T_END, (byte) Outcome.COMPLETED.ordinal(),
        };
        assertEquals(java.util.HexFormat.of().formatHex(want), java.util.HexFormat.of().formatHex(r.encoded()));
        assertEquals(6, r.events());
        EventCursor c = r.cursor(2);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.TIME_JUMP, c.type);
        assertEquals(40, c.cycles);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.WARP_STEP, c.type);
        assertEquals(41, c.cycles);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.END, c.type);
        assertFalse(c.next());
    }

    @Test
    void aTypicalRunTakesFarLessThanSixteenBytesPerEvent() {
        Recording r = synthetic(100_000);
        double perEvent = (double) r.bytes() / r.events();
        assertTrue(perEvent <= 16, "bytes per event " + perEvent);
        assertTrue(perEvent < 6, "full-warp steps dominate: " + perEvent);
    }

    @Test
    void aWarpsLanesChangingTogetherAreOneEvent() {
        Recording r = new Recording(2, 10);
        for (int s = 0; s < 4; s++) r.warpStep(s, 0, 1, -1, -1);
        for (int l = 0; l < 32; l++) r.status(4, 32 + l, ThreadStatus.BAR_WAIT, ThreadStatus.RUNNABLE);
        r.status(4, 3, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        r.status(4, 5, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        r.warpStep(4, 0, 7, -1, -1);
        r.status(5, 6, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        EventCursor c = r.cursor(4);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.STATUS, c.type);
        assertEquals(32, c.slot);
        assertEquals(-1, c.lanes);
        assertEquals(ThreadStatus.RUNNABLE, c.to);
        assertTrue(c.next());
        assertEquals(3, c.slot);
        assertEquals((1 << 3) | (1 << 5), c.lanes);
        assertEquals(4, c.step);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.WARP_STEP, c.type);
        assertEquals(4, c.step);
        assertTrue(c.next());
        assertEquals(6, c.slot);
        assertEquals(1 << 6, c.lanes);
        assertEquals(5, c.step);
        assertFalse(c.next());
        assertEquals(5 + 3, r.events());
    }

    @Test
    void aRecordingWithoutEventsHasAnEmptyCursor() {
        Recording r = new Recording(1, 1);
        assertFalse(r.cursor(0).next());
        assertEquals(0, r.steps());
        assertFalse(r.finished());
    }
}
