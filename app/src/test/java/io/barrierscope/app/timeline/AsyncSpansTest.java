package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.Locations;
import io.barrierscope.exec.Program;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The copies and wgmma operations the timeline shows in flight, against the warp steps of the recording. */
class AsyncSpansTest {

    /** The steps at which warp {@code warp} executed an instruction whose mnemonic starts with {@code prefix}. */
    private static List<Long> stepsOf(TimeTravel tt, int warp, String prefix) {
        Program p = tt.interpreter().machine().program;
        List<Long> out = new ArrayList<>();
        EventCursor c = tt.recording().cursor(0);
        while (c.next()) {
            if (c.type == EventCursor.Type.WARP_STEP && c.warp == warp && p.code[c.pc].insn.mnemonic().startsWith(prefix)) out.add(c.step);
        }
        return out;
    }

    @Test
    void eachWgmmaIsIssuedAtItsWarpStepCommittedAtCommitGroupAndRetiredByWaitGroup() {
        Recorded r = new Recorded("wgmma-gemm");
        for (int warp = 0; warp < 4; warp++) {
            int lane = r.model.laneOfWarp(warp);
            AsyncSpans.Lane l = r.model.asyncSpans().lane(lane);
            List<Long> issues = stepsOf(r.tt, warp, "wgmma.mma_async");
            List<Long> commits = stepsOf(r.tt, warp, "wgmma.commit_group");
            List<Long> waits = stepsOf(r.tt, warp, "wgmma.wait_group");
            int wgmma = 0;
            for (int i = 0; i < l.n; i++) {
                if (l.kind[i] != AsyncSpans.WGMMA) continue;
                assertEquals(issues.get(wgmma), l.start[i], "warp " + warp + " wgmma " + wgmma + " issued");
                assertTrue(commits.contains(l.mid[i]), "committed at a commit_group step: " + l.mid[i]);
                assertTrue(l.start[i] <= l.mid[i] && l.mid[i] <= l.end[i]);
                assertNotEquals(Long.MAX_VALUE, l.end[i], "retired by the end of the run");
                // the wait that retired it is the first wait_group of the warp after its commit
                long committed = l.mid[i];
                long wait = waits.stream().filter(s -> s >= committed).findFirst().orElseThrow();
                assertTrue(l.end[i] >= wait, "retired at or after the warp reached its wait_group");
                wgmma++;
            }
            assertEquals(issues.size(), wgmma, "one span per wgmma.mma_async the warp issued");
        }
        // the flags of a column in the middle of an operation's life
        AsyncSpans.Lane l0 = r.model.asyncSpans().lane(r.model.laneOfWarp(0));
        int first = 0;
        while (l0.kind[first] != AsyncSpans.WGMMA) first++;
        TimelineColumns cols = new TimelineColumns(1);
        cols.bounds[0] = l0.start[first];
        cols.bounds[1] = l0.start[first] + 0.5;
        int[] flags = new int[1];
        r.model.asyncColumns(r.model.laneOfWarp(0), r.model.laneOfWarp(0) + 1, cols, flags);
        assertTrue((flags[0] & AsyncSpans.WGMMA_OPEN) != 0);
        String text = r.model.asyncAt(r.model.laneOfWarp(0), l0.start[first]);
        assertTrue(text.contains("wgmma.mma_async") && text.contains("committed at step " + l0.mid[first]), text);
    }

    @Test
    void theTmaLoadsOfTheGemmAreCopiesIntoSharedMemoryUntilTheyLand() {
        Recorded r = new Recorded("wgmma-gemm");
        int copies = 0;
        for (int lane = 0; lane < r.model.lanes(); lane++) {
            AsyncSpans.Lane l = r.model.asyncSpans().lane(lane);
            for (int i = 0; i < l.n; i++) {
                if (l.kind[i] == AsyncSpans.WGMMA) continue;
                copies++;
                assertEquals(AsyncSpans.COPY, l.kind[i]);
                assertTrue(r.tt.interpreter().machine().program.code[l.pc[i]].insn.mnemonic().startsWith("cp.async.bulk.tensor"));
                assertTrue(l.end[i] > l.start[i] && l.end[i] != Long.MAX_VALUE);
            }
        }
        assertEquals(2, copies, "the A and B tiles");
    }

    @Test
    void aTmaTensorStoreIsACopyOutOfSharedMemoryUntilItsBulkGroupCompletes() {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();
        Path dir = root.resolve("engine/src/test/resources/ptx-corpus");
        LaunchSpec spec = LaunchValidation.checkJson(dir.resolve("t.json"), "{\"ptx\": \"tma_modes.ptx\", \"kernel\": \"tma_store2d\","
                + " \"grid\": [1, 1, 1], \"block\": [256, 1, 1], \"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [40, 24],"
                + " \"box\": [32, 8]}}, {\"value\": 20, \"type\": \"s32\"}, {\"value\": 20, \"type\": \"s32\"}],"
                + " \"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 960, \"init\": \"iota\"}]}");
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(spec).start(null, null));
        tt.runForward(() -> false);
        TimelineModel model = TimelineModel.of(tt);
        model.update();
        int stores = 0;
        for (int lane = 0; lane < model.lanes(); lane++) {
            AsyncSpans.Lane l = model.asyncSpans().lane(lane);
            for (int i = 0; i < l.n; i++) {
                assertEquals(AsyncSpans.COPY_OUT, l.kind[i]);
                String mn = tt.interpreter().machine().program.code[l.pc[i]].insn.mnemonic();
                assertTrue(mn.startsWith("cp.async.bulk.tensor") && mn.contains(".global.shared"), mn);
                assertFalse(l.end[i] == Long.MAX_VALUE, "landed");
                stores++;
            }
        }
        assertEquals(1, stores);
    }
}
