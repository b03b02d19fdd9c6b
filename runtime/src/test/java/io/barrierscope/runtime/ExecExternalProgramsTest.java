package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.barrierscope.runtime.ExecProgramsTest.Ran;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs written as an outside team writes them (cuda-samples' host code, library-style test
 * suites), run by exec: each checks itself against what a GPU gives, so every departure of our
 * runtime from CUDA's fails here (src/test/cuda, built with nvcc; skipped, saying why, without it).
 */
class ExecExternalProgramsTest {
    @TempDir
    static Path bundles;

    private static final Map<String, Ran> RUNS = new TreeMap<>();

    /** Each program is run once for all the tests that read its output. */
    static synchronized Ran ran(String name, String... nvccFlags) throws Exception {
        Ran r = RUNS.get(name);
        if (r == null) {
            r = ExecProgramsTest.exec(CudaPrograms.build(name, nvccFlags), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
            RUNS.put(name, r);
        }
        return r;
    }

    @Test
    void samplesStyleHostCodeGetsAGpusAnswersToEveryQueryTimingGraphAndErrorCheck() throws Exception {
        Ran r = ran("samples_tour");
        assertEquals(0, r.code(), "a refused launch is the program's business: no failed launch counted\n" + r.all());
        assertTrue(r.program().contains("Test passed"), r.all());
        assertFalse(r.program().contains("FAIL"), r.all());
    }

    @Test
    void aBlockBeyondTheKernelsLaunchBoundsIsRefusedAsTooManyResourcesAndTheAttributeSaysTheBound() throws Exception {
        Ran r = ran("samples_tour");
        assertTrue(r.err().contains("a block of 256 threads, more than the kernel's launch bound of 128"), r.all());
        assertTrue(r.err().contains("(cudaErrorLaunchOutOfResources)"), r.all());
        assertFalse(r.program().contains("FAIL line"), "cudaFuncGetAttributes and cudaOccupancyMaxPotentialBlockSize honour the bound\n" + r.all());
    }

    @Test
    void aGridBeyondTheDevicesGridLimitsIsAnInvalidConfigurationNotOurEmulationLimit() throws Exception {
        Ran r = ran("samples_tour");
        assertTrue(r.err().contains("<<<(1,65536,1), (32,1,1)>>>: grid (1,65536,1): CUDA takes 1 to 2147483647 CTAs in x and 1 to 65535 in y and z (cudaErrorInvalidConfiguration)"), r.all());
        assertFalse(r.err().contains("BarrierScope emulates at most"), r.all());
    }

    private static Ran gtest(String name) throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/include/gtest/gtest.h")),
                "googletest is not installed (apt-get install libgtest-dev): " + name + " is skipped");
        return ran(name, "-cudart", "shared", "-lgtest", "-lgtest_main", "-lpthread");
    }

    @Test
    void aWarpSpecializedTmaMulticastMainloopSuitePassesForEveryClusterSizeAndStageCount() throws Exception {
        Ran r = gtest("tma_multicast_gtest");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("[  PASSED  ] 6 tests."), r.all());
        assertTrue(r.program().contains("[       OK ] Pipelines/MulticastPipeline.MatchesHostReference/Cluster4_Stage7_Iters3"), r.all());
        assertTrue(r.all().contains("asks for 57456 bytes of dynamic shared memory; above 49152 call cudaFuncSetAttribute"),
                "the launch before the opt-in is refused, named\n" + r.all());
    }

    @Test
    void driverEntryPointsAnswerUnknownSymbolsAndVersionsAsTheDriverDocumentsWithoutSettingTheLastError() throws Exception {
        Ran r = gtest("tma_multicast_gtest");
        assertTrue(r.program().contains("[       OK ] DriverEntryPoints.DeprecatedLookupAndUnknownSymbol"), r.all());
        assertTrue(r.all().contains("cudaGetDriverEntryPoint(cuTensorMapEncodeTiled): CUDA version 13010 is above the driver's (13000)"), r.all());
        assertFalse(r.all().contains("cuNoSuchFunction"), "a symbol no driver has is not reported as one we lack\n" + r.all());
    }

    @Test
    void aHandBuiltGraphTwoEventOrderedStreamsPitchedCopiesAPoolAndACooperativeLaunchAllAnswerAsOnAGpu() throws Exception {
        Ran r = ran("streams_graphs_tour");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS streams_graphs_tour"), r.all());
        assertFalse(r.all().contains("not implemented"), "cudaGraphDebugDotPrint, cudaFuncGetParamInfo, cudaDeviceGetP2PAttribute answer\n" + r.all());
    }

    @Test
    void fourHostThreadsDrivingTheDeviceAtOnceEachGetTheirOwnResultsAndTheirOwnLastError() throws Exception {
        Ran r = ran("host_threads");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS host_threads 4 threads x 6 rounds"), r.all());
    }

    @Test
    void documentedEdgeCasesUnrecordedEventsZeroByteCopiesMissingDevicesAndBadFlagsAnswerAsDocumented() throws Exception {
        Ran r = ran("documented_edges");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS documented_edges"), r.all());
        assertTrue(r.all().contains("cudaStreamCreateWithFlags: flags 0x10 are not cudaStreamDefault or cudaStreamNonBlocking"), r.all());
        assertTrue(r.all().contains("asks for 232464 bytes of dynamic shared memory; more than its cudaFuncAttributeMaxDynamicSharedMemorySize allows"),
                "a launch above a raised maximum is not told to raise it\n" + r.all());
    }

    @Test
    void aLibrarysEntryPointDispatchesOnPointerKindsInspectsTheCallersStreamAndLaunchesByKernelHandle() throws Exception {
        Ran r = ran("library_host");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS library_host"), r.all());
    }

    @Test
    void aBlocksAsClustersKernelsGridCountsClustersSoEveryClusterOfTheLaunchRuns() throws Exception {
        Ran r = ran("blocks_as_clusters");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS blocks_as_clusters 6 blocks in 3 clusters"), r.all());
    }
}
