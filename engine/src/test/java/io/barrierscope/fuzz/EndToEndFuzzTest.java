package io.barrierscope.fuzz;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.barrierscope.cli.Main;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ReportWriter;
import io.barrierscope.trace.Breakpoint;
import io.barrierscope.trace.ChromeExport;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end fuzz campaign (docs/reliability.md). Each category feeds generated and damaged
 * inputs through the engine's public entry points and the CLI. Oracles: a located rejection
 * (BadInputException, exit code 2 with "error:") or a completed or diagnosed run, never another
 * exception or exit code 1; the files it was given are unchanged afterwards; each input finishes
 * within a generous bound (runs are capped by a step limit, so a hang is a bug). The normal suite
 * runs a short campaign; {@code mvn -pl engine -am test -Dtest=EndToEndFuzzTest -Dfuzz.tries=N
 * -Dfuzz.seed=S} runs a long one.
 */
class EndToEndFuzzTest {
    /** Far above any input's real time; reached only by a hang. */
    static final Duration BOUND = Duration.ofSeconds(120);
    static final long STEPS = 20_000;

    @TempDir
    Path tmp;

    /** Inputs that ran to an outcome and inputs refused as bad input, for the campaign's printed counts. */
    private int ran;
    private int refused;

    private void tally(String category) {
        System.out.println("fuzz " + category + ": " + (ran + refused) + " inputs: " + ran + " ran to an outcome, " + refused
                + " refused as bad input");
        ran = 0;
        refused = 0;
    }

    private void survives(String what, Runnable r) {
        assertTimeoutPreemptively(BOUND, () -> {
            try {
                r.run();
                ran++;
            } catch (BadInputException e) {
                refused++;
                String m = e.getMessage();
                if (m == null || !m.contains("error")) fail(what + ": a rejection without a message: " + m);
            } catch (RuntimeException | StackOverflowError e) {
                throw new AssertionError(what + ": " + e, e);
            }
        }, what);
    }

