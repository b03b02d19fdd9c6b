package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified CUDA programs (src/test/cuda), built with nvcc -cudart shared, run by
 * `barrierscope exec`: every kernel on the engine, the program's own checks deciding its exit
 * code. Skipped, saying why, where nvcc or gcc is missing.
 */
class ExecProgramsTest {
    /** What one exec did: its exit code, our own output and errors, and the program's output. */
    record Ran(int code, String out, String err, String program) {
        String all() { return out + err + program; }
    }

    static Ran exec(Path exe, LaunchOptions options, String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path programOutput = Files.createTempFile(exe.getParent(), exe.getFileName().toString(), ".out");
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = ExecCommand.exec(exe, List.of(args), options, o, e, programOutput);
        }
        String program = Files.readString(programOutput);
        Files.delete(programOutput);
        return new Ran(code, out.toString(), err.toString(), program);
    }

    @TempDir
    static Path bundles;

    /** Failed launches' bundles go to a temporary folder, not the working directory. */
    static LaunchOptions options() { return LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false); }

    static Ran exec(String name) throws Exception { return exec(CudaPrograms.build(name), options()); }

    static int run(String... args) {
        StringWriter sink = new StringWriter();
        try (PrintWriter w = new PrintWriter(sink)) {
            return Main.execute(args, w, w);
        }
    }

    @Test
    void vectorAddCopiesBothWaysAndTheProgramsOwnCheckPasses() throws Exception {
        Ran r = exec("vector_add");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS vector_add 200 elements"), r.all());
    }

    @Test
    void constantAndDeviceSymbolsAreWrittenReadAndPersistAcrossLaunches() throws Exception {
        Ran r = exec("symbols");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS symbols"), r.all());
    }

    @Test
    void aStructOfDevicePointersPassedByValueAndPointersStoredInABufferWork() throws Exception {
        Ran r = exec("struct_of_pointers");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS struct_of_pointers"), r.all());
        assertTrue(r.out().contains("device: row 0 sums to 21\n"), "device printf is printed when its launch ends\n" + r.all());
    }

    @Test
    void errorsReachTheProgramAsCudaErrorsWithAOneLineMessageEach() throws Exception {
        Ran r = exec("errors");
        assertEquals(0, r.code(), "a refused launch is the program's business, its exit code stands\n" + r.all());
        assertTrue(r.program().contains("PASS errors"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaDeviceFlushGPUDirectRDMAWrites is not implemented by BarrierScope's CUDA runtime yet"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaMemcpy: the source pointer 0x10 (4 bytes) is not device memory"), r.all());
        assertTrue(r.err().contains("block (2048,1,1): CUDA takes 1 to 1024 threads per block"), r.all());
        assertTrue(r.program().contains("barrierscope: a launch of a function that was never registered as a kernel"), r.all());
        assertTrue(r.err().contains("does not implement: cudaDeviceFlushGPUDirectRDMAWrites"), r.all());
    }

    @Test
    void aDeadlockingKernelIsExplainedAndTheProgramGetsAnErrorInsteadOfHanging() throws Exception {
        Ran r = exec("deadlock");
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        assertTrue(r.err().contains("Deadlock: no thread can make progress."), r.all());
        assertTrue(r.err().contains("CTA (0,0,0) warp 1: exited"), r.all());
        assertTrue(r.err().contains("launch 1 of stuck(int*) <<<(1,1,1), (64,1,1)>>>: deadlock"), "the kernel named for people\n" + r.all());
        assertTrue(r.err().contains("deadlock.cu:8:5) `bar.sync 1, 64`"), "built with -lineinfo: the CUDA line of the wait\n" + r.all());
        assertTrue(r.program().contains("launch: cudaErrorLaunchTimeout; synchronize: cudaErrorLaunchTimeout"), r.all());
    }

    @Test
    void halfBf16Fp8IntrinsicsDirectedRoundingAndF64MatchTheHostBitForBitAndApproximationsMeetTheirBounds() throws Exception {
        Ran r = exec("half_intrinsics");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS half_intrinsics"), r.all());
        assertTrue(r.program().contains(" 0 mismatches"), r.all());
    }

    @Test
    void wmmaGemmsOfEveryTypeAndAFlashAttentionWithMmaSyncMatchTheHost() throws Exception {
        Ran r = exec("tensor_kernels");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS tensor_kernels"), r.all());
        assertTrue(r.program().contains("wmma m16n16k8 tf32 -> f32: 32 x 32 x 24, 0 wrong"), r.all());
    }

    @Test
    void theCudaMathLibraryIncludingSinfsCarryChainReductionStaysWithinFourUlpOfTheHost() throws Exception {
        Ran r = exec("math_library");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS math_library"), r.all());
    }

    @Test
    void aProgramBuiltWithTheStaticRuntimeIsRefusedWithWhatToDo() throws Exception {
        Path exe = CudaPrograms.build("vector_add", "-cudart", "static");
        Ran r = exec(exe, options());
        assertEquals(Main.BAD_INPUT, r.code(), r.all());
        assertTrue(r.err().contains("built with the static CUDA runtime") && r.err().contains("nvcc -cudart shared"), r.all());
        assertEquals("", r.program(), "the program never ran");
    }

    @Test
    void streamsAndEventsRunInOrderAndEventTimesComeFromVirtualCycles() throws Exception {
        Ran r = exec("streams_events");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS streams_events"), r.all());
        String elapsed = r.program().lines().filter(l -> l.startsWith("elapsed ")).findFirst().orElseThrow();
        assertEquals(elapsed, exec("streams_events").program().lines().filter(l -> l.startsWith("elapsed ")).findFirst().orElseThrow(),
                "same program, same event times");
    }

    @Test
    void dynamicSharedMemoryAbove48KiBNeedsCudaFuncSetAttributeAsOnAGpu() throws Exception {
        Ran r = exec("dynamic_shared");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS dynamic_shared"), r.all());
        assertTrue(r.program().contains("call cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) first"), r.all());
    }

    @Test
    void aTwoCtaClusterLaunchedWithCudaLaunchKernelExExchangesSharedMemory() throws Exception {
        Ran r = exec("cluster_launch");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS cluster_launch"), r.all());
    }

    @Test
    void aFailedLaunchWritesABundleThatRunReproducesAndWhoseTraceOpens() throws Exception {
        Path dir = bundles.resolve("deadlock");
        Ran r = exec(CudaPrograms.build("deadlock"), LaunchOptions.defaults().withBundles(dir, false));
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        Path b = dir.resolve("launch-1-_Z5stuckPi");
        assertTrue(r.err().contains("launch bundle " + b), r.all());
        assertTrue(!r.err().contains("does not reproduce"), r.all());
        for (String f : List.of("launch.json", "kernel.ptx", "trace.bstrace", "memory/cudaMalloc-0.bin")) assertTrue(Files.isRegularFile(b.resolve(f)), f);
        // The kernel's warp 1 wrote out[32..63] before the deadlock; the bundle has the bytes as the launch found them.
        byte[] out = Files.readAllBytes(b.resolve("memory/cudaMalloc-0.bin"));
        assertEquals(256, out.length);
        for (byte x : out) assertEquals(0, x, "memory as before the launch");
        assertEquals(Main.DEADLOCK, run("run", b.resolve("launch.json").toString()));
        io.barrierscope.trace.TimeTravel tt = io.barrierscope.trace.TraceFile.open(b.resolve("trace.bstrace"));
        while (tt.runForward(() -> false).reason() == io.barrierscope.trace.TimeTravel.Reason.BREAKPOINT) {
            // none set
        }
        assertEquals(io.barrierscope.exec.Outcome.DEADLOCK, tt.run().interpreter().outcome());
    }

    @Test
    void bundleAllWritesEveryLaunchAndPointersStoredInBuffersStillPointRight() throws Exception {
        Path dir = bundles.resolve("all");
        Ran r = exec(CudaPrograms.build("struct_of_pointers"), LaunchOptions.defaults().withBundles(dir, true));
        assertEquals(0, r.code(), r.all());
        Path b = dir.resolve("launch-1-_Z8sum_rows4Args");
        assertTrue(Files.isRegularFile(b.resolve("launch.json")), r.all());
        // The rows table holds device pointers: the bundle keeps every allocation at its address.
        assertEquals(Main.OK, run("run", b.resolve("launch.json").toString()));
    }

    @Test
    void onFailureAbortStopsTheProgramAfterTheFailedLaunch() throws Exception {
        LaunchOptions o = LaunchOptions.defaults();
        o = new LaunchOptions(o.policy(), o.seed(), o.maxSteps(), o.race(), null, false, null, LaunchOptions.OnFailure.ABORT);
        Ran r = exec(CudaPrograms.build("deadlock"), o);
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        assertTrue(r.err().contains("--on-failure abort: stopping the program"), r.all());
        assertTrue(!r.program().contains("synchronize:"), "the program never got to print\n" + r.all());
    }

    /** exec of deadlock.cu with --on-failure gui, the window opened by {@code window}. */
    static Ran execGui(FailureWindow window) throws Exception {
        LaunchOptions o = options();
        o = new LaunchOptions(o.policy(), o.seed(), o.maxSteps(), o.race(), o.bundleDir(), false, null, LaunchOptions.OnFailure.GUI);
        Path exe = CudaPrograms.build("deadlock");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path programOutput = Files.createTempFile(exe.getParent(), "deadlock", ".out");
        int code;
        try (PrintWriter w = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = ExecCommand.exec(exe, List.of(), o, w, e, programOutput, window);
        }
        String program = Files.readString(programOutput);
        Files.delete(programOutput);
        return new Ran(code, out.toString(), err.toString(), program);
    }

    @Test
    void onFailureGuiOpensTheWindowOnTheBundleWhileTheProgramWaitsThenItGoesOn(@TempDir Path tmp) throws Exception {
        // A stand-in for the launcher: it records how it was called (the window itself is the app's).
        Path called = tmp.resolve("called");
        Path launcher = tmp.resolve("barrierscope");
        Files.writeString(launcher, "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + called + "\n");
        launcher.toFile().setExecutable(true);
        Ran r = execGui(new FailureWindow(launcher.toString(), java.util.Map.of("DISPLAY", ":99")));
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        List<String> args = Files.readAllLines(called);
        assertEquals("gui", args.get(0), args.toString());
        Path bundle = Path.of(args.get(1));
        assertTrue(Files.isRegularFile(bundle.resolve("trace.bstrace")), "the window gets the bundle folder " + bundle);
        assertTrue(r.err().contains("--on-failure gui: opening the window on "), r.all());
        assertTrue(r.program().contains("launch: cudaErrorLaunchTimeout; synchronize: cudaErrorLaunchTimeout"),
                "the program went on after the window closed\n" + r.all());
    }

    @Test
    void onFailureGuiWithoutADisplaySaysSoAndTheProgramGoesOn(@TempDir Path tmp) throws Exception {
        Path called = tmp.resolve("called");
        Path launcher = tmp.resolve("barrierscope");
        Files.writeString(launcher, "#!/bin/sh\ntouch " + called + "\n");
        launcher.toFile().setExecutable(true);
        Ran r = execGui(new FailureWindow(launcher.toString(), java.util.Map.of()));
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        assertTrue(r.err().contains("--on-failure gui: no display to open the window on (DISPLAY is not set"), r.all());
        assertTrue(r.err().contains("the program goes on (later: barrierscope gui "), r.all());
        assertTrue(!Files.exists(called), "no window was started");
        assertTrue(r.program().contains("synchronize: cudaErrorLaunchTimeout"), r.all());
    }

    @Test
    void aFailedLaunchsErrorIsStickyAsOnAGpuAndARefusedConfigurationIsNot() throws Exception {
        Ran r = exec("sticky");
        assertEquals(Main.DEADLOCK, r.code(), r.all());
        assertTrue(r.program().contains("PASS sticky"), r.all());
        assertTrue(r.err().contains("from every later call that uses the device (sticky, as on a GPU"), r.all());
        assertTrue(r.err().contains("1 of 3 launches failed"), "the launch after the failure never reached the engine\n" + r.all());
    }

    @Test
    void aTmaPipelineRunsOnATensorMapTheHostEncodedThroughTheDriverEntryPoint() throws Exception {
        Ran r = exec("tma_pipeline");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS tma_pipeline"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: elementStrides: each must be 1 to 8 (returns CUDA_ERROR_INVALID_VALUE)"), r.all());
    }

    @Test
    void a128ByteSwizzledTileEncodedAsCutlassDoesLandsSwizzledAndReadsBackThroughTheSwizzle() throws Exception {
        Ran r = exec("tma_swizzle128");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS tma_swizzle128"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: boxDim: with a swizzle, the inner dimension must span at most"
                + " the swizzle's bytes (32, 64 or 128) (returns CUDA_ERROR_INVALID_VALUE)"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: swizzle: CU_TENSOR_MAP_SWIZZLE_128B_ATOM_* (32- and 64-byte chunks)"
                + " are not modelled by BarrierScope yet"), r.all());
    }

    @Test
    void anIm2colMapTheHostEncodedLoadsEveryFilterTapOfAConvolutionThroughTheSwizzle() throws Exception {
        Ran r = exec("tma_im2col");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS tma_im2col"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeIm2col: pixelBoxLowerCorner: each corner offset must lie within the rank's range"
                + " ([-32768, 32767] for 3, [-128, 127] for 4, [-16, 15] for 5 dimensions) (returns CUDA_ERROR_INVALID_VALUE)"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeIm2col: channelsPerPixel: with a swizzle, the channels of a pixel must span at most"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeIm2col: pixelsPerColumn: must be 1 to 1024"), r.all());
        assertTrue(r.err().contains("does not implement: cuTensorMapEncodeIm2colWide (im2col::w"), "named in the summary\n" + r.all());
    }

    @Test
    void runtimeBuiltMapsCarryElementStridesNanFillAndTheElementTypeATensorReductionNeeds() throws Exception {
        Ran r = exec("tma_modes");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS tma_modes"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: oobFill: NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA)"
                + " needs a floating-point tensorDataType (returns CUDA_ERROR_INVALID_VALUE)"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: swizzle: with CU_TENSOR_MAP_INTERLEAVE_32B the swizzle must be"
                + " CU_TENSOR_MAP_SWIZZLE_32B (returns CUDA_ERROR_INVALID_VALUE)"), r.all());
        assertTrue(r.program().contains("cuTensorMapEncodeTiled: globalStrides: each must include the dimension before it"), r.all());
    }

    @Test
    void deviceQueriesDescribeOneConsistentSm90aDevice() throws Exception {
        Ran r = exec("device_queries");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS device_queries"), r.all());
    }

    @Test
    void aGoogletestSuiteRunsUnmodifiedWithItsFilterAndADeathTestThatForks() throws Exception {
        CudaPrograms.assumeToolchain();
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(Path.of("/usr/include/gtest/gtest.h")),
                "googletest is not installed (apt-get install libgtest-dev): the googletest program is skipped");
        Path exe = CudaPrograms.build("gtest_suite", "-cudart", "shared", "-lgtest", "-lgtest_main", "-lpthread");
        Ran r = exec(exe, options(), "--gtest_filter=-Harness.FilteredOut");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("[  PASSED  ] 3 tests."), r.all());
        assertTrue(r.program().contains("[       OK ] HarnessDeathTest.ChildUsesTheDeviceToo"), r.all());
        // Without the filter the deliberately failing test fails, as it would on a GPU.
        Ran all = exec(exe, options());
        assertEquals(1, all.code(), all.all());
        assertTrue(all.program().contains("[  FAILED  ] Harness.FilteredOut"), all.all());
    }

    @Test
    void thrustAndCubFromTheCudaToolkitRunUnmodifiedAndTheirResultsMatchTheHosts() throws Exception {
        Ran r = exec("thrust_cub");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS thrust_cub"), r.all());
    }

    @Test
    void pitchedMemory2DCopiesPointerAttributesAndACooperativeLaunchWork() throws Exception {
        Ran r = exec("more_memory");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS more_memory"), r.all());
    }

    @Test
    void pitchedAnd3dCopiesOfEveryKindWorkAndBadArgumentsWriteNothing() throws Exception {
        Ran r = exec("pitched_3d");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS pitched_3d"), r.all());
        assertTrue(r.all().contains("cudaMemcpy2D: the width is larger than a pitch (returns cudaErrorInvalidPitchValue; nothing was written)"), r.all());
    }

    @Test
    void managedMemoryIsOnePointerForHostAndKernelsAcrossLaunchesCopiesAndMemsets() throws Exception {
        Ran r = exec("managed");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS managed"), r.all());
    }

    @Test
    void managedVariablesAreOneVariableForHostAndKernelsInitializerIncluded() throws Exception {
        Ran r = exec("managed_vars");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS managed_vars"), r.all());
    }

    @Test
    void aKernelWritingPastItsAllocationFaultsAndTheProgramGetsAnIllegalAddress() throws Exception {
        Ran r = exec("fault");
        assertEquals(Main.DIAGNOSED, r.code(), r.all());
        assertTrue(r.err().contains("[memory-fault]") && r.err().contains("cudaMalloc#0"), "the fault names the allocation\n" + r.all());
        assertTrue(r.program().contains("launch: cudaErrorIllegalAddress; copy: cudaErrorIllegalAddress"), r.all());
    }
}
