package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Managed, pinned and registered memory around launches (HostMirrors, managed.c): a launch moves
 * the bytes the host changed since the engine last saw them and brings back the bytes the kernel
 * changed, not the allocations (docs/runtime.md, "Moving mirrored memory"). Skipped, saying why,
 * where nvcc or gcc is missing.
 */
class ExecMirroredMemoryTest {
    @TempDir
    static Path bundles;

    @Test
    void aLaunchMovesOnlyTheBytesTheHostChangedBeforeItAndTheBytesTheKernelChangedInALargeManagedAllocation() throws Exception {
        Path exe = CudaPrograms.build("mirrored_launches");
        StringWriter out = new StringWriter(), err = new StringWriter();
        Path programOutput = Files.createTempFile(exe.getParent(), "mirrored_launches", ".out");
        List<HostMirrors.Transfer> moved = new ArrayList<>();
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = ExecCommand.exec(exe, List.of(), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false), o, e,
                    programOutput, FailureWindow.fromSystem(), session -> moved.addAll(session.transfers()));
        }
        String program = Files.readString(programOutput);
        Files.delete(programOutput);
        String all = out + "" + err + program;
        assertEquals(0, code, all);
        assertTrue(program.contains("PASS mirrored_launches"), all);
        assertEquals(40, moved.size(), all);
        for (HostMirrors.Transfer t : moved) {
            // Before launch i: the host's three writes (managed, pinned, registered), and from the second
            // launch on the writer thread's three writes during the launch before; after it: the kernel's
            // three writes, six from the second launch on. Four bytes each, far apart: one range each.
            int ranges = t.launch() == 1 ? 3 : 6;
            assertEquals(new HostMirrors.Transfer(t.launch(), 4L * ranges, ranges, 4L * ranges, ranges), t, all);
        }
    }

    @Test
    void aChildForkedWhileAnotherThreadsLaunchIsInFlightCanLaunchAndItsParentGoesOn() throws Exception {
        Path exe = CudaPrograms.build("fork_during_launch");
        StringWriter out = new StringWriter(), err = new StringWriter();
        Path programOutput = Files.createTempFile(exe.getParent(), "fork_during_launch", ".out");
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = ExecCommand.exec(exe, List.of(), LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false), o, e, programOutput);
        }
        String program = Files.readString(programOutput);
        Files.delete(programOutput);
        assertEquals(0, code, out + "" + err + program);
        assertTrue(program.contains("PASS fork_during_launch"), out + "" + err + program);
    }
}
