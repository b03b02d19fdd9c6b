package io.barrierscope.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * The campaign's settings and generators. Tries per category come from {@code -Dfuzz.tries=N}
 * (default {@link #DEFAULT_TRIES}, the short run of the normal test suite) and the seed from
 * {@code -Dfuzz.seed=S} (default fixed, so the normal suite is deterministic); both are printed.
 * Values are drawn with jqwik's generators from a java.util.Random of that seed.
 */
final class FuzzInputs {
    static final int DEFAULT_TRIES = 25;
    static final Path SAMPLES = Path.of("..", "samples").toAbsolutePath().normalize();

    private FuzzInputs() {}

    static int tries() { return Integer.getInteger("fuzz.tries", DEFAULT_TRIES); }

    static long seed() { return Long.getLong("fuzz.seed", 20261126L); }

    /** A seeded source for one category, its seed mixed with the category's name (so categories differ). */
    static Random random(String category) {
        long s = seed() ^ (category.hashCode() * 0x9E3779B97F4A7C15L);
        System.out.println("fuzz " + category + ": seed " + seed() + ", " + tries() + " tries (-Dfuzz.seed=" + seed() + " -Dfuzz.tries=" + tries() + ")");
        return new Random(s);
    }

    static <T> T draw(Arbitrary<T> a, Random r) { return a.generator(1000).next(r).value(); }

    /** Every sample directory with a launch file, sorted. */
    static List<Path> sampleLaunches() {
        try (Stream<Path> s = Files.list(SAMPLES)) {
            return s.map(d -> d.resolve("launch.json")).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Values a JSON field could hold that a launch should refuse or survive: edges, wrong kinds, hostile strings. */
    static String hostileJsonValue(Random r) {
        // One of four kinds, chosen here (jqwik's oneOf needs a jqwik thread; plain generators do not).
        return draw(switch (r.nextInt(4)) {
            case 0, 1 -> Arbitraries.of("0", "-1", "1", "2", "31", "32", "33", "1023", "1024", "1025", "65535", "65536", "1048576", "1048577",
                        "2147483647", "2147483648", "4294967295", "4294967296", "4294967297", "9223372036854775807",
                        "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
                        "1e999", "-1e999", "1e308", "1e-320", "0.5", "-0.0", "3.4028235e38", "3.5e38", "1e19",
                        "null", "true", "false", "\"\"", "\"\\u0000\"", "\"a\\u0000b\"", "\"../../etc/passwd\"", "\"/dev/zero\"",
                        "\"/\"", "\".\"", "\"\\u00e9\\u0663\"", "\"zero\"", "\"iota\"", "\"random:1\"", "\"random:99999999999999999999\"",
                        "\"data\"", "\"u8\"", "\"s32\"", "\"f32\"", "\"b128\"", "\"pred\"", "\"round-robin\"", "\"random\"",
                        "[]", "[0]", "[1,1,1]", "[1,1,1,1]", "[1048576,1048576,1048576]", "[4294967296,4294967296]", "[2,2,1]",
                        "{}", "{\"min\": 5, \"max\": 1}", "{\"min\": 1, \"max\": 1000000}", "[[[[[[[[]]]]]]]]");
            case 2 -> Arbitraries.longs().map(String::valueOf);
            default -> Arbitraries.integers().between(-3, 3000).map(String::valueOf);
        }, r);
    }

    /** Where a mutation goes: the offsets of JSON values (numbers, strings, literals, arrays) in {@code json}. */
    static List<int[]> valueSpans(String json) {
        List<int[]> spans = new ArrayList<>();
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == ':' || c == '[' || c == ',') {
                int j = i + 1;
                while (j < json.length() && Character.isWhitespace(json.charAt(j))) j++;
                if (j >= json.length()) continue;
                int k = j;
                char v = json.charAt(j);
                if (v == '"') {
                    k = j + 1;
                    while (k < json.length() && json.charAt(k) != '"') k += json.charAt(k) == '\\' ? 2 : 1;
                    k = Math.min(json.length(), k + 1);
                } else if (v == '-' || Character.isDigit(v) || Character.isLetter(v)) {
                    while (k < json.length() && ",]} \n\t".indexOf(json.charAt(k)) < 0) k++;
                } else {
                    continue;
                }
                spans.add(new int[] {j, k});
            }
        }
        return spans;
    }
}
