package io.barrierscope.launch;

import io.barrierscope.exec.AsyncLatency;
import io.barrierscope.exec.Dim3;
import java.nio.file.Path;
import java.util.List;

/**
 * A parsed, validated launch file (README, "Command line"). Paths are absolute. {@code buffers} are global
 * buffers that are not kernel parameters (e.g. the tensor behind a tensor map); {@code latency} is
 * the launch's async latency model, or null for each policy's default; {@code sourceText} the
 * launch-file text it was read from (a trace's embedded launch included), so that a mistake found
 * later is shown in that text, never in whatever file lies at {@code file}'s path, or null.
 */
public record LaunchSpec(Path file, Path ptx, String kernel, Dim3 grid, Dim3 block, Dim3 cluster,
                         List<ArgSpec> args, int dynamicSharedBytes, Expectation expect,
                         String policy, long seed, long maxSteps, List<String> notes, List<ArgSpec> buffers,
                         AsyncLatency latency, String sourceText, DeviceImage device) {
    public static final long DEFAULT_MAX_STEPS = 50_000_000L;

    /** Without a device image (the PTX's own globals and constants: every launch file but a bundle's). */
    public LaunchSpec(Path file, Path ptx, String kernel, Dim3 grid, Dim3 block, Dim3 cluster, List<ArgSpec> args,
                      int dynamicSharedBytes, Expectation expect, String policy, long seed, long maxSteps, List<String> notes,
                      List<ArgSpec> buffers, AsyncLatency latency, String sourceText) {
        this(file, ptx, kernel, grid, block, cluster, args, dynamicSharedBytes, expect, policy, seed, maxSteps, notes, buffers, latency,
                sourceText, null);
    }

    /** Not read from launch-file text (a bare .ptx, a test's launch): messages cannot point into one. */
    public LaunchSpec(Path file, Path ptx, String kernel, Dim3 grid, Dim3 block, Dim3 cluster, List<ArgSpec> args,
                      int dynamicSharedBytes, Expectation expect, String policy, long seed, long maxSteps, List<String> notes,
                      List<ArgSpec> buffers, AsyncLatency latency) {
        this(file, ptx, kernel, grid, block, cluster, args, dynamicSharedBytes, expect, policy, seed, maxSteps, notes, buffers, latency,
                null);
    }

    /** Without a latency model of its own (each policy's default). */
    public LaunchSpec(Path file, Path ptx, String kernel, Dim3 grid, Dim3 block, Dim3 cluster, List<ArgSpec> args,
                      int dynamicSharedBytes, Expectation expect, String policy, long seed, long maxSteps, List<String> notes,
                      List<ArgSpec> buffers) {
        this(file, ptx, kernel, grid, block, cluster, args, dynamicSharedBytes, expect, policy, seed, maxSteps, notes, buffers, null);
    }

    public LaunchSpec(Path file, Path ptx, String kernel, Dim3 grid, Dim3 block, Dim3 cluster, List<ArgSpec> args,
                      int dynamicSharedBytes, Expectation expect, String policy, long seed, long maxSteps, List<String> notes) {
        this(file, ptx, kernel, grid, block, cluster, args, dynamicSharedBytes, expect, policy, seed, maxSteps, notes, List.of());
    }
}
