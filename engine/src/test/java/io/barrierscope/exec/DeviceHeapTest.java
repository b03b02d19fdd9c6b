package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The device heap: malloc, free and __nv_aligned_device_malloc as nvcc calls them (hand-written
 * PTX in nvcc's calling sequence), one rule per test (docs/semantics.md, "Device heap").
 */
class DeviceHeapTest {
    private static final String EXTERNS = ".extern .func (.param .b64 func_retval0) malloc\n(\n.param .b64 malloc_param_0\n)\n;\n"
            + ".extern .func free\n(\n.param .b64 free_param_0\n)\n;\n"
            + ".extern .func (.param .b64 func_retval0) __cuda_syscall_aligned_malloc\n(\n.param .b64 a0,\n.param .b64 a1\n)\n;\n";

    /** {@code dst = malloc(size)} (size a register or an immediate). */
    private static String malloc(String dst, String size) {
        return "{\n.param .b64 param0;\nst.param.b64 [param0], " + size + ";\n.param .b64 retval0;\n"
                + "call.uni (retval0), malloc, (param0);\nld.param.b64 " + dst + ", [retval0];\n}\n";
    }

    private static String free(String p) {
        return "{\n.param .b64 param0;\nst.param.b64 [param0], " + p + ";\ncall.uni free, (param0);\n}\n";
    }

    private static String alignedMalloc(String dst, String size, String align) {
        return "{\n.param .b64 param0;\nst.param.b64 [param0], " + size + ";\n.param .b64 param1;\nst.param.b64 [param1], " + align
                + ";\n.param .b64 retval0;\ncall.uni (retval0), __cuda_syscall_aligned_malloc, (param0, param1);\n"
                + "ld.param.b64 " + dst + ", [retval0];\n}\n";
    }

    private static ExecKernel kernel(String body) { return ExecKernel.of(body).header(EXTERNS); }

    private static GlobalMemory.Segment heap(LaunchedRun r) {
        GlobalMemory.Segment s = r.machine().memory.global.byName(DeviceHeap.SEGMENT);
        assertNotNull(s, "the launch has a device heap");
        return s;
    }

    @Test
    void eachThreadGetsItsOwnSixteenByteAlignedBlockInTheHeap() {
        // Every thread mallocs 24 bytes, writes its index into all six words, reads the last back.
        String body = "mov.u32 %r1, %tid.x;\n" + malloc("%rd1", "24") + "st.u32 [%rd1], %r1;\nst.u32 [%rd1+20], %r1;\n"
                + "ld.u32 %r2, [%rd1+20];\nmul.wide.u32 %rd2, %r1, 8;\nadd.u64 %rd3, %rd41, %rd2;\nst.global.u64 [%rd3], %rd1;\n"
                + "mul.wide.u32 %rd4, %r1, 4;\nadd.u64 %rd5, %rd40, %rd4;\nst.global.u32 [%rd5], %r2;\n";
        LaunchedRun r = kernel(body).threads(64).ok();
        GlobalMemory.Segment h = heap(r);
        assertEquals(DeviceHeap.CONTROL + DeviceHeap.DEFAULT_BYTES, h.data().length, "CUDA's default heap: 8 MiB");
        Set<Long> seen = new HashSet<>();
        for (int t = 0; t < 64; t++) {
            long p = x(r, t);
            assertEquals(0, p % 16, "16-byte aligned: 0x" + Long.toHexString(p));
            assertTrue(p >= h.base() && p + 24 <= h.end(), "inside the heap");
            assertTrue(seen.add(p), "a block of its own");
            assertEquals(t, w(r, t));
        }
    }

    @Test
    void mallocReturnsNullWhenTheHeapCannotHoldTheRequest() {
        // 8 MiB of heap: one 4 MiB block fits, a second does not (each block has a header too).
        String body = malloc("%rd1", "4194304") + x(0, "%rd1") + malloc("%rd2", "4194304") + x(1, "%rd2")
                + malloc("%rd3", "8388608") + x(2, "%rd3") + malloc("%rd4", "-1") + x(3, "%rd4");
        LaunchedRun r = kernel(body).ok();
        assertNotEquals(0, x(r, 0));
        assertEquals(0, x(r, 1));
        assertEquals(0, x(r, 2));
        assertEquals(0, x(r, 3), "SIZE_MAX");
    }

    @Test
    void freedMemoryServesTheNextMalloc() {
        // After freeing the 4 MiB block a second 4 MiB block fits again (the free blocks are joined).
        String body = malloc("%rd1", "4194304") + malloc("%rd2", "4194304") + x(0, "%rd2") + free("%rd1")
                + malloc("%rd3", "1048576") + malloc("%rd4", "6291456") + x(1, "%rd4") + free("%rd3") + malloc("%rd5", "6291456")
                + x(2, "%rd5");
        LaunchedRun r = kernel(body).ok();
        assertEquals(0, x(r, 0), "full");
        assertEquals(0, x(r, 1), "1 MiB is still taken");
        assertNotEquals(0, x(r, 2), "all of it free again");
    }

    @Test
    void freeOfNullDoesNothing() {
        kernel("mov.u64 %rd1, 0;\n" + free("%rd1") + free("0")).ok();
    }

    @Test
    void freeingTwiceIsDiagnosed() {
        LaunchedRun r = kernel(malloc("%rd1", "32") + free("%rd1") + free("%rd1")).run();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals(List.of("heap-double-free"), codes(r));
    }

    @Test
    void freeOfAPointerMallocDidNotReturnIsDiagnosed() {
        // The result buffer (cudaMalloc'd memory, as the runtime would give it) is not the heap's.
        LaunchedRun r = kernel(free("%rd40")).run();
        assertEquals(List.of("heap-invalid-free"), codes(r), r.summary());
    }

    @Test
    void freeOfAPointerInsideAnAllocationIsDiagnosed() {
        LaunchedRun r = kernel(malloc("%rd1", "64") + "add.u64 %rd2, %rd1, 32;\n" + free("%rd2")).run();
        assertEquals(List.of("heap-invalid-free"), codes(r), r.summary());
    }

    @Test
    void alignedMallocReturnsAPowerOfTwoAlignedBlock() {
        String body = malloc("%rd1", "16") + alignedMalloc("%rd2", "100", "4096") + x(0, "%rd2") + free("%rd2")
                + alignedMalloc("%rd3", "8", "64") + x(1, "%rd3");
        LaunchedRun r = kernel(body).ok();
        assertEquals(0, x(r, 0) % 4096);
        assertNotEquals(0, x(r, 0));
        assertEquals(0, x(r, 1) % 64);
    }

    @Test
    void alignedMallocWithAnAlignmentThatIsNoPowerOfTwoIsDiagnosed() {
        LaunchedRun r = kernel(alignedMalloc("%rd1", "16", "24")).run();
        assertEquals(List.of("heap-bad-alignment"), codes(r), r.summary());
    }

    @Test
    void alignedMallocWithAnAlignmentOfTwoToTheSixtyThirdReturnsNull() {
        // 2^63 is a power of two no heap can honour; as a signed long it is negative, and must not pass as 16.
        String body = "mov.u64 %rd9, 1;\nshl.b64 %rd9, %rd9, 63;\n" + alignedMalloc("%rd1", "16", "%rd9") + x(0, "%rd1");
        LaunchedRun r = kernel(body).ok();
        assertEquals(0, x(r, 0));
    }

    @Test
    void aHeapTooSmallForOneBlockReturnsNullRatherThanReportingCorruption() {
        // cudaLimitMallocHeapSize of 16 bytes: no room for a header and a payload, so malloc has nothing to give.
        LaunchedRun r = kernel(malloc("%rd1", "16")).ok();
        Memory mem = r.machine().memory;
        assertTrue(mem.global.unmap(heap(r).base()));
        mem.global.mapAt(DeviceHeap.SEGMENT, mem.global.nextAddress(), DeviceHeap.fresh(16), false);
        assertEquals(DeviceHeap.segmentBytes(16), heap(r).data().length);
        assertEquals(0, DeviceHeap.malloc(mem, 0, 1, 16));
    }

    @Test
    void aHeapBufferWhoseSizeIsNoMultipleOfSixteenIsReportedAsCorruption() {
        // A launch file's deviceHeap buffer of 20 bytes with a valid control block: malloc must not read a header past its end.
        LaunchedRun r = kernel(malloc("%rd1", "16")).ok();
        Memory mem = r.machine().memory;
        assertTrue(mem.global.unmap(heap(r).base()));
        mem.global.mapAt(DeviceHeap.SEGMENT, mem.global.nextAddress(), java.util.Arrays.copyOf(DeviceHeap.fresh(0), 20), false);
        DeviceHeap.Misuse m = org.junit.jupiter.api.Assertions.assertThrows(DeviceHeap.Misuse.class, () -> DeviceHeap.malloc(mem, 0, 1, 16));
        assertEquals(io.barrierscope.diag.DiagnosticCode.HEAP_CORRUPTED, m.code);
    }

    @Test
    void freeOfAPointerIntoAJoinedFreeBlockIsAnInvalidFreeNotADoubleFree() {
        // a takes 16 bytes; the free rest follows. Freed a and the rest are joined by a malloc of all 8 MiB
        // but its header; the rest's old header, now inside that block, is no block's start.
        String body = malloc("%rd1", "16") + free("%rd1") + malloc("%rd2", "8388592") + x(0, "%rd2") + "add.u64 %rd3, %rd2, 32;\n"
                + free("%rd3");
        LaunchedRun r = kernel(body).run();
        assertEquals(List.of("heap-invalid-free"), codes(r), r.summary());
    }

    @Test
    void aWritePastAnAllocationIntoTheNextHeaderIsReportedAsCorruption() {
        // 32 bytes, then a store just past them: the header of the free rest, which the next malloc reads.
        LaunchedRun r = kernel(malloc("%rd1", "32") + "st.u64 [%rd1+32], 12345;\n" + malloc("%rd2", "32")).racy().run();
        assertEquals(List.of("heap-corrupted"), codes(r), r.summary());
    }

    @Test
    void memoryOneWarpFreesAndAnotherGetsIsNoRace() {
        // Lane 0 of two warps, no barrier: each takes a 6 MiB block (only one fits at a time; the other
        // spins until malloc succeeds), writes and reads it, frees it. Both get the same block: it passes
        // from one warp's free to the other's malloc through the allocator, which orders them.
        String body = "mov.u32 %r1, %tid.x;\nand.b32 %r3, %r1, 31;\nsetp.ne.u32 %p1, %r3, 0;\n@%p1 bra DONE;\nAGAIN:\n"
                + malloc("%rd1", "6291456") + "setp.eq.u64 %p2, %rd1, 0;\n@%p2 bra AGAIN;\nst.u32 [%rd1], %r1;\nld.u32 %r2, [%rd1];\n"
                + free("%rd1") + "shr.u32 %r4, %r1, 5;\nmul.wide.u32 %rd4, %r4, 4;\nadd.u64 %rd5, %rd40, %rd4;\nst.global.u32 [%rd5], %r2;\n"
                + "mul.wide.u32 %rd6, %r4, 8;\nadd.u64 %rd7, %rd41, %rd6;\nst.global.u64 [%rd7], %rd1;\nDONE:\n";
        LaunchedRun r = kernel(body).threads(64).ok();
        assertEquals(0, w(r, 0));
        assertEquals(32, w(r, 1));
        assertEquals(x(r, 0), x(r, 1), "the same block, passed on");
    }

    @Test
    void heapStateIsInTheHeapsBytesSoALaterLaunchOverTheSameMemoryFindsItsBlocks() {
        // What a runtime program's next launch sees: the same segment, its blocks still taken.
        LaunchedRun r = kernel(malloc("%rd1", "4194304") + x(0, "%rd1")).ok();
        byte[] bytes = heap(r).data();
        Memory mem = r.machine().memory;
        long second = DeviceHeap.malloc(mem, 0, 4194304, 16);
        assertEquals(0, second, "the first launch's 4 MiB block is still allocated");
        DeviceHeap.free(mem, 0, x(r, 0));
        assertNotEquals(0, DeviceHeap.malloc(mem, 0, 4194304, 16));
        assertEquals(bytes, heap(r).data());
    }

    @Test
    void theLaunchsMemoryEstimateCountsTheDefaultHeap() {
        long with = kernel(malloc("%rd1", "16")).launch().memoryEstimate(0).bufferBytes();
        long without = kernel("").launch().memoryEstimate(0).bufferBytes();
        assertEquals(DeviceHeap.segmentBytes(DeviceHeap.DEFAULT_BYTES), with - without);
    }

    @Test
    void anotherExternalFunctionIsRefusedNamingIt() {
        String ptx = ".extern .func foo\n(\n.param .b64 p\n)\n;\n";
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                () -> ExecKernel.of("{\n.param .b64 param0;\nst.param.b64 [param0], 0;\ncall.uni foo, (param0);\n}\n").header(ptx).launch());
        assertTrue(e.getMessage().contains("unsupported external function 'foo'"), e.getMessage());
        assertTrue(e.getMessage().contains("malloc"), e.getMessage());
    }
}
