package io.barrierscope.app.session;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Copies the launch's global buffers out of a live run. Engine thread only. */
final class GlobalMemoryCapture {
    /** Elements copied per buffer: what a table shows without a stall, whatever the launch's size. */
    static final int LIMIT = 4096;

    private GlobalMemoryCapture() {}

    static GlobalBuffers capture(LaunchedRun run, long step) {
        Map<String, ScalarType> types = types(run);
        GlobalMemory g = run.machine().memory.global;
        Map<String, Long> counts = run.bufferElements();
        List<GlobalBuffers.Buffer> out = new ArrayList<>();
        for (Map.Entry<String, List<Number>> e : run.buffers(LIMIT).entrySet()) {
            GlobalMemory.Segment s = g.byName(e.getKey());
            out.add(new GlobalBuffers.Buffer(e.getKey(), types.get(e.getKey()), s == null ? 0 : s.base(),
                    counts.getOrDefault(e.getKey(), (long) e.getValue().size()), List.copyOf(e.getValue())));
        }
        return new GlobalBuffers(step, List.copyOf(out));
    }

    /** Each buffer's element type, as the launch declares it. */
    static Map<String, ScalarType> types(LaunchedRun run) {
        Map<String, ScalarType> types = new LinkedHashMap<>();
        for (ArgSpec a : run.spec().args()) if (a.isBuffer()) types.put(a.buffer(), a.type());
        for (ArgSpec a : run.spec().buffers()) if (a.isBuffer()) types.put(a.buffer(), a.type());
        return types;
    }
}
