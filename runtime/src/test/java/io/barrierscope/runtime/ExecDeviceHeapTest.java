package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernels' malloc/free and new/delete on the device heap (src/test/cuda/device_heap.cu, built
 * with nvcc -cudart shared): per-thread blocks, a list that outlives its launch, exhaustion,
 * cudaLimitMallocHeapSize, and a wrong free as a diagnostic (docs/runtime.md, "Device heap").
 * Skipped, saying why, where nvcc or gcc is missing.
 */
class ExecDeviceHeapTest {
    @TempDir
    static Path bundles;

    private static ExecProgramsTest.Ran exec(String... args) throws Exception {
        return ExecProgramsTest.exec(CudaPrograms.build("device_heap"), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false), args);
    }

    @Test
    void kernelsMallocWriteAndFreePerThreadKeepBlocksAcrossLaunchesAndGetNullWhenTheHeapIsExhausted() throws Exception {
        ExecProgramsTest.Ran r = exec();
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("per-thread blocks: 128 threads ok"), r.all());
        assertTrue(r.program().contains("list across launches: sum 2470 of 20 nodes"), r.all());
        assertTrue(r.program().contains("one thread: 15 blocks of 64 KiB, then NULL"), r.all());
        assertTrue(r.program().contains("PASS device_heap"), r.all());
        assertTrue(r.err().contains("cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2097152): a kernel that uses malloc or free was"
                + " launched already"), r.all());
        assertTrue(r.program().contains("is in the device heap (memory a kernel's malloc returned), which runtime API calls cannot use"),
                r.all());
    }

    @Test
    void freeingAnAllocationOfAnEarlierLaunchTwiceIsADiagnosticAndItsBundleReproducesIt() throws Exception {
        ExecProgramsTest.Ran r = exec("double-free");
        assertEquals(io.barrierscope.cli.Main.DIAGNOSED, r.code(), r.all());
        assertTrue(r.program().contains("after the double free: cudaErrorLaunchFailure"), r.all());
        assertTrue(r.all().contains("[heap-double-free]"), r.all());
        // The bundle carries the heap's bytes, so `run` finds the block freed as the program's launch did.
        assertTrue(r.err().contains("launch bundle"), r.all());
        assertFalse(r.err().contains("does not reproduce"), r.all());
    }

    @Test
    void freeingAPointerIntoAnAllocationIsADiagnostic() throws Exception {
        ExecProgramsTest.Ran r = exec("invalid-free");
        assertEquals(io.barrierscope.cli.Main.DIAGNOSED, r.code(), r.all());
        assertTrue(r.program().contains("after the invalid free: cudaErrorLaunchFailure"), r.all());
        assertTrue(r.all().contains("[heap-invalid-free]"), r.all());
    }
}
