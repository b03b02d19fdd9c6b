package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.Checkpoint;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Explore's fork checkpoints copy the mbarrier objects and the operations in flight (the machine's
 * and the race detector's maps of them): the launch's memory counts those copies per fork
 * checkpoint, and explore keeps no fork checkpoint whose copies hold more (docs/reliability.md).
 */
class ExplorerSyncCopyBudgetTest {
    static final Path SAMPLES = Path.of("..", "samples").toAbsolutePath().normalize();

    /**
     * Each thread puts {@code copies} 16-byte cp.async in flight (latency 10,000 cycles), each in a group
     * of its own (two of one group to the same bytes are undefined), then spins before waiting for them.
     */
    private static PtxRun deepCopies(int copies) {
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r10, %tid.x;\nshl.b32 %r11, %r10, 4;\n"
                + "mov.u32 %r12, tile;\nadd.u32 %r13, %r12, %r11;\nmul.wide.u32 %rd3, %r10, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
                + "mov.u32 %r1, 0;\nL:\ncp.async.ca.shared.global [%r13], [%rd4], 16;\ncp.async.commit_group;\nadd.u32 %r1, %r1, 1;\n"
                + "setp.lt.u32 %p1, %r1, " + copies + ";\n@%p1 bra L;\n"
                + "mov.u32 %r5, 0;\nM:\nadd.u32 %r5, %r5, 1;\nsetp.lt.u32 %p2, %r5, 400;\n@%p2 bra M;\ncp.async.wait_all;\nret;";
        return PtxRun.kernel(body).header(".shared .align 16 .b8 tile[1024];").buffer("in", 256, ScalarType.U32, "iota")
                .threads(64).latency(10_000, 10_000).racy();
    }

    @Test
    void aForkCheckpointHoldingMoreCopiesInFlightThanCountedIsNotKeptAndTheSearchIsUnchanged() {
        // 30 copies in flight per thread where the launch counts one per thread slot in each fork checkpoint.
        LaunchedRun run = deepCopies(30).launch(new SchedulePolicy());
        Checkpoint now = Checkpoint.take(run.interpreter());
        assertTrue(run.forkCheckpointSyncBytes() > now.syncObjectBytes(), "the start's copies fit what is counted");
        Explorer ex = new Explorer(run, () -> 0L);
        Explorer.Result r = ex.explore(new Explorer.Options(4, 0, 0, 1, 20_000, true, -1));
        assertTrue(ex.checkpointsNotKept > 0, "checkpoints with 30 copies per thread in flight were not kept");

        // The same search with every checkpoint kept finds the same: a checkpoint only saves re-running a prefix.
        Explorer all = new Explorer(deepCopies(30).launch(new SchedulePolicy()), () -> 0L);
        all.checkpointSyncBytes = Long.MAX_VALUE;
        Explorer.Result r2 = all.explore(new Explorer.Options(4, 0, 0, 1, 20_000, true, -1));
        assertEquals(0, all.checkpointsNotKept);
        assertEquals(r2.coverage().schedules(), r.coverage().schedules());
        assertEquals(r2.coverage().distinctOutcomes(), r.coverage().distinctOutcomes());
        assertEquals(r2.findings().size(), r.findings().size());
    }

    @Test
    void aPipelineSampleKeepsEveryForkCheckpointWithinWhatItsLaunchCounts() {
        for (String s : new String[] {"tma-pipeline", "bulk-copy-pipeline", "mbarrier-parity-pipeline", "cp-async-mbarrier"}) {
            ValidatedLaunch v = LaunchValidation.validate(SAMPLES.resolve(s).resolve("launch.json"));
            LaunchedRun run = v.start(new SchedulePolicy());
            Explorer ex = new Explorer(run, () -> 0L);
            ex.explore(new Explorer.Options(6, 0, 0, 1, 20_000, true, -1));
            assertEquals(0, ex.checkpointsNotKept, s);
            assertTrue(v.forkCheckpointSyncBytes() > 0, s);
        }
    }

    @Test
    void theEstimateCountsTheCopiesPerForkCheckpointAndTheLiveOnesOncePerMachineNamingThem() {
        MemoryEstimate base = new MemoryEstimate(1 << 20, 0, 0, false, 2, false, 10, 0, 0, 0);
        MemoryEstimate with = base.withSyncObjects(3_000, 500);
        assertEquals(2 * 3_000 + 10 * 500, with.total() - base.total());
        assertTrue(with.describe().contains("mbarriers and async operations in flight of 2 machines"), with.describe());
    }
}
