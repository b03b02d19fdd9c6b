package io.barrierscope.trace;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.UnaryOperator;

/** Test helper: rewrites one section of a trace and recomputes its checksum (damage the checksum cannot catch). */
final class TraceSurgery {
    private TraceSurgery() {}

    static byte[] replaceSection(byte[] trace, int tag, UnaryOperator<byte[]> change) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(trace, 0, trace.length - 32);
        b.position(TraceFile.MAGIC.length);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(body);
        d.write(TraceFile.MAGIC);
        d.writeInt(b.getInt());
        while (b.hasRemaining()) {
            int t = b.get();
            if (t == TraceFile.TAG_END) {
                d.writeByte(t);
                break;
            }
            byte[] data = new byte[b.getInt()];
            b.get(data);
            if (t == tag) data = change.apply(data);
            d.writeByte(t);
            d.writeInt(data.length);
            d.write(data);
        }
        d.flush();
        byte[] out = body.toByteArray();
        byte[] all = Arrays.copyOf(out, out.length + 32);
        System.arraycopy(TraceFile.sha256(out), 0, all, out.length, 32);
        return all;
    }
}
