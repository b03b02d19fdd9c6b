package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.MemoryFault;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The engine side of cudaHostRegister (the wire's MAP_HOST; docs/runtime.md, registered host
 * memory): the program's range mapped at its own address, apart from the engine's allocations.
 */
class DeviceSessionHostMapTest {
    static final long HOST = 0x5555_0000_1000L; // where a PIE program's heap lies

    private final StringWriter errText = new StringWriter();
    private final DeviceSession session = new DeviceSession(LaunchOptions.defaults(), new PrintWriter(new StringWriter()),
            new PrintWriter(errText, true));

    private static ByteBuffer le(int n) { return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN); }

    private DeviceSession.Reply mapHost(long base, long size, int flags) {
        byte[] call = "cudaHostRegister".getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = le(24 + call.length).putLong(base).putLong(size).putInt(flags).putInt(call.length).put(call);
        return session.handle(new RuntimeProtocol.Request(RuntimeProtocol.MAP_HOST, b.flip()));
    }

    private DeviceSession.Reply free(long base) {
        return session.handle(new RuntimeProtocol.Request(RuntimeProtocol.FREE, le(8).putLong(base).flip()));
    }

    private DeviceSession.Reply write(long base, byte[] bytes) {
        return session.handle(new RuntimeProtocol.Request(RuntimeProtocol.WRITE, le(8 + bytes.length).putLong(base).put(bytes).flip()));
    }

    @Test
    void aRegisteredRangeIsMappedAtItsHostAddressAndTheHostMayFillItEvenWhenKernelsMayOnlyReadIt() {
        assertEquals(CudaError.SUCCESS, mapHost(HOST, 64, RuntimeProtocol.MAP_HOST_READ_ONLY).status());
        GlobalMemory.Segment s = session.device().find(HOST + 8, 8, false);
        assertEquals(HOST, s.base());
        assertTrue(s.readOnly());
        assertEquals(CudaError.SUCCESS, write(HOST, new byte[] {1, 2, 3}).status());
        assertEquals(2, s.data()[1]);
        try {
            session.device().find(HOST, 4, true);
            throw new AssertionError("a kernel's store to a read-only registered range must fault");
        } catch (MemoryFault expected) {
            assertTrue(expected.getMessage().contains("read-only"), expected.getMessage());
        }
    }

    @Test
    void aRangeOverlappingAnotherOrTheEnginesOwnAddressesIsRefusedAndTheEnginesNextAllocationDoesNotMove() {
        long next = session.device().nextAddress();
        assertEquals(CudaError.SUCCESS, mapHost(HOST, 64, 0).status());
        assertEquals(next, session.device().nextAddress());
        assertEquals(CudaError.INVALID_VALUE, mapHost(HOST + 32, 64, 0).status());
        assertEquals(CudaError.INVALID_VALUE, mapHost(next, 64, 0).status());
        assertTrue(errText.toString().contains("the range overlaps device memory or lies where the engine places its own"), errText.toString());
    }

    @Test
    void freeingARegisteredRangeUnmapsItAndTheSameRangeMayBeRegisteredAgain() {
        assertEquals(CudaError.SUCCESS, mapHost(HOST, 64, 0).status());
        assertEquals(CudaError.SUCCESS, free(HOST).status());
        assertEquals(CudaError.INVALID_VALUE, write(HOST, new byte[] {1}).status());
        assertEquals(CudaError.SUCCESS, mapHost(HOST, 64, 0).status());
        assertEquals(CudaError.SUCCESS, write(HOST, new byte[] {1}).status());
    }
}
