package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host-side calls library test suites make around their launches (occupancy and cluster
 * sizes, stream priorities and attributes, limits, graph node attributes and parameters),
 * each an unmodified program of src/test/cuda run by `barrierscope exec` whose own checks
 * decide (docs/runtime.md); skipped, saying why, where nvcc or gcc is missing.
 */
class ExecHostApiTest {
    @TempDir
    static Path bundles;

    static ExecProgramsTest.Ran exec(String name) throws Exception {
        return ExecProgramsTest.exec(CudaPrograms.build(name), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
    }

    @Test
    void clusterSizesStreamPrioritiesAndAttributesLimitsAndCallbacksAnswerAsOnAGpuAndTheKernelStillComputes() throws Exception {
        ExecProgramsTest.Ran r = exec("host_queries");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS host_queries"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaStreamSetAttribute: accessPolicyWindow.hitRatio must be 0 to 1"
                + " (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaLaunchKernelExC: a launch attribute's event must be created with"
                + " cudaEventDisableTiming (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaOccupancyMaxActiveClusters: the configuration's cluster dimension is not"
                + " the kernel's required one (returns cudaErrorInvalidClusterSize)"), r.all());
    }

    @Test
    void copyMemsetAndHostNodeParametersAreReadAndChangedInGraphsAndExecutableGraphsAndAClusterShapeAttributeIsTheKernelsShape() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_params");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_params"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphKernelNodeSetAttribute: accessPolicyWindow.missProp must be"
                + " cudaAccessPropertyNormal or ...Streaming (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("cluster: more than 8 CTAs in a cluster need cudaFuncSetAttribute(kernel, "
                + "cudaFuncAttributeNonPortableClusterSizeAllowed, 1) first (returns cudaErrorInvalidClusterSize)"), r.all());
    }

    @Test
    void eventRecordAndWaitNodesRecordWhenTheGraphReachesThemExternalEventsAreCapturedAsNodesAndACaptureCanAddToTheProgramsGraph() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_events");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_events"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaStreamBeginCaptureToGraph: a dependency that is not a node of the graph"
                + " (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void pinnedHostMemoryIsReachedByKernelsAtItsHostPointerAndMappedAllocationsGiveTheirFlagsAndDevicePointer() throws Exception {
        ExecProgramsTest.Ran r = exec("host_mapped");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS host_mapped"), r.all());
        assertTrue(r.program().contains("cudaHostGetDevicePointer") && r.program().contains(": not memory cudaMallocHost or"
                + " cudaHostAlloc returned or cudaHostRegister registered (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void registeredHostMemoryIsReachedByKernelsAtItsHostAndDevicePointerUntilUnregisteredReadOnlyFaultsAStoreAndMisuseGetsCudasErrorCodes() throws Exception {
        ExecProgramsTest.Ran r = exec("host_register");
        assertEquals(io.barrierscope.cli.Main.DIAGNOSED, r.code(), r.all()); // the last launch stores to read-only memory
        assertTrue(r.program().contains("PASS host_register"), r.all());
        assertTrue(r.program().contains("the range overlaps a registered range at 0x")
                && r.program().contains("(returns cudaErrorHostMemoryAlreadyRegistered)"), r.all());
        assertTrue(r.program().contains("the range overlaps pinned memory at 0x"), r.all());
        assertTrue(r.program().contains("cudaHostRegisterIoMemory (memory-mapped I/O of another PCIe device) has no meaning here"
                + " (returns cudaErrorNotSupported)"), r.all());
        assertTrue(r.program().contains(": not the start of a range cudaHostRegister registered"
                + " (returns cudaErrorHostMemoryNotRegistered)"), r.all());
        assertTrue(r.all().contains("write to read-only global memory at 0x") && r.all().contains("(cudaHostRegister#0x"), r.all());
    }

    @Test
    void hostWritesDuringALaunchToBytesTheKernelLeavesAloneInPinnedAndManagedMemorySurviveTheLaunch() throws Exception {
        ExecProgramsTest.Ran r = exec("copyback");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS copyback"), r.all());
    }

    @Test
    void anAllocationOverTheDeviceBudgetIsRefusedNamingTheCallMadePinnedManagedOrDevice() throws Exception {
        ExecProgramsTest.Ran r = exec("pinned_budget");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS pinned_budget"), r.all());
        for (String call : new String[] {"cudaMallocHost(5368709120)", "cudaHostAlloc(6442450944)", "cudaMallocManaged(7516192768)",
                "cudaMalloc(8589934592)", "cudaMallocAsync(9663676416)"}) {
            assertTrue(r.all().contains("barrierscope: " + call + ": BarrierScope's device has"), call + "\n" + r.all());
        }
        assertTrue(r.all().contains("barrierscope: cudaFreeAsync(0x10): not a pointer cudaMalloc or cudaMallocAsync returned"), r.all());
    }

    @Test
    void textureFormsNotModelledAreNamedTheirKernelsRefusedNamingTheInstructionAndTheModulesOtherKernelsStillRun() throws Exception {
        ExecProgramsTest.Ran r = exec("texture_refusals");
        assertEquals(io.barrierscope.cli.Main.BAD_INPUT, r.code(), r.all());
        assertTrue(r.program().contains("PASS texture_refusals"), r.all());
        assertTrue(r.all().contains("barrierscope: cudaMalloc3DArray with flags other than cudaArrayLayered, cudaArraySurfaceLoadStore,"
                + " cudaArrayCubemap and cudaArrayTextureGather is not implemented by BarrierScope's CUDA runtime yet"), r.all());
        assertTrue(r.all().contains("barrierscope: cudaCreateTextureObject with a cudaResourceViewDesc"), r.all());
        assertTrue(r.all().matches("(?s).*cannot launch _Z8residentyP6float4: module0\\.ptx:\\d+:1: error: unsupported instruction tex\\.2d\\.v4\\.f32\\.f32 \\(.*"), r.all());
        assertTrue(r.all().contains("residency predicate"), r.all());
        assertTrue(r.all().contains("barrierscope: 1 kernel(s) use PTX the engine does not run (each launch returned"
                + " cudaErrorInvalidDeviceFunction): _Z8residentyP6float4"), r.all());
    }

    @Test
    void aCooperativeLaunchGetsTheGridBarrierWorkspaceSoCooperativeGroupsGridSyncWorksLaunchAfterLaunch() throws Exception {
        ExecProgramsTest.Ran r = exec("cooperative");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS cooperative"), r.all());
    }

    @Test
    void aCooperativeGridLargerThanCanBeResidentIsRefusedWithCooperativeLaunchTooLarge() throws Exception {
        ExecProgramsTest.Ran r = exec("cooperative");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.all().contains("barrierscope: cooperative launch of _Z4ringPiS_i: 2113 blocks, but at most 16 per multiprocessor"
                + " x 132 may be resident (returns cudaErrorCooperativeLaunchTooLarge)"), r.all());
    }

    @Test
    void aFailedDeviceAssertIsTheStickyCudaErrorAssertAsOnAGpu() throws Exception {
        ExecProgramsTest.Ran r = exec("device_assert");
        assertEquals(io.barrierscope.cli.Main.DIAGNOSED, r.code(), r.all());
        assertTrue(r.program().contains("after the failed assert: cudaErrorAssert (device-side assert triggered)"), r.all());
        assertTrue(r.program().contains("PASS device_assert"), r.all());
        assertTrue(r.all().contains("assertion `v[threadIdx.x] > 0` failed at src/test/cuda/device_assert.cu:7"), r.all());
        assertTrue(r.all().contains("the program gets cudaErrorAssert from this launch"), r.all());
    }

    /** src/test/cuda/NAME.cu compiled by nvcc with one output flag (-fatbin, --ptx) into target/cuda-programs/NAME.EXT. */
    static Path nvccOutput(String name, String flag, String ext) throws Exception {
        CudaPrograms.assumeToolchain();
        Path out = CudaPrograms.OUT.resolve(name + "." + ext);
        Files.createDirectories(CudaPrograms.OUT);
        Process p = new ProcessBuilder(CudaPrograms.nvcc(), flag, "-arch=sm_90a", "-o", out.toString(),
                CudaPrograms.SOURCES.resolve(name + ".cu").toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0, "nvcc " + flag + " failed:\n" + log);
        return out;
    }

    @Test
    void aFatBinaryFromAFileAndPtxFromMemoryLoadAsLibrariesWhoseKernelsLaunchByHandleThroughRuntimeAndDriverCalls() throws Exception {
        Path fatbin = nvccOutput("library_kernels", "-fatbin", "fatbin");
        Path ptx = nvccOutput("library_kernels", "--ptx", "ptx");
        ExecProgramsTest.Ran r = ExecProgramsTest.exec(CudaPrograms.build("library_loading"),
                LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false), fatbin.toString(), ptx.toString());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS library_loading"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaLibraryLoadData: a cubin (ELF) holds no PTX"), r.all());
        assertTrue(!r.all().contains("malformed request"), r.all());
    }
}
