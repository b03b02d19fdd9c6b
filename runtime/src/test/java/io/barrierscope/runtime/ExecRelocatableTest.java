package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.runtime.ExecProgramsTest.Ran;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs built with relocatable device code (nvcc -rdc=true, several files device-linked),
 * run by `barrierscope exec` (docs/runtime.md, "Relocatable device code"). Skipped, saying why,
 * where nvcc or gcc is missing.
 */
class ExecRelocatableTest {
    @TempDir
    static Path bundles;

    static LaunchOptions options() { return LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false); }

    @Test
    void aKernelUsingAnotherFilesDeviceFunctionsAndVariablesRunsAndMatchesTheHostReference() throws Exception {
        Path exe = CudaPrograms.buildLinked("rdc", null, "rdc_main", "rdc_lib");
        Ran r = ExecProgramsTest.exec(exe, options());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS rdc 100 elements, 100 calls across files"), r.all());
        // printf's strings of both files ($str in each) are kept apart
        assertTrue(r.out().contains("rdc_mix: element 7\n") && r.out().contains("rdc_kernel: scale 3\n"), r.all());
    }

    @Test
    void aRelocatableProgramBuiltWithoutPtxIsRefusedNamingTheFlagsThatEmbedIt() throws Exception {
        Path exe = CudaPrograms.buildLinked("rdc-cubin-only", "-gencode=arch=compute_90a,code=sm_90a", "rdc_main", "rdc_lib");
        Ran r = ExecProgramsTest.exec(exe, options());
        assertTrue(r.all().contains("relocatable device code (-rdc=true) and object 1 of 2 holds no PTX"), r.all());
        assertTrue(r.all().contains("code=[compute_90a,sm_90a]"), r.all());
        // its variables are registered, and a copy to one names why it cannot be reached
        assertTrue(r.all().contains("cudaMemcpyToSymbol: the variable's CUDA module cannot run: it was built with relocatable"), r.all());
        assertTrue(r.program().contains("FAIL"), "the program's launch gets an error\n" + r.all());
    }

    @Test
    void aProgramLinkedWithAnArchiveOfRelocatableObjectsRunsTheLibrarysDeviceFunctionsAndKernels() throws Exception {
        Path exe = CudaPrograms.buildWithArchive("rdc-archive", "rdc_archive_main", "rdc_archive_lib", null);
        Ran r = ExecProgramsTest.exec(exe, options());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS rdc_archive 100 elements"), r.all());
    }

    @Test
    void anArchiveWhoseObjectsHoldNoPtxIsRefusedSayingToRebuildTheLibraryWithPtx() throws Exception {
        Path exe = CudaPrograms.buildWithArchive("rdc-archive-cubin-only", "rdc_archive_main", "rdc_archive_lib",
                "-gencode=arch=compute_90a,code=sm_90a");
        Ran r = ExecProgramsTest.exec(exe, options());
        assertTrue(r.all().contains("relocatable device code (-rdc=true) and object 2 of 2 holds no PTX"), r.all());
        assertTrue(r.all().contains("a device library's objects (nvcc -lib) included: rebuild the program, and any such library,"
                + " with one of those"), r.all());
        assertTrue(r.program().contains("FAIL"), "the library's launch gets an error\n" + r.all());
    }
}
