package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that misuses the runtime (src/test/cuda/misuse.cu) gets each call's error, named, and
 * goes on (docs/reliability.md): a copy whose kind said host where its pointer was device memory,
 * or a freed device pointer, was touched in the program's own process and killed it with SIGSEGV;
 * a cudaMallocPitch of width SIZE_MAX rounded its pitch up to 0 and returned success with no memory;
 * a grid of dim3(0xFFFFFFFF) or a block of (0xFFFFFFFF, 0xFFFFFFFF, 1) was read as negative ints.
 */
class ExecMisuseTest {
    @TempDir
    Path bundles;

    @Test
    void copiesPitchedAllocationsAndLaunchShapesPastTheirLimitsAreRefusedNamedAndTheProgramGoesOn() throws Exception {
        CudaPrograms.assumeToolchain();
        ExecProgramsTest.Ran r = ExecProgramsTest.exec(CudaPrograms.build("misuse"), LaunchOptions.defaults().withBundles(bundles, false));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS misuse"), r.all());
        assertTrue(r.all().contains("cudaMemcpy: the source pointer") && r.all().contains("is device memory, but the copy's kind says host"), r.all());
        assertTrue(r.all().contains("is not host memory this process has mapped"), r.all());
        assertTrue(r.all().contains("cudaMallocPitch: width 18446744073709551615, height 2, depth 1: the pitched allocation passes 2^64 bytes"), r.all());
        assertTrue(r.all().contains("grid (4294967295,1,1): CUDA takes 1 to 2147483647 CTAs in x"), r.all());
    }
}
