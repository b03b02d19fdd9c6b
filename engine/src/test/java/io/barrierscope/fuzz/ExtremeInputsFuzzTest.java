package io.barrierscope.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
 * The campaign's categories for the surfaces the first ones did not reach (docs/reliability.md):
 * PTX at the extremes of size and text (declarations of huge or zero sizes, initialiser lists of
 * a hundred thousand elements, deep nesting, long lines and names, other scripts, CR and CRLF
 * line ends, a BOM, NUL), launch JSON that a lenient reader would take (a key twice, text after
 * the object, integers written as decimals or exponents, struct fields), output paths that name
 * the command's own inputs (directly or through a link), and traces whose section lengths and
 * format are edge values under a correct checksum. Everything goes through the CLI. Oracle: never
 * exit 1 (nor an Error such as OutOfMemoryError), exit 2 always with "error", every input file
 * unchanged, each input within the campaign's bound.
 */
class ExtremeInputsFuzzTest {
    @TempDir
    Path tmp;

    private int ran;
    private int refused;
    private final Map<Path, byte[]> inputs = new LinkedHashMap<>();

    private Path input(Path p, byte[] bytes) throws Exception {
        Files.write(p, bytes);
        inputs.put(p, bytes);
        return p;
    }

    private void cli(String... args) throws Exception {
        String shown = String.join(" | ", args);
        String cut = shown.length() > 300 ? shown.substring(0, 300) + "..." : shown;
        assertTimeoutPreemptively(EndToEndFuzzTest.BOUND, () -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
            if (code == Main.TOOL_FAILURE) fail(cut + ": internal failure:\n" + err + out);
            if (code == Main.BAD_INPUT && !err.toString().contains("error")) fail(cut + ": exit 2 without an error message:\n" + err + out);
            if (code == Main.BAD_INPUT) refused++;
            else ran++;
        }, cut);
        for (Map.Entry<Path, byte[]> e : inputs.entrySet()) {
            assertArrayEquals(e.getValue(), Files.readAllBytes(e.getKey()), e.getKey() + " unchanged by " + cut);
        }
    }

    private void tally(String category) {
        System.out.println("fuzz " + category + ": " + (ran + refused) + " inputs: " + ran + " ran to an outcome, " + refused
                + " refused as bad input");
    }

    private static String pick(String[] a, Random r) { return a[r.nextInt(a.length)]; }

    private static String[] concat(String[] a, String[] b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static final String[] SIZES = {"0", "1", "3", "1023", "65536", "232448", "1048576", "4294967295", "4294967296",
        "1000000000000000000", "99999999999999999999999"};

    /** One extreme edit of a sample's PTX text. */
    static String extremePtx(String ptx, Random r) {
        int entry = ptx.indexOf(".entry");
        int body = ptx.indexOf("\n{", entry) + 2;
        int firstInsn = ptx.indexOf(";", ptx.indexOf(".reg", body)) + 1;
        return switch (r.nextInt(14)) {
            case 0 -> ptx.replaceFirst("%r<\\d+>", "%r<" + pick(SIZES, r) + ">");
            case 1 -> ptx.replaceFirst("\\[\\d+\\]", "[" + pick(SIZES, r) + "]");
            case 2 -> ptx.substring(0, body - 2) + "\n" + pick(new String[] {".reqnctapercluster", ".cluster_dim", ".maxntid", ".reqntid"}, r)
                    + " " + pick(SIZES, r) + ", " + pick(new String[] {"0", "1", "2"}, r) + ptx.substring(body - 2);
            case 3 -> { // a global initialiser list of up to 100,000 elements
                int n = r.nextInt(100_001);
                StringBuilder sb = new StringBuilder(".global .align 4 .u32 g_fuzz[" + Math.max(1, n - r.nextInt(3)) + "] = {");
                for (int i = 0; i < n; i++) sb.append(i == 0 ? "" : ",").append(r.nextInt(10));
                int at = ptx.indexOf(".address_size");
                at = ptx.indexOf('\n', at) + 1;
                yield ptx.substring(0, at) + sb + "};\n" + ptx.substring(at);
            }
            case 4 -> { // deep nesting of scopes or expressions
                int d = 1 + r.nextInt(100_000);
                String s = r.nextBoolean() ? "{".repeat(d) + "}".repeat(r.nextBoolean() ? d : 0)
                        : "mov.u32 %r_fz, " + "(".repeat(d) + "1" + ")".repeat(d) + ";";
                yield ptx.substring(0, firstInsn) + "\n" + s + "\n" + ptx.substring(firstInsn);
            }
            case 5 -> ptx.substring(0, firstInsn) + " " + " ".repeat(r.nextInt(2_000_000)) + ptx.substring(firstInsn); // a long line
            case 6 -> ptx.replaceFirst("\\$L__BB0_\\d+", "\\$L" + "x".repeat(r.nextInt(1_000_000))); // a long name
            case 7 -> ptx.replace("%r1,", pick(new String[] {"%r\u00e91,", "%r\ud83d\ude001,", "%\u0431,", "%r1\u0000,"}, r));
            case 8 -> ptx.replace("\n", r.nextBoolean() ? "\r\n" : "\r");
            case 9 -> "\ufeff" + ptx.replace(" ", r.nextBoolean() ? "\t" : "\u000b");
            case 10 -> ptx.substring(0, r.nextInt(ptx.length() + 1)); // cut anywhere
            case 11 -> ptx + ptx.substring(entry - ".visible ".length()).replaceAll("(\\.entry\\s+)(\\w+)", "$1$2_" + r.nextInt(3));
            case 12 -> ptx.replaceFirst("(mov|add)\\.(u32|s32)\\s+(%r\\d+),\\s*\\d+", "$1.$2 $3, "
                    + pick(new String[] {"0xFFFFFFFFFFFFFFFFFF", "18446744073709551615", "0F7FC00000", "0D7FF0000000000000", "0b", "-9223372036854775808",
                        "99999999999999999999999999"}, r));
            default -> ptx.replace(".version", ".version " + pick(new String[] {"99999999999999999999.1", "0.0", "-1.5"}, r) + " //");
        };
    }

    @Test
    void ptxAtTheExtremesOfSizeAndTextIsCheckedRunOrRefused() throws Exception {
        Random r = FuzzInputs.random("ptx-extremes");
        List<Path> launches = FuzzInputs.sampleLaunches();
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            Path sample = launches.get(r.nextInt(launches.size())).getParent();
            Path dir = Files.createDirectories(tmp.resolve("p" + i));
            input(dir.resolve("launch.json"), Files.readAllBytes(sample.resolve("launch.json")));
            String ptx = extremePtx(Files.readString(sample.resolve("kernel.ptx")), r);
            input(dir.resolve("kernel.ptx"), ptx.getBytes(StandardCharsets.UTF_8));
            cli("check", dir.resolve("kernel.ptx").toString());
            cli("run", dir.resolve("launch.json").toString(), "--max-steps", "5000");
            Files.delete(dir.resolve("kernel.ptx")); // a file of megabytes each: not kept for the whole campaign
            inputs.remove(dir.resolve("kernel.ptx"));
        }
        tally("ptx-extremes");
    }

    private static final String[] NUMBERS = {"4.0", "4e0", "0.4e1", "1e-99999", "1.0000000000000001", "1e999999999", "-0", "-0.0",
        "1E2", "1e19", "18446744073709551615", "18446744073709551616", "2.5", "0.0000000001e10"};

    /** One edit a lenient JSON reader would accept: a key twice, text after the object, integers spelled as decimals, struct fields. */
    static String strictJson(String json, Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> { // a key given twice
                List<int[]> spans = FuzzInputs.valueSpans(json);
                int[] sp = spans.get(r.nextInt(spans.size()));
                int keyStart = json.lastIndexOf('"', json.lastIndexOf('"', sp[0] - 1) - 1);
                if (keyStart < 0 || json.charAt(sp[0] - 1) == '[' || json.charAt(sp[0] - 1) == ',') yield json.replaceFirst("\\{", "{\"grid\": 1, \"grid\": 2, ");
                String key = json.substring(keyStart, json.indexOf('"', keyStart + 1) + 1);
                yield json.substring(0, sp[1]) + ", " + key + ": " + FuzzInputs.hostileJsonValue(r) + json.substring(sp[1]);
            }
            case 1 -> json + pick(new String[] {"x", "{}", json, "\u0000", " // end", ",", "]"}, r);
            case 2, 3 -> {
                List<int[]> spans = FuzzInputs.valueSpans(json);
                int[] sp = spans.get(r.nextInt(spans.size()));
                yield json.substring(0, sp[0]) + pick(NUMBERS, r) + json.substring(sp[1]);
            }
            case 4 -> json.replaceFirst("\"args\"\\s*:\\s*\\[", "\"args\": [{\"struct\": {\"bytes\": " + pick(SIZES, r) + ", \"fields\": [{\"offset\": "
                    + pick(new String[] {"0", "4", "-1", "4294967296"}, r) + ", \"type\": \"" + pick(new String[] {"s32", "u8", "f32", "u64"}, r)
                    + "\", \"value\": " + pick(NUMBERS, r) + "}]}}, ");
            default -> "\ufeff" + json;
        };
    }

    @Test
    void launchJsonALenientReaderWouldTakeIsRefusedAtItsPlaceOrRun() throws Exception {
        Random r = FuzzInputs.random("launch-json-strict");
        List<Path> launches = FuzzInputs.sampleLaunches();
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            Path sample = launches.get(r.nextInt(launches.size())).getParent();
            Path dir = Files.createDirectories(tmp.resolve("j" + i));
            input(dir.resolve("kernel.ptx"), Files.readAllBytes(sample.resolve("kernel.ptx")));
            String json = strictJson(Files.readString(sample.resolve("launch.json")), r);
            input(dir.resolve("launch.json"), json.getBytes(StandardCharsets.UTF_8));
            cli("run", dir.resolve("launch.json").toString(), "--max-steps", "5000");
        }
        tally("launch-json-strict");
    }

    @Test
    void outputPathsNamingTheCommandsOwnInputsOrOddFilesLeaveEveryInputUnchanged() throws Exception {
        Random r = FuzzInputs.random("output-paths");
        Path dir = Files.createDirectories(tmp.resolve("k"));
        Path sample = FuzzInputs.SAMPLES.resolve("block-reduce");
        Path launch = input(dir.resolve("launch.json"), Files.readAllBytes(sample.resolve("launch.json")));
        Path ptx = input(dir.resolve("kernel.ptx"), Files.readAllBytes(sample.resolve("kernel.ptx")));
        Path trace = tmp.resolve("t.bstrace");
        Main.execute(new String[] {"run", launch.toString(), "--trace", trace.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        inputs.put(trace, Files.readAllBytes(trace));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), launch);
        Path traceLink = Files.createSymbolicLink(tmp.resolve("trace-link"), trace);
        Path dotted = dir.resolve("..").resolve("k").resolve("kernel.ptx");
        // Each command's own inputs, spelled directly, through a link or with "..", and odd outputs besides.
        String[] launchIns = {launch.toString(), ptx.toString(), link.toString(), dotted.toString()};
        String[] traceIns = {trace.toString(), traceLink.toString()};
        String[] odd = {tmp.toString(), "", "/dev/null", "/dev/full", tmp.resolve("missing/dir/o.json").toString(), tmp.resolve("fresh.json").toString()};
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            int cmd = r.nextInt(5);
            String[] own = cmd == 2 ? traceIns : cmd == 3 ? concat(launchIns, traceIns) : launchIns;
            String o = r.nextBoolean() ? pick(own, r) : pick(odd, r);
            switch (cmd) {
                case 0 -> cli("run", launch.toString(), "--max-steps", "2000", "--trace", o);
                case 1 -> cli("run", launch.toString(), "--max-steps", "2000", "--report", o);
                case 2 -> cli("export", trace.toString(), "--format", "chrome", "-o", o);
                case 3 -> cli("diff", trace.toString(), launch.toString(), "--max-steps", "2000", "--report", o);
                default -> cli("explore", launch.toString(), "--schedules", "1", "--max-steps", "2000", "--time-limit", "5", "--report", o);
            }
        }
        tally("output-paths");
    }

    @Test
    void traceSectionLengthsAndFormatAtEdgeValuesUnderACorrectChecksumAreRefused() throws Exception {
        Random r = FuzzInputs.random("trace-length-fields");
        Path launch = FuzzInputs.SAMPLES.resolve("block-reduce/launch.json");
        Path good = tmp.resolve("good.bstrace");
        Main.execute(new String[] {"run", launch.toString(), "--trace", good.toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        byte[] t = Files.readAllBytes(good);
        int[] edges = {-1, 0, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 20, 1 << 30, 255, 256};
        for (int i = 0; i < FuzzInputs.tries(); i++) {
            List<TraceMutator.Section> s = new ArrayList<>(TraceMutator.sections(t));
            int format = ByteBuffer.wrap(t, 8, 4).getInt();
            byte[] b = TraceMutator.assemble(r.nextInt(4) == 0 ? edges[r.nextInt(edges.length)] : format, s);
            // a section's 4-byte length (after its tag) set to an edge value, the checksum made right again
            int at = 12;
            for (int j = r.nextInt(s.size()), m = 0; m < j; m++) at += 5 + s.get(m).data().length;
            if (at + 5 <= b.length - 32 && r.nextBoolean()) {
                ByteBuffer.wrap(b, at + 1, 4).putInt(edges[r.nextInt(edges.length)]);
                byte[] body = java.util.Arrays.copyOf(b, b.length - 32);
                System.arraycopy(java.security.MessageDigest.getInstance("SHA-256").digest(body), 0, b, b.length - 32, 32);
            }
            Path f = input(tmp.resolve("l" + i + ".bstrace"), b);
            cli("export", f.toString(), "--format", "chrome", "-o", tmp.resolve("o.json").toString());
        }
        tally("trace-length-fields");
    }
}
