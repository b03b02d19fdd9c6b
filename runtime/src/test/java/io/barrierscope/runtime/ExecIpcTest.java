package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUDA IPC between a program and its forked child (docs/runtime.md, "CUDA IPC"): `ipc.cu`'s own
 * checks decide (the child's kernel writes what the host computes; misuse gets the documented
 * errors); skipped, saying why, where nvcc or gcc is missing.
 */
class ExecIpcTest {
    @TempDir
    static Path bundles;

    @Test
    void aChildOpensItsParentsMemoryAndEventHandlesWritesThroughAKernelAndMisuseGetsTheDocumentedErrors() throws Exception {
        ExecProgramsTest.Ran r = ExecProgramsTest.exec(CudaPrograms.build("ipc"),
                LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS ipc"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaIpcOpenMemHandle: the handle was made in this process; only another"
                + " process may open it (returns cudaErrorDeviceUninitialized)"), r.all());
        assertTrue(r.program().matches("(?s).*barrierscope: cudaIpcOpenMemHandle: the allocation at 0x[0-9a-f]+ \\(64 bytes\\) the"
                + " handle names was freed \\(returns cudaErrorInvalidResourceHandle\\).*"), r.all());
        assertTrue(r.program().contains("barrierscope: cudaFree: memory opened with cudaIpcOpenMemHandle is released with"
                + " cudaIpcCloseMemHandle (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(!r.err().contains("does not implement"), "every IPC call is implemented\n" + r.all());
    }

    @Test
    void theDriversIpcCallsFromTheEntryPointShareTheRuntimesHandlesAndGiveTheDriversErrors() throws Exception {
        ExecProgramsTest.Ran r = ExecProgramsTest.exec(CudaPrograms.build("ipc_driver"),
                LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("PASS ipc_driver"), r.all());
        assertTrue(!r.all().contains("not implemented"), "every cuIpc call is implemented\n" + r.all());
        // Each driver call's message names the driver call (and its flag), not the runtime call it shares.
        assertTrue(r.program().contains("barrierscope: cuIpcOpenMemHandle: Flags must be CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS,"
                + " as documented (returns cudaErrorInvalidValue)"), r.all());
        assertTrue(r.program().contains("barrierscope: cuIpcOpenMemHandle: the handle was made in this process; only another"
                + " process may open it (returns cudaErrorDeviceUninitialized)"), r.all());
        assertTrue(r.program().matches("(?s).*barrierscope: cuIpcGetMemHandle: 0x[0-9a-f]+ is not device memory cudaMalloc returned.*"), r.all());
        assertTrue(r.program().matches("(?s).*barrierscope: cuIpcCloseMemHandle: 0x[0-9a-f]+ is no memory cuIpcOpenMemHandle returned.*"), r.all());
        assertTrue(!r.program().contains("barrierscope: cudaIpc"), "no driver call speaks as the runtime's\n" + r.all());
    }
}
