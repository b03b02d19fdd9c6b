package io.barrierscope.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzz campaign's {@code cli-args} category (docs/reliability.md): whole command lines for
 * {@code run}, {@code explore}, {@code export}, {@code diff} and {@code check}, assembled from the
 * commands' options with hostile values (edge and non-ASCII numbers, unknown policies, breakpoint
 * and schedule strings), over good, damaged and odd files (launch files mutated, traces damaged,
 * a folder, a missing file, an empty or NUL path; no .cu, whose nvcc compile takes tens of
 * seconds and is tested with a stand-in in launch/NvccCompilerTest). Oracle: never exit 1, exit 2 always with
 * "error", every input file unchanged, each command line done within the campaign's bound. Runs are
 * kept short by a step limit the command line always ends with (a drawn one is one of a few small
 * or invalid numbers), and explore by two or three schedules.
 */
class CliArgsFuzzTest {
    @TempDir
    Path tmp;

    private static final String[] COMMANDS = {"run", "explore", "export", "diff", "check"};
    private static final String[] NUMBERS = {"0", "1", "-1", "2", "17", "4294967297", "9223372036854775807", "-9223372036854775808",
        "99999999999999999999", "1e3", "0x10", "\u0662", "", " 5", "+3", "2.5"};
    private static final String[] STEPS = {"1", "2", "500", "20000", "0", "-1", "99999999999999999999", "x"};
    private static final String[] POLICIES = {"round-robin", "random", "adversarial", "RANDOM", "", "x"};
    private static final String[] BREAK_PARTS = {"line", "barrier", "mbarrier", "tx-zero", "arrive", "wait-false", "park", "deadlock",
        "diagnostic", "race", ":", ",", "=", "cta", "warp", "thread", "hits", "0", "1", "42", "-1", "0x18", "4294967297", "\u0662", "kernel.cu"};
    private static final String[] SCHEDULE_PARTS = {io.barrierscope.explore.Schedule.PREFIX, "s2:", "0", "1", "7", "9999999999999", "w", "g", "a", "t", ",", "-", " "};

    private int ran;
    private int refused;
    /** Every input file and its bytes: none may change. */
    private final Map<Path, byte[]> inputs = new LinkedHashMap<>();

    private Path input(Path p, byte[] bytes) throws Exception {
        Files.write(p, bytes);
        inputs.put(p, bytes);
        return p;
    }

