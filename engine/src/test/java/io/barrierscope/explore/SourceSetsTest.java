package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The race analysis behind source sets, on hand-made logs (keys: address << 1, low bit set for a write). */
class SourceSetsTest {
    private static StepFootprints.Footprint write(long key) { return new StepFootprints.Footprint(new long[] {key << 1 | 1}, false); }

    private static StepFootprints.Footprint read(long key) { return new StepFootprints.Footprint(new long[] {key << 1}, false); }

    @Test
    void enablingAWarpDoesNotOrderTheEnablerBeforeReadersOfThatWarpsEarlierWrite() {
        // A writes X; B writes W and enables A (a release); C reads X, then writes W. C's write races
        // with B's: nothing orders them (C depends only on A's write, which came before B's step).
        TraceLog t = new TraceLog();
        t.add(0, 0, 0, write(1), null);
        t.add(1, 1, 1, write(2), WarpBits.of(3, 0));
        t.add(2, 2, 2, read(1), null);
        t.add(3, 3, 2, write(2), null);
        List<String> races = new ArrayList<>();
        SourceSets.analyze(t, 0, 3, (point, initials, preferred, step) -> races.add("step " + step + " then warp " + preferred));
        assertTrue(races.contains("step 0 then warp 2"), races.toString());
        assertTrue(races.contains("step 1 then warp 2"), "B's write of W and C's race: " + races);
    }
    @Test
    void anAnalysisStopsAtItsMemoryCapInsteadOfGrowingWithoutBound() {
        // 1,024 warps, each step writing its own word: a clock per warp and per key, past the cap after about 15,000 keys.
        TraceLog t = new TraceLog();
        for (int i = 0; i < 40_000; i++) t.add(i, i, i % 1024, write(i), null);
        SourceSets.Analysis a = new SourceSets.Analysis(1024, t.n);
        a.run(t, t.n, 0, (point, initials, preferred, step) -> {});
        assertTrue(a.overflow, "stopped at " + a.pos);
        assertTrue(a.pos < t.n && a.bytes() < SourceSets.MAX_BYTES + (64L << 20), a.pos + " entries, " + a.bytes() + " bytes");
        assertTrue(SourceSets.fits(2048) && !SourceSets.fits(4096), "the per-warp clocks alone decide which launches are analysed");
    }
}
