package io.barrierscope.check;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A converged warp's load of words that unordered threads read before records its reads once
 * (RaceWarpRead) and must stand for exactly the per-word read sets it replaces.
 */
class RaceWarpReadTest {
    /** Words 0..31 first read by threads 40..71 at clock 3; then warp 0 reads them in descending order (lane l, word 31 - l). */
    private static RaceShadow.Page page(boolean lazy) {
        RaceShadow.Page p = new RaceShadow.Page();
        RaceShadow.Cells c = p.words;
        c.readSets = new RaceShadow.ReadSet[c.size()];
        RaceWarpRead wr = new RaceWarpRead(0, 31, -1, 5, 9, 12);
        for (int j = 0; j < 32; j++) {
            c.setWrite(j, (1L << 32) | 100, 4, 2);
            c.setRead(j, (3L << 32) | (40 + j), 7, 11 + j);
            if (lazy) {
                c.readSets[j] = wr;
            } else {
                RaceShadow.ReadSet rs = new RaceShadow.ReadSet();
                rs.put(40 + j, 3, 7, 11 + j);
                rs.put(31 - j, 5, 9, 12);
                c.clearRead(j);
                c.readSets[j] = rs;
            }
        }
        return p;
    }

    private static List<Long> hash(RaceShadow.Page p) {
        List<Long> h = new ArrayList<>();
        p.hashInto(h::add);
        return h;
    }

    @Test
    void aWarpReadHashesCopiesSplitsAndMaterializesAsThePerWordReadSetsItStandsFor() {
        RaceShadow.Page lazy = page(true);
        RaceShadow.Page eager = page(false);
        assertEquals(hash(eager), hash(lazy));
        assertEquals(hash(eager), hash(lazy.copy()));
        // A narrower access splits a word: the byte cells get the word's read set, the count changes alike.
        assertEquals(eager.split(5), lazy.split(5));
        assertEquals(hash(eager), hash(lazy));
        // A third reader (or anything that needs the set as an object) first makes the word's own set.
        RaceShadow.Cells c = lazy.words;
        for (int j = 0; j < 32; j++) {
            if (c.readSets[j] instanceof RaceWarpRead wr) {
                RaceShadow.ReadSet rs = wr.materialize(c, j);
                assertArrayEquals(eager.words.readSets[j].ids, rs.ids);
                assertArrayEquals(eager.words.readSets[j].clocks, rs.clocks);
                assertArrayEquals(eager.words.readSets[j].pcs, rs.pcs);
                assertArrayEquals(eager.words.readSets[j].steps, rs.steps);
            }
        }
        assertArrayEquals(eager.words.d, lazy.words.d);
        assertEquals(hash(eager), hash(lazy));
    }

    @Test
    void aWriteAfterTwoWarpsReadTheSameWordsInOppositeOrdersRacesWithTheReaderItIsNotOrderedAfter() {
        // Warp 0 reads sm[lane], warp 1 sm[31 - lane]; after its warp's sync thread 4 overwrites
        // word 2, read by thread 2 (same warp, ordered) and thread 61 (the other warp, not ordered).
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r3, sm;\n"
                + "and.b32 %r4, %r1, 31;\nsetp.lt.u32 %p3, %r1, 32;\nsub.u32 %r5, 31, %r4;\nselp.b32 %r6, %r4, %r5, %p3;\n"
                + "shl.b32 %r7, %r6, 2;\nadd.u32 %r8, %r3, %r7;\nld.shared.u32 %r10, [%r8];\nbar.warp.sync -1;\n"
                + "setp.eq.u32 %p4, %r1, 4;\n@%p4 st.shared.u32 [sm+8], 1;\nBARRIER\nret;";
        for (String p : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 1; seed <= 3; seed++) {
                LaunchedRun clean = kernel(body.replace("BARRIER", "").replace("bar.warp.sync -1;\n", "bar.sync 0;\n")).policy(p, seed).run();
                assertEquals(Outcome.COMPLETED, outcome(clean), clean.summary());
                LaunchedRun r = kernel(body.replace("BARRIER", "")).policy(p, seed).run();
                assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
                assertEquals(List.of("race"), codes(r), r.summary());
                Diagnostic d = r.interpreter().diagnostics().get(0);
                assertEquals(Set.of(4, 61), Set.copyOf(d.threads()), d.message());
                assertTrue(d.message().contains("thread (4,0,0) writes it"), d.message());
            }
        }
    }

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(body).header(".shared .align 16 .b8 sm[512];").buffer("out", 32, ScalarType.U32, "zero").threads(64);
    }
}
