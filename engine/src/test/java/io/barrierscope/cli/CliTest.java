package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line contract (README, "Command line"; docs/report.md): verdicts, exit codes, reports, located errors. */
class CliTest {
    static final Path SAMPLES = Path.of("..", "samples").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    record Result(int code, String out, String err) {}

    static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    /** A launch file for a sample's PTX without an expect block. */
    private Path plainLaunch(String sample, String kernel, int threads) throws Exception {
        ObjectMapper om = new ObjectMapper();
        var node = (com.fasterxml.jackson.databind.node.ObjectNode) om.readTree(SAMPLES.resolve(sample).resolve("launch.json").toFile());
        node.remove("expect");
        node.put("ptx", SAMPLES.resolve(sample).resolve("kernel.ptx").toString());
        assertEquals(kernel, node.get("kernel").asText());
        assertEquals(threads, node.get("block").get(0).asInt());
        Path l = tmp.resolve(sample + ".json");
        om.writeValue(l.toFile(), node);
        return l;
    }

    @Test
    void aRaceIsADiagnosticWithExitCodeFourUnlessDetectionIsTurnedOff() throws Exception {
        Path ptx = tmp.resolve("racy.ptx");
        java.nio.file.Files.writeString(ptx, ".version 9.0\n.target sm_90a\n.address_size 64\n.shared .align 4 .u32 s;\n"
                + ".visible .entry racy()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, %tid.x;\nst.shared.u32 [s], %r1;\nret;\n}\n");
        Path report = tmp.resolve("race.json");
        Result r = cli("run", ptx.toString(), "--report", report.toString());
        assertEquals(4, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("[race]"), r.out());
        JsonNode d = new ObjectMapper().readTree(report.toFile()).get("diagnostics").get(0);
        assertEquals("race", d.get("code").asText());
        assertEquals(2, d.get("threads").size());
        Result off = cli("run", ptx.toString(), "--no-race");
        assertEquals(0, off.code(), off.out() + off.err());
    }

    @Test
    void runOfASampleWhoseExpectationIsMetExitsZeroAndWritesTheReport() throws Exception {
        Path report = tmp.resolve("r.json");
        Result r = cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--report", report.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("completed"), r.out());
        JsonNode j = new ObjectMapper().readTree(report.toFile());
        assertEquals("completed", j.get("outcome").asText());
        assertEquals("block_reduce", j.get("kernel").asText());
        assertEquals("round-robin", j.get("policy").asText());
        assertTrue(j.get("stats").get("warpSteps").asLong() > 0);
        assertTrue(j.get("expect").get("met").asBoolean());
        assertEquals(8128, j.get("buffers").get("out").get(0).asLong());
    }

    @Test
    void aDeadlockWithoutExpectExitsThreeAndReportsTheWaits() throws Exception {
        Path report = tmp.resolve("d.json");
        Result r = cli("run", plainLaunch("named-barrier-too-many", "math_warps", 128).toString(), "--report", report.toString());
        assertEquals(3, r.code(), r.out() + r.err());
        JsonNode j = new ObjectMapper().readTree(report.toFile());
        assertEquals("deadlock", j.get("outcome").asText());
        assertTrue(j.get("deadlock").get("waits").size() > 0);
        assertTrue(j.get("deadlock").get("text").asText().contains("exited"));
    }

    @Test
    void undefinedBehaviourWithoutExpectExitsFour() throws Exception {
        Result r = cli("run", plainLaunch("syncthreads-divergent", "swap_halves", 64).toString());
        assertEquals(4, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("barrier-divergence"), r.out());
    }

    @Test
    void reachingTheStepBudgetExitsFive() {
        Result r = cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--max-steps", "10");
        assertEquals(6, r.code(), "with an expect block a step-limit is an unmet expectation: " + r.out());
        assertTrue(r.out().contains("step-limit"), r.out());
    }

    @Test
    void reachingTheStepBudgetWithoutExpectExitsFive() throws Exception {
        Result r = cli("run", plainLaunch("block-reduce", "block_reduce", 128).toString(), "--max-steps", "10");
        assertEquals(5, r.code(), r.out() + r.err());
    }

    @Test
    void anUnmetExpectationExitsSixAndSaysWhatDiffered() throws Exception {
        Path l = tmp.resolve("wrong.json");
        Files.writeString(l, Files.readString(SAMPLES.resolve("block-reduce/launch.json"))
                .replace("\"kernel.ptx\"", "\"" + SAMPLES.resolve("block-reduce/kernel.ptx").toString().replace("\\", "/") + "\"")
                .replace("8128", "8129"));
        Result r = cli("run", l.toString());
        assertEquals(6, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("out[0]: expected 8129, got 8128"), r.out());
    }

