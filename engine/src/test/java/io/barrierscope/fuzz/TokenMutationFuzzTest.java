package io.barrierscope.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `ptx-tokens` (docs/reliability.md, the campaign of 2026-11-29 afternoon): a sample's nvcc PTX with
 * one token (a name, number, directive or punctuation; comments skipped) deleted, doubled, or swapped
 * with the next, at a position drawn from a seeded {@link Random}; then {@code run --max-steps 3000}
 * of the sample's launch file, recorded as a trace, and each trace written reopened by {@code
 * export}. Oracle: never exit 1, exit 2 always with "error", no Java exception or stack in the
 * output, every input unchanged, each within the campaign's bound. The campaign ran every position
 * of five samples (18,106 inputs) and every third of six more; this keeps the angle in the suite.
 */
class TokenMutationFuzzTest {
    private static final Pattern TOKEN = Pattern.compile(
            "[A-Za-z_$%.][A-Za-z0-9_$.%]*|0[xXfFdD][0-9a-fA-F]+|[0-9]+(\\.[0-9]+)?|\"[^\"\\n]*\"|//[^\\n]*|\\S");
    private static final String[] SAMPLES = {"block-reduce", "tma-tile-load", "mbarrier-token-wait", "cp-async-mbarrier",
        "cluster-dsmem-exchange", "warp-shuffle"};

    @TempDir
    Path tmp;

    private static String mutate(String ptx, Random r) {
        List<int[]> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(ptx);
        while (m.find()) if (!m.group().startsWith("//")) tokens.add(new int[] {m.start(), m.end()});
        int i = r.nextInt(tokens.size() - 1);
        int[] t = tokens.get(i);
        int[] u = tokens.get(i + 1);
        return switch (r.nextInt(3)) {
            case 0 -> ptx.substring(0, t[0]) + ptx.substring(t[1]);
            case 1 -> ptx.substring(0, t[1]) + " " + ptx.substring(t[0]);
            default -> ptx.substring(0, t[0]) + ptx.substring(u[0], u[1]) + ptx.substring(t[1], u[0]) + ptx.substring(t[0], t[1])
                    + ptx.substring(u[1]);
        };
    }

    /** The exit code of the command line, failing on an internal failure or an unlocated refusal. */
    private static int cli(String shown, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        String all = err + "\n" + out;
        if (code == Main.TOOL_FAILURE) fail(shown + ": internal failure:\n" + all);
        if (code == Main.BAD_INPUT && !err.toString().contains("error")) fail(shown + ": exit 2 without an error message:\n" + all);
        if (all.contains("Exception") || all.contains("\tat ")) fail(shown + ": a Java exception in the output:\n" + all);
        return code;
    }

    @Test
    void aSamplesPtxWithOneTokenDeletedDoubledOrSwappedRunsRecordsAndReopensOrIsRefusedAtItsLine() throws Exception {
        Random rnd = FuzzInputs.random("ptx-tokens");
        int ran = 0;
        int refused = 0;
        int n = FuzzInputs.tries() * 2;
        for (int k = 0; k < n; k++) {
            String sample = SAMPLES[rnd.nextInt(SAMPLES.length)];
            Path dir = Files.createDirectories(tmp.resolve(sample + "-" + k));
            String ptx = FuzzInputs.read(FuzzInputs.SAMPLES.resolve(sample).resolve("kernel.ptx"));
            String launch = FuzzInputs.read(FuzzInputs.SAMPLES.resolve(sample).resolve("launch.json"));
            byte[] mutated = mutate(ptx, rnd).getBytes(StandardCharsets.UTF_8);
            Path p = Files.write(dir.resolve("kernel.ptx"), mutated);
            Path l = Files.writeString(dir.resolve("launch.json"), launch);
            byte[] launchBytes = Files.readAllBytes(l);
            Path trace = dir.resolve("t.bstrace");
            String shown = p + " (" + sample + ", input " + k + ")";
            int[] code = new int[1];
            assertTimeoutPreemptively(EndToEndFuzzTest.BOUND, () -> {
                code[0] = cli(shown, "run", l.toString(), "--max-steps", "3000", "--trace", trace.toString());
                if (code[0] != Main.BAD_INPUT && Files.exists(trace)) {
                    int reopened = cli(shown + " reopened", "export", trace.toString(), "--format", "chrome", "-o", dir.resolve("t.json").toString());
                    if (reopened != Main.OK) fail(shown + ": its trace did not reopen (exit " + reopened + ")");
                }
            }, shown);
            assertArrayEquals(mutated, Files.readAllBytes(p), shown + ": the PTX unchanged");
            assertArrayEquals(launchBytes, Files.readAllBytes(l), shown + ": the launch file unchanged");
            if (code[0] == Main.BAD_INPUT) refused++;
            else ran++;
        }
        System.out.println("fuzz ptx-tokens: " + n + " inputs: " + ran + " ran to an outcome, recorded and reopened, " + refused
                + " refused as bad input");
    }
}
