package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.cli.Main;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUDA graphs and stream capture, stream-ordered memory pools and peer copies on the one device
 * (docs/runtime.md), each an unmodified program of src/test/cuda run by `barrierscope exec`
 * whose own checks decide; skipped, saying why, where nvcc or gcc is missing.
 */
class ExecGraphsTest {
    @TempDir
    static Path bundles;

    static ExecProgramsTest.Ran exec(String name) throws Exception {
        return ExecProgramsTest.exec(CudaPrograms.build(name), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
    }

    @Test
    void graphsBuiltByHandAndByStreamCaptureReplayEveryNodeOnEachLaunchAndNothingRunsWhileCaptured() throws Exception {
        ExecProgramsTest.Ran r = exec("graphs");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graphs"), r.all());
    }

    @Test
    void captureAndGraphErrorsAreTheDocumentedCodesAndAFaultingKernelNodeStopsTheGraphWithAStickyError() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_errors");
        assertEquals(Main.DIAGNOSED, r.code(), "the faulting kernel node is a failed launch\n" + r.all());
        assertTrue(r.program().contains("PASS graph_errors"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaStreamSynchronize: the stream is capturing; the capture is invalidated"
                + " (returns cudaErrorStreamCaptureUnsupported)"), r.all());
        assertTrue(r.program().contains("cudaStreamEndCapture: a stream that joined the capture (by waiting on its event) was not"
                + " joined back"), r.all());
        assertTrue(r.program().contains("cudaGraphInstantiate: the graph has a cycle"), r.all());
        assertTrue(r.err().contains("[memory-fault]") && r.err().contains("1 of 1 launches failed"), r.all());
    }
}
