package io.barrierscope.bench;

import io.barrierscope.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The equivalence check of engine performance work (docs/performance.md, race detection overhead):
 * runs every sample's launch, the race and explore scenarios of the samples' test resources and
 * both bundled kernels under five policies, race detection on, through {@code barrierscope run} in
 * one JVM, and writes per run the summary ({@code .out}), the JSON report and the trace into a
 * directory. Two jars' directories must then match file for file, once the directory paths in the
 * summaries and the report's {@code wallMillis} are left out (the command is in docs/performance.md).
 * {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.RunMatrix OUT_DIR [REPO_ROOT]}
 */
public final class RunMatrix {
    private static final String[][] POLICIES = {{"--policy", "round-robin"}, {"--policy", "random", "--seed", "1"},
            {"--policy", "random", "--seed", "7"}, {"--policy", "adversarial", "--seed", "1"}, {"--policy", "adversarial", "--seed", "7"}};

    private RunMatrix() {}

    public static void main(String[] args) throws IOException {
        Path out = Files.createDirectories(Path.of(args[0]));
        Path root = Path.of(args.length > 1 ? args[1] : ".").toAbsolutePath().normalize();
        List<Path> launches = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(root.resolve("samples"))) {
            s.sorted().filter(p -> Files.exists(p.resolve("launch.json"))).forEach(p -> launches.add(p.resolve("launch.json")));
        }
        for (String d : new String[] {"races", "explore"}) {
            try (Stream<Path> s = Files.list(root.resolve("samples/src/test/resources/" + d))) {
                s.sorted().forEach(p -> launches.add(p.resolve("launch.json")));
            }
        }
        for (Path l : launches) names.add(root.resolve("samples").relativize(l.getParent()).toString().replace('/', '_'));
        launches.add(BenchKernels.launchFile(BenchKernels.BUNDLED));
        names.add("bundled0");
        launches.add(BenchKernels.launchFile(BenchKernels.BULK_PIPELINE));
        names.add("bundled1");
        for (int i = 0; i < launches.size(); i++) {
            for (int p = 0; p < POLICIES.length; p++) {
                String tag = names.get(i) + "." + p;
                List<String> a = new ArrayList<>(List.of("run", launches.get(i).toString()));
                a.addAll(List.of(POLICIES[p]));
                a.addAll(List.of("--report", out.resolve(tag + ".json").toString(), "--trace", out.resolve(tag + ".trace").toString()));
                StringWriter o = new StringWriter();
                StringWriter e = new StringWriter();
                int rc = Main.execute(a.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
                Files.writeString(out.resolve(tag + ".out"), "rc=" + rc + "\n" + o + "\n--err--\n" + e);
            }
        }
        System.out.println(launches.size() * POLICIES.length + " runs of " + launches.size() + " launches in " + out);
    }
}
