package io.barrierscope.app.session;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.trace.TimeTravel;

/**
 * The step that last wrote a buffer element before the state shown. The recording keeps no index of
 * memory writes, so this re-executes: it seeks back at most {@link #BOUND} steps (from a checkpoint, as
 * every backward move does) and steps forward to where it was with the global memory's write watch on,
 * keeping the last step whose write touched the element. Then it is back where it started. Engine thread only.
 */
final class LastWriter {
    /** Warp steps searched back; further back is reported as not found in that window. */
    static final long BOUND = 100_000;

    /**
     * @param step the step to go to: the state right after the write (-1 when none was found)
     * @param warp the warp that wrote (-1 when none was found)
     * @param text what to tell the user
     */
    record Result(long step, int warp, String text) {
        boolean found() { return step >= 0; }
    }

    private LastWriter() {}

    static Result find(TimeTravel tt, String buffer, long index, long bound) {
        long now = tt.now();
        ScalarType type = GlobalMemoryCapture.types(tt.run()).get(buffer);
        GlobalMemory g = tt.run().machine().memory.global;
        GlobalMemory.Segment seg = g.byName(buffer);
        String what = buffer + "[" + index + "]";
        if (type == null || seg == null) return new Result(-1, -1, "No buffer named " + buffer);
        long from = (long) index * type.bytes();
        long to = from + type.bytes();
        if (index < 0 || to > seg.data().length) return new Result(-1, -1, what + " is outside the buffer");
        long start = Math.max(0, now - bound);
        long[] last = {-1};
        int[] warp = {-1};
        boolean[] wrote = {false};
        try {
            tt.seek(start);
            tt.breakpoints().mute(true); // the replay stops nowhere (a seek unmutes when it is done)
            g.watchWrites((s, off, size) -> {
                if (s.name().equals(buffer) && off < to && off + size > from) wrote[0] = true;
            });
            while (tt.now() < now && !tt.atEnd()) {
                long before = tt.now();
                wrote[0] = false;
                tt.step();
                // The write belongs to the warp step just taken: the state after it is the first that holds it.
                if (wrote[0]) {
                    last[0] = tt.now();
                    warp[0] = tt.lastWarp();
                }
                if (tt.now() == before) break; // nothing moved: the end was settled
            }
        } finally {
            g.watchWrites(null);
            tt.breakpoints().mute(false);
            tt.seek(now);
        }
        if (last[0] < 0) {
            return new Result(-1, -1, start == 0 ? "No step up to " + now + " wrote " + what + " (it holds its initial value)"
                    : "No write to " + what + " in the " + bound + " steps before step " + now + " (searched back to step " + start + ")");
        }
        return new Result(last[0], warp[0], what + " was last written at step " + last[0] + (warp[0] >= 0 ? " by warp " + warp[0] : ""));
    }
}
