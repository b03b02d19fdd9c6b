package io.barrierscope.runtime;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The wire between our libcudart.so.13 and {@code barrierscope exec}: the Java side of
 * runtime/src/main/c/protocol.h (docs/runtime.md, "The wire"). Request: u32 op, u32 length,
 * payload; reply: u32 status (a cudaError_t), u32 length, payload; little-endian.
 */
public final class RuntimeProtocol {
    public static final int VERSION = 4;
    public static final int HELLO = 1;
    public static final int MODULE = 2;
    /** The PTX of each object of a relocatable (-rdc=true) program, linked into one module (PtxLinker). */
    public static final int MODULE_LINK = 16;
    public static final int PARAMS = 3;
    public static final int MALLOC = 4;
    public static final int FREE = 5;
    public static final int WRITE = 6;
    public static final int READ = 7;
    public static final int COPY = 8;
    public static final int SET = 9;
    public static final int SYMBOL = 10;
    public static final int LAUNCH = 11;
    /** LAUNCH's flags word (after the dynamic shared bytes): a cooperative launch. */
    public static final int LAUNCH_COOPERATIVE = 1;
    public static final int UNIMPLEMENTED = 12;
    /** Host memory the program registered (cudaHostRegister), mapped at its own address. */
    public static final int MAP_HOST = 13;
    /** cudaLimitMallocHeapSize: the size of the device heap, until a kernel that uses it is launched. */
    public static final int HEAP_LIMIT = 20;
    /** MAP_HOST's flags word: kernels may only read the range (cudaHostRegisterReadOnly). */
    public static final int MAP_HOST_READ_ONLY = 1;
    /** Device memory the program holds at the same address (managed, pinned, a __managed__ variable): HostMirrors. */
    public static final int MIRROR = 14;
    /** Before a launch, the byte ranges of mirrored memory the program changed since the engine last saw them. */
    public static final int PUSH = 15;
    /** The largest request accepted (a copy of a large buffer; the PTX of a big program). */
    public static final int MAX_PAYLOAD = 1 << 30;

    private RuntimeProtocol() {}

    /** One request: its op and payload (little-endian, positioned at 0). */
    public record Request(int op, ByteBuffer payload) {
        public String string() {
            int n = payload.getInt();
            if (n < 0 || n > payload.remaining()) throw new IllegalArgumentException("bad string length " + n);
            byte[] b = new byte[n];
            payload.get(b);
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    /** Reads one request, or null at the end of the stream (the program exited). */
    public static Request read(DataInputStream in) throws IOException {
        byte[] head = new byte[8];
        try {
            in.readFully(head);
        } catch (EOFException e) {
            return null;
        }
        ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        int op = h.getInt();
        int len = h.getInt();
        if (len < 0 || len > MAX_PAYLOAD) throw new IOException("a request of " + Integer.toUnsignedString(len) + " bytes");
        byte[] body = new byte[len];
        in.readFully(body);
        return new Request(op, ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN));
    }

    /** Writes one reply. */
    public static void reply(OutputStream out, int status, byte[] payload) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(status).putInt(payload.length);
        out.write(h.array());
        out.write(payload);
        out.flush();
    }

    /** A little-endian reply payload builder. */
    public static final class Payload {
        private ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);

        private void room(int n) {
            if (b.remaining() < n) {
                ByteBuffer g = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + n)).order(ByteOrder.LITTLE_ENDIAN);
                b.flip();
                g.put(b);
                b = g;
            }
        }

        public Payload u32(int v) { room(4); b.putInt(v); return this; }
        public Payload u64(long v) { room(8); b.putLong(v); return this; }
        public Payload bytes(byte[] v) { room(v.length); b.put(v); return this; }
        public Payload string(String s) {
            byte[] v = s.getBytes(StandardCharsets.UTF_8);
            return u32(v.length).bytes(v);
        }
        public byte[] toArray() {
            byte[] out = new byte[b.position()];
            System.arraycopy(b.array(), 0, out, 0, out.length);
            return out;
        }
    }
}