    @Test
    void invalidJsonIsBadInputNamingLineAndColumn() throws Exception {
        Path l = tmp.resolve("bad.json");
        Files.writeString(l, "{\n  \"ptx\": \"k.ptx\",\n  \"grid\": [1, 1,, 1]\n}");
        Result r = cli("run", l.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad.json:3:"), r.err());
    }

    @Test
    void aSemanticErrorInALaunchFileNamesTheLineOfTheValue() throws Exception {
        Path l = tmp.resolve("bad2.json");
        Files.writeString(l, "{\n  \"ptx\": \"" + SAMPLES.resolve("block-reduce/kernel.ptx").toString().replace("\\", "/")
                + "\",\n  \"block\": [2048, 1, 1]\n}");
        Result r = cli("run", l.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad2.json:3:"), r.err());
        assertTrue(r.err().contains("at most 1024 threads"), r.err());
    }

    @Test
    void aPtxSyntaxErrorNamesFileLineColumnAndShowsTheLineWithACaret() throws Exception {
        Path p = tmp.resolve("bad.ptx");
        Files.writeString(p, ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n  mov.u32 %r1 5;\n  ret;\n}\n");
        Result r = cli("check", p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad.ptx:6:"), r.err());
        assertTrue(r.err().contains("^"), r.err());
    }

    @Test
    void checkAcceptsEverySamplePtx() {
        for (String s : new String[] {"block-reduce", "warp-shuffle", "named-producer-consumer"}) {
            Result r = cli("check", SAMPLES.resolve(s).resolve("kernel.ptx").toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("ok"), r.out());
        }
    }

    @Test
    void checkRefusesAnInstructionTheEngineDoesNotExecuteWithItsLocation() throws Exception {
        Path p = tmp.resolve("mb.ptx");
        Files.writeString(p, ".version 9.0\n.target sm_90a\n.address_size 64\n.shared .align 8 .b64 bar;\n"
                + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, bar;\n  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [bar], [bar], 128;\n  ret;\n}\n");
        Result r = cli("check", p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unsupported instruction cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16"), r.err());
        assertTrue(r.err().contains("mb.ptx:9:"), r.err());
    }

    @Test
    void aMisspeltMnemonicIsAnError() throws Exception {
        Path p = tmp.resolve("typo.ptx");
        Files.writeString(p, ".version 9.0\n.target sm_90a\n.address_size 64\n.shared .align 8 .b64 bar;\n"
                + ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r1, bar;\n  mbarrier.ival.shared.b64 [%r1];\n  ret;\n}\n");
        Result r = cli("check", p.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains(".ival"), r.err());
    }

    @Test
    void anUnknownPolicyIsBadInput() {
        Result r = cli("run", SAMPLES.resolve("block-reduce/launch.json").toString(), "--policy", "fastest");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown policy"), r.err());
    }

    @Test
    void aMissingFileIsBadInput() {
        Result r = cli("run", tmp.resolve("nope.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("no such launch file"), r.err());
    }

    @Test
    void anUnknownCommandOrOptionIsBadInput() {
        assertEquals(2, cli("frobnicate").code());
        assertEquals(2, cli("run", "--bogus", "x.json").code());
    }

    @Test
    void badInputLeavesAnExistingReportUntouched() throws Exception {
        Path report = tmp.resolve("keep.json");
        Files.writeString(report, "{\"old\": true}");
        Result r = cli("run", tmp.resolve("nope.json").toString(), "--report", report.toString());
        assertEquals(2, r.code());
        assertEquals("{\"old\": true}", Files.readString(report));
        try (var s = Files.list(tmp)) {
            assertFalse(s.anyMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no temporary file is left behind");
        }
    }

    @Test
    void aLaunchTooLargeForTheMachineIsRefusedWithAClearMessage() throws Exception {
        Path l = tmp.resolve("huge.json");
        Files.writeString(l, "{\"ptx\": \"" + SAMPLES.resolve("block-reduce/kernel.ptx").toString().replace("\\", "/")
                + "\", \"grid\": [1000, 1, 1], \"block\": [1024, 1, 1], \"args\": ["
                + "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 4},{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 4},"
                + "{\"value\": 4, \"type\": \"s32\"}]}");
        Result r = cli("run", l.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("at most 65536 threads"), r.err());
    }

    @Test
    void aBarePtxRunsWithDefaultsAndSaysSo() {
        Result r = cli("run", SAMPLES.resolve("warp-shuffle/kernel.ptx").toString());
        assertTrue(r.out().contains("note: no launch file"), r.out());
        assertTrue(r.out().contains("1 CTA of 32 threads"), r.out());
    }

    @Test
    void theSameLaunchAndSeedGiveTheSameReportApartFromWallTime() throws Exception {
        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        String launch = SAMPLES.resolve("named-producer-consumer/launch.json").toString();
        cli("run", launch, "--policy", "random", "--seed", "11", "--report", a.toString());
        cli("run", launch, "--policy", "random", "--seed", "11", "--report", b.toString());
        ObjectMapper om = new ObjectMapper();
        var ja = (com.fasterxml.jackson.databind.node.ObjectNode) om.readTree(a.toFile());
        var jb = (com.fasterxml.jackson.databind.node.ObjectNode) om.readTree(b.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) ja.get("stats")).remove("wallMillis");
        ((com.fasterxml.jackson.databind.node.ObjectNode) jb.get("stats")).remove("wallMillis");
        assertEquals(ja, jb);
        assertEquals(11, ja.get("seed").asLong());
        assertEquals("random", ja.get("policy").asText());
    }

    @Test
    void theRealEntryPointPrintsTheWholeSummaryAndExitsWithTheVerdict() throws Exception {
        Path launch = plainLaunch("named-barrier-too-many", "math_warps", 128);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", launch.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(3, p.waitFor(), out);
        assertTrue(out.contains("math_warps: deadlock") && out.contains("Deadlock: no thread can make progress"), out);
    }
}
