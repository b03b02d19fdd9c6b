package io.barrierscope.sync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A tensor map (the CUtensorMap a kernel receives as a 128-byte {@code __grid_constant__}
 * parameter) for tile-mode bulk tensor copies. The real encoding is opaque; the launch file
 * describes the tensor and BarrierScope stores it in these 128 bytes in its own documented
 * layout: u32 magic "TMAP", u32 rank, u64 global address, u32 element size, u32 0,
 * u64 dims[5], u64 byte strides of dims 1..4, u32 box[5], u32 swizzle bytes (0, 32, 64, 128).
 */
public record TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box, int swizzle) {
    /** A map without swizzle. */
    public TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box) {
        this(rank, base, elementSize, dims, strides, box, 0);
    }

    /**
     * Where byte {@code offset} of a box (laid out densely, dimension 0 fastest) lands in shared
     * memory at {@code dst}: with swizzle S bytes (CU_TENSOR_MAP_SWIZZLE_32B/64B/128B), the 16-byte
     * chunk index within each S-byte span, address bits 4.., is XORed with the 128-byte line
     * index modulo S/16, address bits 7.. (the pattern repeats every 8 lines of 128 bytes for 128B).
     */
    public long swizzled(long dst, long offset) {
        long a = dst + offset;
        if (swizzle == 0) return a;
        long mask = swizzle / 16 - 1;
        return a ^ (((a >> 7) & mask) << 4);
    }
    public static final int BYTES = 128;
    private static final int MAGIC = 0x544D4150;

    /** Bytes one box holds (what a copy of it delivers, out-of-bounds elements included). */
    public long boxBytes() {
        long n = elementSize;
        for (int i = 0; i < rank; i++) n *= box[i];
        return n;
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, MAGIC).putInt(4, rank).putLong(8, base).putInt(16, elementSize).putInt(116, swizzle);
        for (int i = 0; i < rank; i++) {
            b.putLong(24 + 8 * i, dims[i]);
            b.putInt(96 + 4 * i, box[i]);
            if (i > 0) b.putLong(64 + 8 * (i - 1), strides[i - 1]);
        }
        return b.array();
    }

    /** The map held in 128 bytes, or null if they are not one. */
    public static TensorMap decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int rank = b.getInt(4);
        int elem = b.getInt(16);
        if (b.getInt(0) != MAGIC || rank < 1 || rank > 5 || (elem != 1 && elem != 2 && elem != 4 && elem != 8)) return null;
        long[] dims = new long[rank];
        long[] strides = new long[rank - 1];
        int[] box = new int[rank];
        for (int i = 0; i < rank; i++) {
            dims[i] = b.getLong(24 + 8 * i);
            box[i] = b.getInt(96 + 4 * i);
            if (dims[i] < 1 || box[i] < 1 || box[i] > 256) return null;
            if (i > 0) strides[i - 1] = b.getLong(64 + 8 * (i - 1));
        }
        int swizzle = b.getInt(116);
        if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128) return null;
        return new TensorMap(rank, b.getLong(8), elem, dims, strides, box, swizzle);
    }
}
