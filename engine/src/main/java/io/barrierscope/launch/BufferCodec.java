package io.barrierscope.launch;

import io.barrierscope.exec.SplitMix64;
import io.barrierscope.ptx.ScalarType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Encodes launch-file buffer contents to device bytes and decodes them back, per element type. */
public final class BufferCodec {
    private BufferCodec() {}

    /** The initial bytes of a buffer argument (zero, iota, random:SEED or data). */
    public static byte[] initial(ArgSpec a) {
        if (a.extras() != null && a.extras().bytes() != null) return a.extras().bytes().clone();
        ScalarType t = a.type();
        int size = t.bytes();
        byte[] out = new byte[Math.toIntExact(a.count() * size)];
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        String init = a.init();
        SplitMix64 rng = init.startsWith("random:") ? new SplitMix64(Long.parseLong(init.substring(7))) : null;
        for (int i = 0; i < a.count(); i++) {
            Number v;
            if (init.equals("iota")) v = t.isFloat() ? (Number) (double) i : (Number) (long) i;
            else if (rng != null) v = t.isFloat() ? (Number) ((rng.nextLong() >>> 11) * 0x1.0p-53) : (Number) rng.nextLong();
            else if (init.equals("data") && i < a.data().size()) v = a.data().get(i);
            else v = 0L;
            put(b, i * size, bits(v, t), size);
        }
        return out;
    }

    /** The length of {@link #initial(ArgSpec)} without making it (a launch is planned before any buffer is allocated). */
    public static long bytes(ArgSpec a) {
        if (a.extras() != null && a.extras().bytes() != null) return a.extras().bytes().length;
        return a.count() * (long) a.type().bytes();
    }

    private static void put(ByteBuffer b, int at, long v, int size) {
        switch (size) {
            case 1 -> b.put(at, (byte) v);
            case 2 -> b.putShort(at, (short) v);
            case 4 -> b.putInt(at, (int) v);
            default -> b.putLong(at, v);
        }
    }

    /** The device bit pattern of a number of type {@code t}. */
    public static long bits(Number v, ScalarType t) {
        if (t == ScalarType.F32) return Float.floatToRawIntBits(v.floatValue()) & 0xFFFFFFFFL;
        if (t == ScalarType.F64) return Double.doubleToRawLongBits(v.doubleValue());
        return v.longValue();
    }

    public static List<Number> decode(byte[] data, ScalarType t) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int size = t.bytes();
        List<Number> out = new ArrayList<>(data.length / size);
        for (int at = 0; at + size <= data.length; at += size) {
            out.add(switch (t) {
                case U8 -> (long) (b.get(at) & 0xFF);
                case S8 -> (long) b.get(at);
                case U16 -> (long) (b.getShort(at) & 0xFFFF);
                case S16 -> (long) b.getShort(at);
                case U32 -> b.getInt(at) & 0xFFFFFFFFL;
                case S32 -> (long) b.getInt(at);
                case F32 -> (double) b.getFloat(at);
                case F64 -> b.getDouble(at);
                default -> b.getLong(at);
            });
        }
        return out;
    }

    /** Element {@code i} of {@code data} decoded by type, without decoding the rest. */
    public static Number element(byte[] data, ScalarType t, int i) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int at = i * t.bytes();
        return switch (t) {
            case U8 -> (long) (b.get(at) & 0xFF);
            case S8 -> (long) b.get(at);
            case U16 -> (long) (b.getShort(at) & 0xFFFF);
            case S16 -> (long) b.getShort(at);
            case U32 -> b.getInt(at) & 0xFFFFFFFFL;
            case S32 -> (long) b.getInt(at);
            case F32 -> (double) b.getFloat(at);
            case F64 -> b.getDouble(at);
            default -> b.getLong(at);
        };
    }

    /**
     * The first {@code limit} elements of {@code data} as a list that decodes each element when it
     * is read: a 64M-element buffer is compared or written one element at a time from its bytes,
     * never held as boxed numbers.
     */
    public static List<Number> view(byte[] data, ScalarType t, int limit) {
        int n = (int) Math.min(limit, data.length / t.bytes());
        return new java.util.AbstractList<>() {
            @Override
            public Number get(int i) {
                java.util.Objects.checkIndex(i, n);
                return element(data, t, i);
            }

            @Override
            public int size() { return n; }
        };
    }
}
