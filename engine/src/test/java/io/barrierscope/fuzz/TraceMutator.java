package io.barrierscope.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Damages trace files: raw (bytes flipped, cut, inserted: the checksum catches these) and with a
 * correct checksum (a section's JSON values, PTX, deflated or inflated events changed, sections
 * swapped between traces or dropped), which only the reader's own checks can catch.
 */
final class TraceMutator {
    private TraceMutator() {}

    private static final int MAGIC = 8;

    record Section(int tag, byte[] data) {}

    static byte[] mutate(List<byte[]> traces, Random r) {
        byte[] t = traces.get(r.nextInt(traces.size())).clone();
        if (r.nextInt(4) == 0) return raw(t, r);
        List<Section> s = sections(t);
        int format = ByteBuffer.wrap(t, MAGIC, 4).getInt();
        int rounds = 1 + r.nextInt(2);
        for (int k = 0; k < rounds; k++) {
            int i = r.nextInt(s.size());
            Section x = s.get(i);
            switch (r.nextInt(6)) {
                case 0 -> { // JSON or text sections: a value replaced
                    String text = new String(x.data(), StandardCharsets.UTF_8);
                    List<int[]> spans = FuzzInputs.valueSpans(text);
                    if (spans.isEmpty()) break;
                    int[] sp = spans.get(r.nextInt(spans.size()));
                    text = text.substring(0, sp[0]) + FuzzInputs.hostileJsonValue(r) + text.substring(sp[1]);
                    s.set(i, new Section(x.tag(), text.getBytes(StandardCharsets.UTF_8)));
                }
                case 1 -> { // bytes flipped inside a section
                    byte[] d = x.data().clone();
                    if (d.length > 0) d[r.nextInt(d.length)] ^= (byte) (1 + r.nextInt(255));
                    s.set(i, new Section(x.tag(), d));
                }
                case 2 -> { // the events changed before deflating (valid deflate, wrong content)
                    for (int j = 0; j < s.size(); j++) {
                        if (s.get(j).tag() != 4) continue;
                        byte[] raw = inflate(s.get(j).data());
                        if (raw == null) continue; // already damaged by an earlier round
                        if (raw.length > 0) raw[r.nextInt(raw.length)] ^= (byte) (1 + r.nextInt(255));
                        s.set(j, new Section(4, deflate(raw)));
                    }
                }
                case 3 -> { // a section spliced in from another trace
                    List<Section> other = sections(traces.get(r.nextInt(traces.size())));
                    Section o = other.get(r.nextInt(other.size()));
                    s.set(i, o);
                }
                case 4 -> s.remove(i);
                default -> s.add(r.nextInt(s.size() + 1), x);
            }
            if (s.isEmpty()) break;
        }
        return assemble(format, s);
    }

    private static byte[] raw(byte[] t, Random r) {
        switch (r.nextInt(3)) {
            case 0 -> {
                for (int k = 0; k < 1 + r.nextInt(4); k++) t[r.nextInt(t.length)] ^= (byte) (1 + r.nextInt(255));
                return t;
            }
            case 1 -> { return Arrays.copyOf(t, r.nextInt(t.length)); }
            default -> {
                int at = r.nextInt(t.length);
                byte[] ins = new byte[1 + r.nextInt(16)];
                r.nextBytes(ins);
                byte[] out = new byte[t.length + ins.length];
                System.arraycopy(t, 0, out, 0, at);
                System.arraycopy(ins, 0, out, at, ins.length);
                System.arraycopy(t, at, out, at + ins.length, t.length - at);
                return out;
            }
        }
    }

    static List<Section> sections(byte[] t) {
        ByteBuffer b = ByteBuffer.wrap(t, 0, t.length - 32);
        b.position(MAGIC + 4);
        List<Section> out = new ArrayList<>();
        while (b.hasRemaining()) {
            int tag = b.get();
            if (tag == 0) break;
            byte[] d = new byte[b.getInt()];
            b.get(d);
            out.add(new Section(tag, d));
        }
        return out;
    }

    static byte[] assemble(int format, List<Section> s) {
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream d = new DataOutputStream(body);
            d.write(new byte[] {(byte) 0x89, 'B', 'S', 'T', 'R', '\r', '\n', 0x1A});
            d.writeInt(format);
            for (Section x : s) {
                d.writeByte(x.tag());
                d.writeInt(x.data().length);
                d.write(x.data());
            }
            d.writeByte(0);
            d.flush();
            byte[] out = body.toByteArray();
            byte[] all = Arrays.copyOf(out, out.length + 32);
            System.arraycopy(MessageDigest.getInstance("SHA-256").digest(out), 0, all, out.length, 32);
            return all;
        } catch (IOException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] inflate(byte[] data) {
        Inflater inf = new Inflater();
        inf.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        try {
            while (!inf.finished()) {
                int k = inf.inflate(buf);
                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) break;
                out.write(buf, 0, k);
            }
        } catch (java.util.zip.DataFormatException e) {
            return null;
        } finally {
            inf.end();
        }
        return out.toByteArray();
    }

    private static byte[] deflate(byte[] raw) {
        Deflater def = new Deflater();
        def.setInput(raw);
        def.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        while (!def.finished()) out.write(buf, 0, def.deflate(buf));
        def.end();
        return out.toByteArray();
    }
}