    @Test
    void commandLinesWithHostileArgumentsRunOrAreRefusedWithAMessage() throws Exception {
        Random r = FuzzInputs.random("cli-args");
        List<String> files = files(r);
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            List<String> args = commandLine(r, files, i);
            String shown = String.join(" | ", args);
            assertTimeoutPreemptively(EndToEndFuzzTest.BOUND, () -> cli(args), shown);
            for (Map.Entry<Path, byte[]> e : inputs.entrySet()) {
                assertArrayEquals(e.getValue(), Files.readAllBytes(e.getKey()), e.getKey() + " unchanged by " + shown);
            }
        }
        System.out.println("fuzz cli-args: " + (ran + refused) + " inputs: " + ran + " ran to an outcome, " + refused
                + " refused as bad input");
    }

    private void cli(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        String shown = String.join(" | ", args);
        if (code == Main.TOOL_FAILURE) fail(shown + ": internal failure:\n" + err + out);
        if (code == Main.BAD_INPUT && !err.toString().contains("error") && !out.toString().contains("error")) {
            fail(shown + ": exit 2 without an error message:\n" + err + out);
        }
        if (code == Main.BAD_INPUT) refused++;
        else ran++;
    }

    /** The files a command line may name: sample launches and their PTX, a trace, damaged copies, and odd paths. */
    private List<String> files(Random r) throws Exception {
        List<String> f = new ArrayList<>();
        String[] samples = {"block-reduce", "mbarrier-parity-pipeline", "named-barrier-too-many", "tma-tile-load"};
        for (String s : samples) {
            Path src = FuzzInputs.SAMPLES.resolve(s);
            Path dir = Files.createDirectories(tmp.resolve(s));
            input(dir.resolve("kernel.ptx"), Files.readAllBytes(src.resolve("kernel.ptx")));
            Path l = input(dir.resolve("launch.json"), Files.readAllBytes(src.resolve("launch.json")));
            f.add(l.toString());
            f.add(dir.resolve("kernel.ptx").toString());
            for (int k = 0; k < 3; k++) {
                String m = JsonMutator.mutate(FuzzInputs.read(l), r);
                f.add(input(dir.resolve("mutated " + k + ".json"), m.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString());
            }
        }
        List<byte[]> traces = new ArrayList<>();
        for (String s : new String[] {"block-reduce", "mbarrier-parity-pipeline"}) {
            Path t = tmp.resolve(s + ".bstrace");
            int code = Main.execute(new String[] {"run", tmp.resolve(s).resolve("launch.json").toString(), "--max-steps", "3000", "--trace",
                t.toString()}, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
            if (code == Main.TOOL_FAILURE || code == Main.BAD_INPUT) fail("could not write a trace of " + s);
            traces.add(Files.readAllBytes(t));
            inputs.put(t, traces.get(traces.size() - 1));
            f.add(t.toString());
        }
        for (int k = 0; k < 6; k++) f.add(input(tmp.resolve("damaged" + k + ".bstrace"), TraceMutator.mutate(traces, r)).toString());
        f.add(tmp.resolve("missing.json").toString());
        f.add(tmp.resolve("missing.bstrace").toString());
        f.add(tmp.toString());
        f.add("");
        f.add("-");
        f.add("a\u0000b.json");
        f.add(input(tmp.resolve("empty.json"), new byte[0]).toString());
        return f;
    }

    /** Where a command line may write: fresh files in the campaign's folder, a folder, a path under a missing folder. */
    private String output(Random r, int i) {
        return switch (r.nextInt(6)) {
            case 0 -> tmp.toString();
            case 1 -> tmp.resolve("no such folder").resolve("o.json").toString();
            case 2 -> "";
            default -> tmp.resolve("out" + i + "-" + r.nextInt(1000) + (r.nextBoolean() ? ".json" : ".bstrace")).toString();
        };
    }

    private static String good(String cmd, List<String> files, Random r) {
        String ext = cmd.equals("export") || cmd.equals("diff") ? ".bstrace" : cmd.equals("check") ? ".ptx" : "launch.json";
        List<String> ok = files.stream().filter(f -> f.endsWith(ext) && !f.contains("damaged") && !f.contains("missing")).toList();
        return ok.get(r.nextInt(ok.size()));
    }

    private static String pick(String[] a, Random r) { return a[r.nextInt(a.length)]; }

    private static String assemble(String[] parts, Random r, int max) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(max);
        for (int k = 0; k < n; k++) sb.append(pick(parts, r));
        return sb.toString();
    }

    private List<String> commandLine(Random r, List<String> files, int i) {
        String cmd = r.nextInt(20) == 0 ? pick(new String[] {"", "runn", "--help", "-x", "help"}, r) : pick(COMMANDS, r);
        List<String> a = new ArrayList<>();
        a.add(cmd);
        int positionals = cmd.equals("diff") ? 2 : 1;
        if (r.nextInt(12) == 0) positionals += r.nextBoolean() ? 1 : -1;
        // Half the time a good file of the kind the command takes, else any of them.
        for (int k = 0; k < positionals; k++) a.add(r.nextBoolean() ? good(cmd, files, r) : files.get(r.nextInt(files.size())));
        String[] options = switch (cmd) {
            case "run" -> new String[] {"--policy", "--seed", "--schedule", "--report", "--report-elements", "--no-race", "--trace", "--break"};
            case "explore" -> new String[] {"--seed", "--max-preemptions", "--no-symmetry", "--no-por", "--no-source-sets", "--source-sets", "--bounded-por", "--decision-order", "--no-minimize",
                "--jobs", "--report"};
            case "export" -> new String[] {"--format", "-o", "--output", "--progress"};
            case "diff" -> new String[] {"--schedule", "--a-schedule", "--b-schedule", "--seed", "--a-seed", "--b-seed", "--policy",
                "--a-policy", "--b-policy", "--report", "--progress"};
            default -> new String[] {"--policy", "--seed", "--bogus"};
        };
        int n = r.nextInt(4);
        for (int k = 0; k < n; k++) {
            String o = pick(options, r);
            a.add(o);
            switch (o) {
                case "--policy", "--a-policy", "--b-policy" -> a.add(pick(POLICIES, r));
                case "--schedule", "--a-schedule", "--b-schedule" -> a.add(assemble(SCHEDULE_PARTS, r, 10));
                case "--break" -> a.add(assemble(BREAK_PARTS, r, 6));
                case "--report", "--trace", "-o", "--output" -> a.add(output(r, i));
                case "--format" -> a.add(pick(new String[] {"chrome", "CHROME", "", "json"}, r));
                case "--seed", "--a-seed", "--b-seed", "--report-elements", "--max-preemptions" ->
                        a.add(r.nextBoolean() ? pick(NUMBERS, r) : String.valueOf(r.nextInt(5)));
                case "--jobs" -> a.add(pick(new String[] {"1", "2", "0", "-1", "1024", "99999", "2147483647", "x"}, r));
                default -> { }
            }
        }
        if (r.nextInt(10) == 0 && a.size() > 2) java.util.Collections.swap(a, 1 + r.nextInt(a.size() - 1), 1 + r.nextInt(a.size() - 1));
        // Bounded runs: every command that runs ends with a short step limit (sometimes an invalid one).
        if (cmd.equals("run") || cmd.equals("diff") || cmd.equals("explore")) {
            a.add("--max-steps");
            a.add(r.nextInt(4) == 0 ? pick(STEPS, r) : "20000");
        }
        if (cmd.equals("explore")) {
            a.addAll(List.of("--schedules", String.valueOf(1 + r.nextInt(3)), "--time-limit", "20", "--minimize-time", "1"));
        }
        return a;
    }
}
