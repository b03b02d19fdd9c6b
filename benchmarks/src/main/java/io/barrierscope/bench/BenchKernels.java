package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * Finds the launch file a benchmark runs. {@link #BUNDLED} and {@link #BULK_PIPELINE} name the
 * kernels shipped in this jar ({@code kernels/*.cu}, compiled to {@code .ptx} with make-ptx),
 * which LaunchedRun can only open from disk, so they are copied to a temporary directory first;
 * any other value is a path to a launch file (e.g. {@code samples/block-reduce/launch.json}).
 */
public final class BenchKernels {
    /** The barrier-heavy barrier_loop kernel (the default of every benchmark). */
    public static final String BUNDLED = "bundled:barrier_loop";
    /** The long mbarrier / bulk-copy pipeline (bulk_pipeline.cu): the sample's pattern over many tiles. */
    public static final String BULK_PIPELINE = "bundled:bulk_pipeline";
    /** Per bundled kernel: its launch file first, then the files it needs beside it. */
    private static final Map<String, List<String>> FILES = Map.of(
            BUNDLED, List.of("launch.json", "barrier_loop.ptx", "barrier_loop.cu"),
            BULK_PIPELINE, List.of("bulk_pipeline_launch.json", "bulk_pipeline.ptx", "bulk_pipeline.cu"));

    private BenchKernels() {}

    /** The launch file for {@code name}: a bundled kernel (extracted once per call) or a path. */
    public static Path launchFile(String name) {
        List<String> files = FILES.get(name);
        if (files == null) return Path.of(name).toAbsolutePath();
        try {
            Path dir = Files.createTempDirectory("barrierscope-bench");
            dir.toFile().deleteOnExit();
            for (String f : files) {
                try (InputStream in = BenchKernels.class.getResourceAsStream("/kernels/" + f)) {
                    if (in == null) throw new IllegalStateException("resource /kernels/" + f + " missing from the classpath");
                    Path out = dir.resolve(f);
                    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                    out.toFile().deleteOnExit();
                }
            }
            return dir.resolve(files.get(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the launch once and fails unless it completed and met its expect block. */
    public static LaunchedRun verifiedRun(Path launch) {
        LaunchedRun run = LaunchValidation.validate(launch).start();
        Outcome o = run.runToEnd();
        List<String> diffs = run.expectDifferences();
        if (o != Outcome.COMPLETED || !diffs.isEmpty()) {
            throw new IllegalStateException(launch + ": benchmark kernel did not run correctly: " + run.summary() + diffs);
        }
        return run;
    }

    /**
     * A quick check without JMH: runs the kernel, checks its expect block, prints the counts and a
     * rough wall-clock rate. {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.BenchKernels [LAUNCH] [RUNS]}
     */
    public static void main(String[] args) {
        Path launch = launchFile(args.length > 0 ? args[0] : BUNDLED);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        LaunchedRun first = verifiedRun(launch);
        System.out.print(first.summary());
        long steps = 0;
        long threadInsns = 0;
        long nanos = 0;
        for (int i = 0; i < runs; i++) {
            LaunchedRun run = LaunchValidation.validate(launch).start().raceDetection(false);
            long t0 = System.nanoTime();
            run.runToEnd();
            nanos += System.nanoTime() - t0;
            steps += run.machine().steps;
            threadInsns += run.machine().threadInstructions;
        }
        double s = nanos / 1e9;
        System.out.printf("%d runs, %.3f s in runToEnd: %.2f M warp-instructions/s, %.1f M thread-instructions/s%n",
                runs, s, steps / s / 1e6, threadInsns / s / 1e6);
    }
}
