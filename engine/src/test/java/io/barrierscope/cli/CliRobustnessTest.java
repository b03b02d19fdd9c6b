package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user types or opens gets a located answer (exit 2) or a run, never an internal failure. */
class CliRobustnessTest {
    static final Path SAMPLES = CliTest.SAMPLES;

    @TempDir
    Path tmp;

    @Test
    void theSummaryNamesTheStepLimitInForceWhenBreakpointsOrATraceAreUsed() throws Exception {
        Path launch = SAMPLES.resolve("block-reduce/launch.json");
        CliTest.Result r = CliTest.cli("run", launch.toString(), "--max-steps", "7", "--break", "deadlock");
        assertEquals(6, r.code(), r.out() + r.err()); // the expect block is not met at step 7
        assertTrue(r.out().contains("step limit of 7 warp steps"), r.out());
        r = CliTest.cli("run", launch.toString(), "--max-steps", "9", "--trace", tmp.resolve("t.bstrace").toString());
        assertTrue(r.out().contains("step limit of 9 warp steps"), r.out());
    }

    @Test
    void noCommandOrOnlyADoubleDashIsBadInputSaidAsAnErrorBeforeTheUsage() {
        // It printed the usage alone, with exit 2 and nothing saying what was wrong.
        for (String[] args : new String[][] {{}, {"--"}}) {
            CliTest.Result r = CliTest.cli(args);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().startsWith("error: name a command"), r.err());
            assertTrue(r.out().contains("Usage: barrierscope"), r.out());
        }
    }

    @Test
    void aNumberOptionInAnotherScriptsDigitsIsRefusedNotReadAsItsValue() {
        // "--max-steps ١٢" (Arabic-Indic) and "１２" (full-width) ran as 12: the JDK's parsing takes any script's digits.
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        for (String[] args : new String[][] {{"run", launch, "--max-steps", "\u0661\u0662"}, {"run", launch, "--max-steps", "\uff11\uff12"},
                {"run", launch, "--report-elements", "\u0663"}, {"explore", launch, "--jobs", "\u0661"}}) {
            CliTest.Result r = CliTest.cli(args);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().contains("(ASCII digits 0-9 only)"), r.err());
        }
        assertEquals(6, CliTest.cli("run", launch, "--max-steps", "+7").code(), "a sign and ASCII digits are still a number");
    }

    @Test
    void aBreakpointOfOnlyACommaIsBadInput() {
        CliTest.Result r = CliTest.cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--break", ",");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("at character 1"), r.err());
    }

    @Test
    void aNulInALaunchFilesPtxPathIsBadInputForRunAndExplore() throws Exception {
        Path l = tmp.resolve("nul.json");
        Files.writeString(l, "{\"ptx\": \"kernel.ptx\\u0000.ptx\"}");
        for (String cmd : new String[] {"run", "explore"}) {
            CliTest.Result r = CliTest.cli(cmd, l.toString());
            assertEquals(2, r.code(), cmd + ": " + r.out() + r.err());
            assertTrue(r.err().contains("nul.json:1:9: error"), r.err());
        }
    }

    @Test
    void aBarePtxOfAClusterKernelRunsOneClusterByDefault() {
        CliTest.Result r = CliTest.cli("run", SAMPLES.resolve("cluster-dsmem-exchange/kernel.ptx").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("with 2 CTAs of 32 threads"), r.out());
    }

    @Test
    void aBarePtxWithATensorMapParameterSaysExactlyWhatToPutInALaunchFile() {
        CliTest.Result r = CliTest.cli("run", SAMPLES.resolve("tma-tile-load/kernel.ptx").toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("a CUtensorMap for TMA copies"), r.err());
        assertTrue(r.err().contains("{\"tensorMap\": {\"buffer\": \"tensor\", \"dims\": [WIDTH, HEIGHT]"), r.err());
        assertFalse(r.err().contains("is a .u8 value"), r.err());
    }

    @Test
    void aReportEmbedsAtMostTheAskedElementsOfEachBufferAndSaysWhichWereCut() throws Exception {
        Path report = tmp.resolve("r.json");
        CliTest.Result r = CliTest.cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--report", report.toString(),
                "--report-elements", "10");
        assertEquals(0, r.code(), r.out() + r.err());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.toFile());
        assertEquals(10, json.get("buffers").get("in").size());
        assertEquals(4, json.get("buffers").get("out").size());
        assertEquals(512, json.get("buffersCut").get("elements").get("in").asLong());
        assertFalse(json.get("buffersCut").get("elements").has("out"));
        assertTrue(json.get("expect").get("met").asBoolean(), "the expect block is checked on the whole buffer, not the cut");
    }

    @Test
    void aTraceAndAReportNamingOneFileAreRefusedNotOneWrittenOverTheOther() throws Exception {
        // The report was written over the trace just made, after "trace: out" was printed.
        Path dir = Files.createDirectories(tmp.resolve("two"));
        for (String f : new String[] {"launch.json", "kernel.ptx"}) Files.copy(SAMPLES.resolve("block-reduce").resolve(f), dir.resolve(f));
        String launch = dir.resolve("launch.json").toString();
        Path out = tmp.resolve("out");
        CliTest.Result r = CliTest.cli("run", launch, "--trace", out.toString(), "--report", tmp.resolve("x/../out").toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--trace and --report name the same file"), r.err());
        assertTrue(!Files.exists(out), "nothing written");
    }

    @Test
    void anOutputPathNamingABuffersDataFileIsRefusedAndTheFileKept() throws Exception {
        // A buffer's "file" is read by the command as much as the launch and its PTX are.
        Path dir = Files.createDirectories(tmp.resolve("f"));
        Files.writeString(dir.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\nret;\n}\n");
        byte[] data = new byte[16];
        data[0] = 7;
        Files.write(dir.resolve("in.bin"), data);
        Path launch = dir.resolve("launch.json");
        Files.writeString(launch, "{\"ptx\": \"k.ptx\", \"grid\": [1, 1, 1], \"block\": [32, 1, 1],"
                + " \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"file\": \"in.bin\"}]}");
        assertEquals(0, CliTest.cli("run", launch.toString()).code());
        for (String opt : new String[] {"--trace", "--report"}) {
            CliTest.Result r = CliTest.cli("run", launch.toString(), opt, dir.resolve("sub/../in.bin").toString());
            assertEquals(2, r.code(), opt + ": " + r.out() + r.err());
            assertTrue(r.err().contains("which this command reads; name another file"), r.err());
        }
        CliTest.Result r = CliTest.cli("explore", launch.toString(), "--schedules", "1", "--report", dir.resolve("in.bin").toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertArrayEquals(data, Files.readAllBytes(dir.resolve("in.bin")));
    }

    @Test
    void anOutputPathNamingAFileTheCommandReadsIsRefusedAndTheFileKept() throws Exception {
        // `run launch.json --trace launch.json` replaced the launch file with the trace; `export t -o t` the trace with JSON.
        Path dir = Files.createDirectories(tmp.resolve("k"));
        for (String f : new String[] {"launch.json", "kernel.ptx"}) Files.copy(SAMPLES.resolve("block-reduce").resolve(f), dir.resolve(f));
        String launch = dir.resolve("launch.json").toString();
        String ptx = dir.resolve("kernel.ptx").toString();
        Path t = tmp.resolve("t.bstrace");
        assertEquals(0, CliTest.cli("run", launch, "--trace", t.toString()).code());
        Files.createSymbolicLink(tmp.resolve("link.json"), dir.resolve("launch.json"));
        byte[] l0 = Files.readAllBytes(dir.resolve("launch.json"));
        byte[] p0 = Files.readAllBytes(dir.resolve("kernel.ptx"));
        byte[] t0 = Files.readAllBytes(t);
        String[][] lines = {
            {"run", launch, "--trace", launch},
            {"run", launch, "--report", ptx},
            {"run", launch, "--report", tmp.resolve("link.json").toString()},
            {"explore", launch, "--schedules", "1", "--report", ptx},
            {"export", t.toString(), "--format", "chrome", "-o", t.toString()},
            {"diff", t.toString(), launch, "--report", t.toString()},
        };
        for (String[] line : lines) {
            CliTest.Result r = CliTest.cli(line);
            assertEquals(2, r.code(), String.join(" ", line) + ": " + r.out() + r.err());
            assertTrue(r.err().contains("which this command reads; name another file"), r.err());
        }
        assertArrayEquals(l0, Files.readAllBytes(dir.resolve("launch.json")));
        assertArrayEquals(p0, Files.readAllBytes(dir.resolve("kernel.ptx")));
        assertArrayEquals(t0, Files.readAllBytes(t));
    }

    @Test
    void anOutputPathTheSystemRefusesIsBadInputNamingItNotAnInternalFailure() throws Exception {
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        String under = file.resolve("r.json").toString(); // its "folder" is a file
        String[][] lines = {
            {"run", launch, "--report", ""},
            {"run", launch, "--report", tmp.toString()},
            {"run", launch, "--report", under},
            {"run", launch, "--trace", tmp.toString()},
            {"explore", launch, "--schedules", "1", "--report", tmp.toString()},
        };
        for (String[] line : lines) {
            CliTest.Result r = CliTest.cli(line);
            assertEquals(2, r.code(), String.join(" ", line) + ": " + r.out() + r.err());
            assertTrue(r.err().contains("error: cannot write"), r.err());
        }
        Path t = tmp.resolve("t.bstrace");
        assertEquals(0, CliTest.cli("run", launch, "--trace", t.toString()).code());
        CliTest.Result r = CliTest.cli("export", t.toString(), "--format", "chrome", "-o", tmp.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(tmp + ": error: cannot write: it is a folder"), r.err());
        assertEquals("x", Files.readString(file));
        try (var s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left behind");
        }
    }

    @Test
    void diffsReportThatCannotBeWrittenIsRefusedBeforeTheRunsNamingWhyNotAfterThem() throws Exception {
        // a folder or a file as its folder was refused only after both runs; an empty name was said to be a folder
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        String[][] cases = {
            {tmp.toString(), "it is a folder; name a file"},
            {file.resolve("r.json").toString(), "a part of its folder is a file"},
            {"", "the name is empty; name a file"},
            {"/dev/null", "it is not a regular file"},
        };
        for (String[] c : cases) {
            CliTest.Result r = CliTest.cli("diff", launch, launch, "--report", c[0]);
            assertEquals(2, r.code(), c[0] + ": " + r.out() + r.err());
            assertTrue(r.err().contains("error: cannot write: " + c[1]), r.err());
            assertTrue(!r.out().contains("completed after"), "refused before the runs: " + r.out());
        }
        assertEquals("x", Files.readString(file));
    }

    @Test
    void runsAndExploresOutputsThatCannotBeWrittenAreRefusedBeforeTheRunNotAfterIt() throws Exception {
        // run --trace/--report and explore --report under a file or at a folder were refused only after the whole run
        String launch = SAMPLES.resolve("block-reduce/launch.json").toString();
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        String under = file.resolve("r.json").toString();
        String[][] lines = {
            {"run", launch, "--trace", under},
            {"run", launch, "--report", under},
            {"run", launch, "--trace", tmp.toString()},
            {"explore", launch, "--schedules", "2", "--jobs", "1", "--report", under},
        };
        for (String[] line : lines) {
            CliTest.Result r = CliTest.cli(line);
            assertEquals(2, r.code(), String.join(" ", line) + ": " + r.out() + r.err());
            assertTrue(r.err().contains("error: cannot write: "), r.err());
            assertTrue(!r.out().contains("completed after") && !r.out().contains("explored"), "refused before the run: " + r.out());
        }
        String trace = tmp.resolve("t.bstrace").toString();
        assertEquals(0, CliTest.cli("run", launch, "--trace", trace).code());
        CliTest.Result r = CliTest.cli("export", trace, "--format", "chrome", "-o", under, "--progress");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("error: cannot write: a part of its folder is a file") && !r.err().contains("replay"), r.err());
        assertEquals("x", Files.readString(file));
    }

    @Test
    void diffOfAnEmptyNameIsRefusedAsSuchNotReadAsTheCurrentFolder() {
        CliTest.Result r = CliTest.cli("diff", "", "");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("error: A is an empty name"), r.err());
        assertTrue(!r.err().contains("no such launch file"), r.err());
        // run, explore and check took it as the current folder ("...: the launch file is a directory")
        for (String[] line : new String[][] {{"run", ""}, {"explore", ""}, {"check", ""}}) {
            CliTest.Result e = CliTest.cli(line);
            assertEquals(2, e.code(), line[0] + ": " + e.out() + e.err());
            assertTrue(e.err().contains("name is empty") && !e.err().contains("directory"), line[0] + ": " + e.err());
        }
    }

    @Test
    void aNegativeReportElementCountIsRefusedNotReadAsZero() {
        CliTest.Result r = CliTest.cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--report-elements", "-1",
                "--report", tmp.resolve("r.json").toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("error: --report-elements must be at least 0"), r.err());
        assertFalse(Files.exists(tmp.resolve("r.json")));
    }
}
