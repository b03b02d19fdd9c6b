package io.barrierscope.testing;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs an nvcc-built kernel committed under test resources (its .cu beside its .ptx) with one
 * zeroed s32 buffer per name, race detection on.
 */
public final class CorpusKernel {
    private CorpusKernel() {}

    public static LaunchedRun run(String resource, String entry, int threads, String policy, long seed, String... buffers) {
        try {
            Path ptx = Path.of(CorpusKernel.class.getResource(resource).toURI());
            List<ArgSpec> args = java.util.Arrays.stream(buffers)
                    .map(b -> new ArgSpec(b, ScalarType.S32, 64, "zero", null, null)).toList();
            LaunchSpec spec = new LaunchSpec(ptx.resolveSibling(entry + ".json"), ptx, entry, new Dim3(1, 1, 1),
                    new Dim3(threads, 1, 1), null, args, 0, null, policy, seed, 2_000_000, List.of());
            LaunchedRun r = LaunchValidation.validate(spec).start(null, null).raceDetection(true);
            r.runToEnd();
            return r;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
