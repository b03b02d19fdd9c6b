package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.TimeTravel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A CTA barrier's arrival with the wait it begins, and a completion with the whole warps it
 * releases, reach listeners as one call each ({@code barrierArriveWait}, {@code
 * barrierCompleteRelease}); the recorder stores each as one record. A listener that takes events
 * one by one (the defaults) must see exactly the status changes and sync events the recording
 * holds, in the same order, on every sample.
 */
class PairedEventsTest {
    static List<Path> samples() throws IOException { return SampleRuns.all(); }

    @ParameterizedTest
    @MethodSource("samples")
    void aListenerTakingEventsOneByOneSeesWhatTheRecordingHolds(Path launch) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(launch).start("random", 3L));
        List<String> told = new ArrayList<>();
        tt.interpreter().addListener(new ExecutionListener() {
            @Override
            public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
                told.add(step + " " + kind + " " + slot + " " + object + " " + a + " " + b);
            }

            @Override
            public void statusChange(long step, int warp, int lanes, byte from, byte to) {
                told.add(step + " status " + warp + " " + Integer.toHexString(lanes) + " " + from + "->" + to);
            }
        });
        tt.runForward(() -> false);
        List<String> recorded = new ArrayList<>();
        EventCursor c = tt.recording().cursor(0);
        while (c.next()) {
            if (c.type == EventCursor.Type.SYNC) {
                recorded.add(c.step + " " + c.kind + " " + c.slot + " " + c.object + " " + c.a + " " + c.b);
            } else if (c.type == EventCursor.Type.STATUS) {
                // The listener is told per warp; the recording merges consecutive lanes of a warp the same way.
                recorded.add(c.step + " status " + (c.slot >> 5) + " " + Integer.toHexString(c.lanes) + " " + c.from + "->" + c.to);
            }
        }
        assertEquals(String.join("\n", merged(recorded)), String.join("\n", merged(told)), launch.toString());
    }

    /** Consecutive status changes of one warp at one step with the same from/to, as one line (the recording gathers them). */
    private static List<String> merged(List<String> events) {
        List<String> out = new ArrayList<>();
        for (String e : events) {
            String[] f = e.split(" ");
            if (f[1].equals("status") && !out.isEmpty()) {
                String[] p = out.get(out.size() - 1).split(" ");
                if (p[1].equals("status") && p[0].equals(f[0]) && p[2].equals(f[2]) && p[4].equals(f[4])) {
                    int lanes = Integer.parseUnsignedInt(p[3], 16) | Integer.parseUnsignedInt(f[3], 16);
                    out.set(out.size() - 1, p[0] + " status " + p[2] + " " + Integer.toHexString(lanes) + " " + p[4]);
                    continue;
                }
            }
            out.add(e);
        }
        return out;
    }
}
