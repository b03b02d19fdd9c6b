package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void graphCallsGivenNullArraysDestroyedOrForeignNodesOrOverflowingSizesGiveTheDocumentedResultsAndNeverTouchFreedMemory() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_misuse");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_misuse"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphDestroy: the graph is being captured into; end the capture first"
                + " (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaStreamUpdateCaptureDependencies: a node that is not in the graph being"
                + " captured (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void streamOrderedAllocationsCountInTheirPoolAndPoolAttributesFollowTheirDocumentation() throws Exception {
        ExecProgramsTest.Ran r = exec("mempool");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS mempool"), r.all());
        assertTrue(r.program().contains("cudaMemPoolCreate: only pinned pools on device 0 exist here (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void peerCopiesFromDevice0ToItselfWorkAndPeerAccessToItselfIsTheDocumentedError() throws Exception {
        ExecProgramsTest.Ran r = exec("peer");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS peer"), r.all());
        assertTrue(r.program().contains("cudaDeviceEnablePeerAccess(0): there is one device, which is no peer of itself"), r.all());
    }

    @Test
    void aProgramBuiltWithPerThreadDefaultStreamsLaunchesAndCapturesOnItsThreadsDefaultStreamAndItsCaptureEndsWithTheThread() throws Exception {
        ExecProgramsTest.Ran r = ExecProgramsTest.exec(CudaPrograms.build("per_thread", "-cudart", "shared", "--default-stream", "per-thread"),
                LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS per_thread"), r.all());
    }

    @Test
    void theGenericNodeCallsAddAndChangeEveryModelledNodeTypeAndNameExternalSemaphoreNodes() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_generic");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_generic"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphNodeSetParams: nodeParams->type is not the node's type"
                + " (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphAddExternalSemaphoresWaitNode: external semaphores come from a GPU"
                + " driver's Vulkan, Direct3D or NvSciSync objects, which cannot exist here, so there is none to import, signal or"
                + " wait on (returns cudaErrorNotSupported)"), r.all());
        assertFalse(r.all().contains("is not implemented by BarrierScope's CUDA runtime yet"), "impossible here, not a call still to do: " + r.all());
    }

    @Test
    void anExecutableGraphsConditionalNodeUpdatesOnlyToOneOfTheSameTypeNumberOfBodiesAndBodyShape() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_update");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_update"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphExecUpdate: the graph's conditional node has another type or number"
                + " of bodies than the executable graph's (returns cudaErrorGraphExecUpdateFailure)"), r.all());
    }

    @Test
    void threadsBuildingTheirOwnGraphsMakeConditionalHandlesAndNodesAtOnce() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_threads");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_threads"), r.all());
    }

    @Test
    void twoThreadsLaunchingTwoExecutableGraphsOfOneGraphAtOnceEachHaveTheirOwnConditionValue() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_concurrent");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_concurrent"), r.all());
        assertFalse(r.all().contains("graph-conditional-not-launched"), r.all());
    }

    @Test
    void aKernelOfAnotherGraphOnAnotherThreadSettingARunningLaunchsHandleIsDiagnosed() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_other_thread");
        assertTrue(r.program().contains("PASS graph_conditional_other_thread"), r.all());
        assertTrue(r.err().contains("[graph-conditional-not-launched]") && r.all().contains("intruder"), r.all());
        assertEquals(4, r.code(), "a diagnosed launch: exit code 4\n" + r.all());
    }

    @Test
    void aHostNodesLaunchThatWouldWaitForConditionalHandleSlotsIsNotPermittedNotADeadlockBetweenThreads() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_host_launch");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_host_launch"), r.all());
        assertTrue(r.all().contains("barrierscope: cudaGraphLaunch: a launch from a host node (host functions may make no CUDA"
                + " calls) of a graph whose conditional handle another thread's launch holds: waiting for it while this thread's"
                + " launch holds its own could deadlock (returns cudaErrorNotPermitted)"), r.all());
    }

    @Test
    void aLaunchGivesBackTheConditionalHandleSlotsItTookEvenIfItsGraphWasUpdatedMeanwhile() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_update_during_launch");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_update_during_launch"), r.all());
    }

    @Test
    void anExecutableGraphUpdatedOrChangedDuringALaunchChangesLaterLaunchesOnlyAndEachLaunchRunsOneVersion() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_exec_update_during_launch");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_exec_update_during_launch"), r.all());
    }

    @Test
    void aConditionalHandleInANodeOutsideTheGraphItWasMadeForOrItsBodyGraphsIsRefused() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_refusals");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_refusals"), r.all());
        String foreign = "barrierscope: cudaGraphAddNode (a conditional node): the handle was made for another graph; it may be"
                + " used only by a conditional node in the graph it was made for or in a body graph within it"
                + " (cudaGraphConditionalHandleCreate) (returns cudaErrorInvalidValue)\n";
        assertEquals(3, r.program().split(java.util.regex.Pattern.quote(foreign), -1).length - 1, r.all());
    }

    @Test
    void aSwitchOfAGarbageNumberOfBodiesIsInvalidValueWithOneLineNotAnAbort() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_refusals");
        assertEquals(0, r.code(), r.all());
        String size = "barrierscope: cudaGraphAddNode (a conditional node): size must be 1 for WHILE, 1 or 2 for IF, 1 to 65536"
                + " for SWITCH (returns cudaErrorInvalidValue)\n";
        assertEquals(4, r.program().split(java.util.regex.Pattern.quote(size), -1).length - 1, r.all());
        assertFalse(r.all().contains("out of host memory"), r.all());
    }

    @Test
    void aConditionalNodeAndItsGraphCannotBeDestroyedWhileItsBodyIsCapturedInto() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_capture");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_capture"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphDestroyNode: a conditional node's body graph is being captured into"
                + " (cudaStreamBeginCaptureToGraph); end the capture first (returns cudaErrorInvalidValue)"), r.all());
    }

    @Test
    void aGraphWhoseConditionalBodyHoldsAMemoryNodeCannotBeCloned() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional_clone");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS graph_conditional_clone"), r.all());
    }

    @Test
    void conditionalNodesRunWhileIfAndSwitchBodiesAsTheHostModelSaysAndAKernelOutsideTheHandlesGraphSettingItIsDiagnosed() throws Exception {
        ExecProgramsTest.Ran r = exec("graph_conditional");
        assertEquals(Main.DIAGNOSED, r.code(), "the last, plain launch setting a handle fails\n" + r.all());
        assertTrue(r.program().contains("PASS graph_conditional"), r.all());
        assertTrue(r.err().contains("[graph-conditional-not-launched]") && r.err().contains("1 of "), r.all());
        assertTrue(r.program().contains("barrierscope: cudaGraphAddNode (a conditional node): the handle already belongs to another"
                + " conditional node (one node per handle) (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("size must be 1 for WHILE, 1 or 2 for IF, 1 to 65536 for SWITCH"), r.all());
        assertTrue(r.program().contains("the condition was read before any kernel of this launch set it"), r.all());
        assertTrue(r.program().contains("a conditional node's body graph holds a host node"), r.all());
        assertFalse(r.all().contains("does not reproduce"), "the failed launch's bundle (the handle's slot in it) replays it\n" + r.all());
    }

    @Test
    void userObjectsLiveWhileAGraphACloneOrAnExecutableGraphHoldsThemAndAreDestroyedOnceWhenTheLastGoes() throws Exception {
        ExecProgramsTest.Ran r = exec("user_objects");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS user_objects"), r.all());
        assertTrue(r.all().contains("cudaGraphReleaseUserObject: the graph does not own that many references to the object"
                + " (returns cudaErrorInvalidValue)"), r.all());
        assertFalse(r.all().contains("not implemented"), r.all());
    }
}