    private int cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        if (code == Main.TOOL_FAILURE) fail(String.join(" ", args) + ": internal failure:\n" + err);
        if (code == Main.BAD_INPUT && !err.toString().contains("error")) fail(String.join(" ", args) + ": exit 2 without an error message: " + err);
        if (code == Main.BAD_INPUT) refused++;
        else ran++;
        return code;
    }

    /** A sample's launch text with its "ptx" made absolute, so it can be written anywhere. */
    private static String portable(Path launch) {
        String text = FuzzInputs.read(launch);
        String ptx = launch.getParent().resolve("kernel.ptx").toString().replace("\\", "\\\\");
        return text.replaceFirst("\"ptx\"\\s*:\\s*\"kernel.ptx\"", "\"ptx\": \"" + java.util.regex.Matcher.quoteReplacement(ptx) + "\"");
    }

    @Test
    void mutatedPtxOnTheSamplesLaunchesRunsOrIsRefused() {
        Random r = FuzzInputs.random("ptx-execution");
        List<Path> launches = FuzzInputs.sampleLaunches();
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            Path launch = launches.get(r.nextInt(launches.size()));
            LaunchSpec spec = LaunchValidation.validate(launch).spec();
            String ptx = PtxMutator.mutate(FuzzInputs.read(spec.ptx()), r);
            survives(launch + " with mutated PTX #" + i, () -> {
                LaunchedRun run = LaunchValidation.validate(spec, ptx).start(null, null);
                run.runToEnd(STEPS);
                run.summary();
                run.expectDifferences();
                ReportWriter.report(run, 0);
            });
        }
        tally("ptx-execution");
    }

    @Test
    void mutatedLaunchFilesRunOrAreRefusedThroughTheCli() throws Exception {
        Random r = FuzzInputs.random("launch-json");
        List<Path> launches = FuzzInputs.sampleLaunches();
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            Path launch = launches.get(r.nextInt(launches.size()));
            String text = JsonMutator.mutate(portable(launch), r);
            Path l = tmp.resolve("l" + i + ".json");
            Files.writeString(l, text);
            byte[] before = Files.readAllBytes(l);
            byte[] ptxBefore = Files.readAllBytes(launch.getParent().resolve("kernel.ptx"));
            assertTimeoutPreemptively(BOUND, () -> {
                cli("run", l.toString(), "--max-steps", String.valueOf(STEPS), "--report", tmp.resolve("r.json").toString());
                if (r.nextInt(8) == 0) cli("explore", l.toString(), "--schedules", "2", "--max-steps", "5000", "--time-limit", "0");
            }, l + ":\n" + text);
            assertArrayEquals(before, Files.readAllBytes(l), "the launch file is untouched");
            assertArrayEquals(ptxBefore, Files.readAllBytes(launch.getParent().resolve("kernel.ptx")), "the PTX is untouched");
        }
        tally("launch-json");
    }

    @Test
    void damagedTracesOpenOrAreRefusedAndStayUntouched() throws Exception {
        Random r = FuzzInputs.random("trace-files");
        List<byte[]> traces = new ArrayList<>();
        for (String s : new String[] {"block-reduce", "multicast-bulk-copy", "mbarrier-parity-pipeline", "named-barrier-too-many"}) {
            TimeTravel tt = new TimeTravel(LaunchValidation.validate(FuzzInputs.SAMPLES.resolve(s).resolve("launch.json")).start(), 4000);
            tt.runForward(() -> false);
            Path t = tmp.resolve(s + ".bstrace");
            TraceFile.write(tt, t);
            traces.add(Files.readAllBytes(t));
        }
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            byte[] damaged = TraceMutator.mutate(traces, r);
            Path t = tmp.resolve("d" + i + ".bstrace");
            Files.write(t, damaged);
            Path out = tmp.resolve("d" + i + ".json");
            survives(t + " (damaged trace)", () -> {
                TimeTravel tt = TraceFile.open(t);
                try {
                    ChromeExport.write(tt, out);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertArrayEquals(damaged, Files.readAllBytes(t), "the trace on disk is untouched");
        }
        tally("trace-files");
    }

    @Test
    void breakpointSpecsParseOrAreRefusedWithAPosition() {
        Random r = FuzzInputs.random("breakpoints");
        String[] parts = {"line", "barrier", "mbarrier", "tx-zero", "arrive", "wait-false", "park", "deadlock", "diagnostic", ":", ",",
            "=", "cta", "warp", "thread", "cluster", "phase", "hits", "0", "1", "42", "-1", "0x", "0x18", "4294967297", "99999999999999999999",
            "\u0662", "kernel.cu", "race", " ", "", "\u0000", "full", "+"};
        for (int i = 0; i < FuzzInputs.tries() * 20; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + r.nextInt(8);
            for (int k = 0; k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            String spec = sb.toString();
            assertTimeoutPreemptively(BOUND, () -> {
                try {
                    Breakpoint.parse(spec);
                    ran++;
                } catch (IllegalArgumentException e) {
                    refused++;
                    assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), spec);
                } catch (RuntimeException e) {
                    throw new AssertionError("breakpoint '" + spec + "': " + e, e);
                }
            });
        }
        tally("breakpoints");
    }

    @Test
    void schedulesParseOrAreRefusedAndReplayWithinTheirLimit() {
        Random r = FuzzInputs.random("schedules");
        Path launch = FuzzInputs.SAMPLES.resolve("block-reduce/launch.json");
        String[] parts = {Schedule.PREFIX, "s2:", "0", "1", "7", "12", "9999999999999", "99999999999", "w", "g", "a", "t", ",", "\u0663",
            "-", " ", "x"};
        for (int i = 0; i < FuzzInputs.tries() * 4; i++) {
            StringBuilder sb = new StringBuilder(r.nextInt(4) == 0 ? "" : Schedule.PREFIX);
            int n = r.nextInt(12);
            for (int k = 0; k < n; k++) sb.append(parts[r.nextInt(parts.length)]);
            String text = sb.toString();
            survives("schedule '" + text + "'", () -> {
                Schedule s = Schedule.parse(text);
                LaunchedRun run = LaunchValidation.validate(launch).start(new SchedulePolicy(s));
                run.runToEnd(STEPS);
            });
        }
        tally("schedules");
    }

    @Test
    void everyTraceTheToolWritesReopens() throws Exception {
        Random r = FuzzInputs.random("trace-round-trip");
        String[] samples = {"block-reduce", "multicast-bulk-copy", "mbarrier-parity-pipeline", "tma-tile-load", "syncthreads-divergent"};
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            String s = samples[r.nextInt(samples.length)];
            var node = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(portable(FuzzInputs.SAMPLES.resolve(s).resolve("launch.json")));
            node.remove("run");
            String policy = FuzzInputs.draw(Arbitraries.of("round-robin", "random", "adversarial"), r);
            long seed = FuzzInputs.draw(Arbitraries.longs(), r);
            long maxSteps = FuzzInputs.draw(Arbitraries.longs().between(1, 3000), r);
            String latency = r.nextBoolean() ? "" : ", \"latency\": {\"min\": " + (1 + r.nextInt(50)) + ", \"max\": " + (60 + r.nextInt(5000)) + "}";
            String text = node.toString().replaceFirst("\\{", java.util.regex.Matcher.quoteReplacement("{\"run\": {\"policy\": \"" + policy
                    + "\", \"seed\": " + seed + ", \"maxSteps\": " + maxSteps + latency + "},"));
            Path l = tmp.resolve("odd name " + i + ".json");
            Files.writeString(l, text);
            LaunchedRun run = LaunchValidation.validate(l).start();
            run.raceDetection(r.nextBoolean());
            TimeTravel tt = new TimeTravel(run);
            tt.runForward(() -> false);
            Path t = tmp.resolve("rt" + i + ".bstrace");
            TraceFile.write(tt, t);
            String what = s + " " + policy + " seed " + seed + " maxSteps " + maxSteps + latency;
            TimeTravel back = assertTimeoutPreemptively(BOUND, () -> TraceFile.open(t), what);
            assertEquals(tt.recording().steps(), back.recording().steps(), what);
            assertEquals(tt.recording().events(), back.recording().events(), what); // open itself compares every event byte
            ran++;
        }
        tally("trace-round-trip");
    }

    static String utf8(byte[] b) { return new String(b, StandardCharsets.UTF_8); }
}
