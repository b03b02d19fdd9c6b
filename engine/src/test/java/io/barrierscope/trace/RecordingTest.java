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
    /** A synthetic run: full-warp steps, some partial and guarded ones, sync and status events, jumps. */
    private static Recording synthetic(int steps) {
        Recording r = new Recording(64);
        long cycles = 0;
        for (int s = 0; s < steps; s++) {
            if (s % 97 == 5) r.sync(s, SyncEvent.MBAR_COMPLETE_TX.ordinal(), -1, (3L << 32) | 0x18, 4096, 0);
            int warp = s % 64;
            if (s % 13 == 0) r.warpStep(s, warp, 100 + s % 50, 0x0000FFFF, 0x0000FFFF);
            else if (s % 17 == 0) r.warpStep(s, warp, 100 + s % 50, -1, 0x5555);
            else r.warpStep(s, warp, 100 + s % 50, -1, -1);
            cycles++;
            if (s % 31 == 0) r.sync(s, SyncEvent.BAR_ARRIVE.ordinal(), warp << 5, (1L << 32) | 2, s / 31, -1);
            if (s % 31 == 0) r.status(s, warp << 5, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
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
        assertEquals(EventCursor.Type.WARP_STEP, c.type);
        assertEquals(0, c.step);
        assertEquals(0x0000FFFF, c.group);
        assertEquals(1, c.cycles);
        int steps = 1, arrivals = 0, status = 0;
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
        Recording r = synthetic(700_000);
        assertTrue(r.bytes() > 2L * Recording.CHUNK, "several chunks: " + r.bytes());
        EventCursor c = r.cursor(0);
        long last = -1, n = 0;
        while (c.next()) {
            assertTrue(c.step >= last);
            last = c.step;
            n++;
        }
        assertEquals(r.events(), n);
        assertEquals(r.bytes(), r.encoded().length);
    }

    /**
     * The recorder takes steps from the interpreter's step log in batches: a batch must encode to
     * exactly the bytes of the same steps recorded one by one, across chunks and index blocks, for
     * every kind of step (full, partial, guarded, wide warp numbers and PCs) and event in between.
     */
    @Test
    void batchedWarpStepsEncodeTheSameBytesAsSingleOnes() {
        Recording single = new Recording(256);
        Recording batched = new Recording(256);
        int[] w = new int[1024], pc = new int[1024], g = new int[1024], a = new int[1024];
        int n = 0;
        long first = 0;
        io.barrierscope.exec.SplitMix64 rng = new io.barrierscope.exec.SplitMix64(7);
        int steps = 600_000;
        for (int s = 0; s < steps; s++) {
            boolean event = s % 89 == 3;
            if (event || n == 1 + (int) (rng.nextLong() >>> 1) % 1024) {
                batched.warpSteps(first, n, w, pc, g, a);
                n = 0;
            }
            if (event) {
                single.sync(s, SyncEvent.BAR_ARRIVE.ordinal(), 0, 1, 2, 3);
                batched.sync(s, SyncEvent.BAR_ARRIVE.ordinal(), 0, 1, 2, 3);
                if (s % 2 == 0) {
                    // Without a status change in between, the first step after the event has step delta 0.
                    single.status(s, 40, -1, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
                    batched.status(s, 40, -1, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
                }
            }
            int warp = s % 211 == 0 ? 130 + s % 70 : s % 64;
            int p = s % 1009 == 0 ? 20_000 + s % 300 : s % 400;
            int grp = s % 37 == 0 ? 0xFFFF : -1;
            int act = s % 41 == 0 ? 0x0F0F : grp;
            single.warpStep(s, warp, p, grp, act);
            if (n == 0) first = s;
            w[n] = warp;
            pc[n] = p;
            g[n] = grp;
            a[n] = act;
            n++;
        }
        batched.warpSteps(first, n, w, pc, g, a);
        single.end(steps, Outcome.COMPLETED);
        batched.end(steps, Outcome.COMPLETED);
        assertTrue(single.bytes() > 2L * Recording.CHUNK, "several chunks: " + single.bytes());
        assertEquals(single.events(), batched.events());
        assertEquals(single.steps(), batched.steps());
        assertTrue(java.util.Arrays.equals(single.encoded(), batched.encoded()), "batched steps encode differently");
        for (long at : new long[] {0, 1023, 1024, 77_777, 599_999}) assertEquals(all(single.cursor(at)), all(batched.cursor(at)));
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
        Recording r = new Recording(2);
        for (int l = 0; l < 32; l++) r.status(4, 32 + l, ThreadStatus.BAR_WAIT, ThreadStatus.RUNNABLE);
        r.status(4, 3, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        r.status(4, 5, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        r.status(5, 6, ThreadStatus.RUNNABLE, ThreadStatus.PARKED);
        r.warpStep(5, 0, 7, -1, -1);
        EventCursor c = r.cursor(0);
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
        assertEquals(6, c.slot);
        assertEquals(1 << 6, c.lanes);
        assertEquals(5, c.step);
        assertTrue(c.next());
        assertEquals(EventCursor.Type.WARP_STEP, c.type);
        assertFalse(c.next());
        assertEquals(4, r.events());
    }

    @Test
    void aRecordingWithoutEventsHasAnEmptyCursor() {
        Recording r = new Recording(1);
        assertFalse(r.cursor(0).next());
        assertEquals(0, r.steps());
        assertFalse(r.finished());
    }
}
