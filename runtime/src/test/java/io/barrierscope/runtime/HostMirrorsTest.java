package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine side of moving mirrored memory (the wire's MIRROR and PUSH, and LAUNCH's reply;
 * docs/runtime.md, "Moving mirrored memory"): a launch's reply carries exactly the bytes it
 * changed in mirrored memory, and a process is told to send everything whole when its shadow
 * cannot hold what the engine holds. The kernel is hand-written PTX: one thread stores a u32.
 */
class HostMirrorsTest {
    static final String PTX = """
            .version 8.0
            .target sm_90a
            .address_size 64
            .visible .entry put(.param .u64 p, .param .u32 v)
            {
                .reg .b64 %rd<2>;
                .reg .b32 %r<2>;
                ld.param.u64 %rd1, [p];
                ld.param.u32 %r1, [v];
                st.global.u32 [%rd1], %r1;
                ret;
            }
            """;

    private final DeviceSession session = new DeviceSession(LaunchOptions.defaults(),
            new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter(), true));

    private boolean registered;

    private static ByteBuffer le(int n) { return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN); }

    private static byte[] string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return le(4 + b.length).putInt(b.length).put(b).array();
    }

    private ByteBuffer call(int op, byte[] payload, int client) {
        DeviceSession.Reply r = session.handle(new RuntimeProtocol.Request(op, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN)), client);
        assertEquals(CudaError.SUCCESS, r.status());
        return ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A mirrored allocation of n bytes: its address. */
    private long mirrored(int n) {
        byte[] name = string("cudaMallocManaged");
        long a = call(RuntimeProtocol.MALLOC, le(8 + name.length).putLong(n).put(name).array(), 1).getLong();
        call(RuntimeProtocol.MIRROR, le(16).putLong(a).putLong(n).array(), 1);
        return a;
    }

    /** The ranges a launch of put(base + at, v) by client reports: "offset from base:hex bytes" each. */
    private List<String> launch(long base, int at, int v, int client) {
        long p = base + at;
        if (!registered) call(RuntimeProtocol.MODULE, string(PTX), client);
        registered = true;
        byte[] entry = string("put");
        ByteBuffer b = le(4 + entry.length + 11 * 4 + 12).putInt(0).put(entry);
        for (int d : new int[] {1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}) b.putInt(d);
        b.putLong(p).putInt(v);
        ByteBuffer r = call(RuntimeProtocol.LAUNCH, b.array(), client);
        r.getLong();
        r.position(r.position() + 4 + r.getInt(r.position()));
        List<String> out = new ArrayList<>();
        for (int n = r.getInt(); n > 0; n--) {
            long a = r.getLong();
            byte[] bytes = new byte[r.getInt()];
            r.get(bytes);
            out.add((a - base) + ":" + java.util.HexFormat.of().formatHex(bytes));
        }
        return out;
    }

    /** PUSH of one range: whether the engine says the client's shadows were stale. */
    private boolean push(int client, long a, byte... bytes) {
        return call(RuntimeProtocol.PUSH, le(12 + bytes.length).putLong(a).putInt(bytes.length).put(bytes).array(), client).getInt() == 1;
    }

    @Test
    void aLaunchReportsOnlyTheBytesItChangedNotTheBytesItWroteWithTheirOldValue() {
        long a = mirrored(1 << 20);
        assertEquals(List.of("4096:78563412"), launch(a, 4096, 0x12345678, 1));
        // The same word again with its low byte changed: one byte moves; the same value again: nothing.
        assertEquals(List.of("4096:79"), launch(a, 4096, 0x12345679, 1));
        assertEquals(List.of(), launch(a, 4096, 0x12345679, 1));
        assertEquals(List.of(1, 1, 0), session.transfers().stream().map(HostMirrors.Transfer::pulledRanges).toList());
    }

    @Test
    void memoryThatIsNotMirroredIsNotReported() {
        byte[] name = string("cudaMalloc");
        long d = call(RuntimeProtocol.MALLOC, le(8 + name.length).putLong(64).put(name).array(), 1).getLong();
        mirrored(64);
        assertEquals(List.of(), launch(d, 0, 7, 1));
    }

    @Test
    void pushedRangesReachTheKernelsMemoryAndAreCountedForTheNextLaunch() {
        long a = mirrored(4096);
        assertEquals(false, push(1, a + 100, (byte) 1, (byte) 2, (byte) 3));
        assertArrayEquals(new byte[] {1, 2, 3}, java.util.Arrays.copyOfRange(session.device().find(a, 4096, false).data(), 100, 103));
        launch(a, 0, 0, 1);
        assertEquals(new HostMirrors.Transfer(1, 3, 1, 0, 0), session.transfers().get(0));
    }

    @Test
    void anotherProcessPushingOrLaunchingOrACopyOnTheEnginesSideMakesAShadowStaleSoItIsSentWhole() {
        long a = mirrored(4096);
        assertEquals(false, push(1, a, (byte) 1)); // nobody has pushed: every shadow holds the fresh bytes
        assertEquals(false, push(1, a, (byte) 1));
        assertEquals(true, push(2, a, (byte) 2)); // a forked child: its shadows may be the parent's
        assertEquals(true, push(1, a, (byte) 1));
        launch(a, 8, 5, 2);
        assertEquals(true, push(1, a, (byte) 1));
        assertEquals(false, push(1, a, (byte) 1));
        call(RuntimeProtocol.SET, le(20).putLong(a + 16).putInt(0).putLong(4).array(), 1);
        assertEquals(true, push(1, a, (byte) 1));
    }

    @Test
    void aPushedRangeInMemoryAnotherProcessFreedIsNamedAndTheRestOfThePushStillReachesTheKernel() {
        long gone = mirrored(4096);
        long a = mirrored(4096);
        call(RuntimeProtocol.FREE, le(8).putLong(gone).array(), 2); // a forked child frees what its parent holds too
        byte[] push = le(2 * 13).putLong(gone).putInt(1).put((byte) 9).putLong(a + 5).putInt(1).put((byte) 7).array();
        DeviceSession.Reply r = session.handle(new RuntimeProtocol.Request(RuntimeProtocol.PUSH,
                ByteBuffer.wrap(push).order(ByteOrder.LITTLE_ENDIAN)), 1);
        assertEquals(CudaError.INVALID_VALUE, r.status());
        assertEquals(7, session.device().find(a, 4096, false).data()[5]);
    }
}
