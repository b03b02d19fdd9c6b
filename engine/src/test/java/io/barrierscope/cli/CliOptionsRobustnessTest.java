package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options given to a command (help asked of it, paths the system cannot name, options that
 * would be ignored) get a clear answer: docs/reliability.md, the campaign of 2026-11-29 (morning).
 */
class CliOptionsRobustnessTest {
    static final Path SAMPLES = CliTest.SAMPLES;

    @TempDir
    Path tmp;

    @Test
    void everyCommandShowsItsOwnUsageForHelpNotAMissingArgumentError() {
        // "run --help" said "Missing required parameter: 'LAUNCH'" (exit 2); "run x.json --help" "Unknown option".
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        String[][] asks = {{"run", "--help"}, {"run", launch, "--help"}, {"explore", "-h"}, {"diff", "--help"}, {"export", "-h"},
            {"check", "--help"}};
        for (String[] a : asks) {
            CliTest.Result r = CliTest.cli(a);
            assertEquals(0, r.code(), String.join(" ", a) + ": " + r.out() + r.err());
            assertTrue(r.out().contains("Usage: barrierscope " + a[0]), r.out());
            assertFalse(r.err().contains("error"), r.err());
        }
        CliTest.Result v = CliTest.cli("run", "-V");
        assertEquals(0, v.code(), v.err());
        assertTrue(v.out().startsWith("BarrierScope "), v.out());
    }

    @Test
    void aPathArgumentHoldingANulIsRefusedSayingSoNotWithTheJdksConversionText() {
        // It was "cannot convert 'x<NUL>y' to interface java.nio.file.Path (java.nio.file.InvalidPathException: ...)".
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        String[][] lines = {{"run", launch, "--report", "r\0.json"}, {"run", launch, "--trace", "t\0"}, {"check", "k.ptx\0"},
            {"run", "launch\0.json"}, {"export", "t.bstrace", "--format", "chrome", "-o", "\0"}};
        for (String[] a : lines) {
            CliTest.Result r = CliTest.cli(a);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().contains("holds a NUL character (\\0), which no file name can"), r.err());
            assertFalse(r.err().contains("java.") || r.err().contains("Exception") || r.err().indexOf('\0') >= 0, r.err());
        }
    }

    @Test
    void exportOfAnEmptyTraceNameIsRefusedAsSuchNotReadAsTheCurrentFolder() {
        // It said ": error: the trace is a directory, not a file".
        CliTest.Result r = CliTest.cli("export", "", "--format", "chrome", "-o", tmp.resolve("e.json").toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("the trace file's name is empty"), r.err());
    }

    @Test
    void diffRefusesAnOptionForBothRunsThatEachRunsOwnOptionOverridesRatherThanIgnoreIt() {
        // "--a-seed 1 --b-seed 2 --seed 3" ran both runs without seed 3, saying nothing.
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        String[][] lines = {{"--seed", "3", "--a-seed", "1", "--b-seed", "2"},
            {"--policy", "random", "--a-policy", "random", "--b-policy", "adversarial"},
            {"--schedule", "s1:", "--a-schedule", "s1:", "--b-schedule", "s1:"}};
        for (String[] opts : lines) {
            String[] a = new String[opts.length + 2];
            a[0] = "diff";
            a[1] = launch;
            System.arraycopy(opts, 0, a, 2, opts.length);
            CliTest.Result r = CliTest.cli(a);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().contains("error: " + opts[0] + " would apply to neither run"), r.err());
        }
        // One run's own option with the shared one is an override, not a contradiction: B takes the shared seed.
        CliTest.Result r = CliTest.cli("diff", launch, "--seed", "3", "--a-seed", "1");
        assertTrue(r.out().contains("A: " + launch + " seed 1") && r.out().contains("B: " + launch + " seed 3"), r.out() + r.err());
    }

    @Test
    void aRunRecordedWithATraceGoesOnPastABrkptAndItsTraceHoldsTheWholeRun() throws Exception {
        // run --trace stopped at the brkpt: "k: running after 9 warp steps", exit 1, and a trace of those 9 steps.
        java.nio.file.Files.writeString(tmp.resolve("k.ptx"), ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                + ".reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nbrkpt;\nadd.u32 %r2, %r1, 1;\nbar.sync 0;\nret;\n}\n");
        java.nio.file.Files.writeString(tmp.resolve("launch.json"), "{\"ptx\": \"k.ptx\", \"kernel\": \"k\", \"block\": [64, 1, 1]}");
        String launch = tmp.resolve("launch.json").toString();
        String trace = tmp.resolve("t.bstrace").toString();
        CliTest.Result plain = CliTest.cli("run", launch);
        for (String[] a : new String[][] {{"run", launch, "--trace", trace}, {"run", launch, "--break", "barrier"}}) {
            CliTest.Result r = CliTest.cli(a);
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("k: completed after"), r.out());
        }
        assertTrue(plain.out().contains("k: completed after"), plain.out());
        CliTest.Result e = CliTest.cli("export", trace, "--format", "chrome", "-o", tmp.resolve("t.json").toString());
        assertEquals(0, e.code(), e.out() + e.err());
    }

    @Test
    void aTraceGivenWhereALaunchOrPtxIsReadIsSaidToBeATraceNotTextToSaveAsUtf8() {
        // "t.bstrace:1:1: error: not UTF-8 text: byte 0x89 at offset 0 is no valid UTF-8 (save the file as UTF-8)".
        String trace = tmp.resolve("t.bstrace").toString();
        assertEquals(0, CliTest.cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--trace", trace).code());
        for (String[] a : new String[][] {{"run", trace}, {"explore", trace}, {"check", trace}}) {
            CliTest.Result r = CliTest.cli(a);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().contains("error: this is a BarrierScope trace, not a ") && !r.err().contains("UTF-8"), r.err());
        }
    }
}
