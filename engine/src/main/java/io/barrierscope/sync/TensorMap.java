package io.barrierscope.sync;

import io.barrierscope.exec.Values;
import io.barrierscope.ptx.ScalarType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A tensor map (the CUtensorMap a kernel receives as a 128-byte {@code __grid_constant__}
 * parameter) for tile-mode bulk tensor copies. The real encoding is opaque; the launch file
 * describes the tensor and BarrierScope stores it in these 128 bytes in its own documented
 * layout: u32 magic "TMAP", u32 rank, u64 global address, u32 element size, u32 0,
 * u64 dims[5], u64 byte strides of dims 1..4, u32 box[5], u32 swizzle bytes (0, 32, 64, 128),
 * u8 element (traversal) strides[5] (written 0 for 1), u8 interleave bytes (0, 16, 32),
 * u8 flags (bit 0: out-of-bounds elements are NaN, not zero), u8 element type (0: untyped,
 * else 1 + its index in {@link #TYPES}). A map with the defaults (strides 1, no interleave, zero
 * fill, untyped) is byte for byte what it was before these fields existed, so traces recorded
 * then still reproduce. An im2col map (flags bit 1; PTX ISA 5.5.4) keeps channelsPerPixel in
 * box[0], pixelsPerColumn in box[1], and the bounding box's lower and upper corner of spatial
 * dimension j (dimension j + 1: W, H, D) as two signed 16-bit halves, lower first, in box[2 + j].
 * Launch-file maps leave the type out: reductions take the buffer's type from
 * {@link io.barrierscope.exec.GlobalMemory#elementTypeAt}.
 *
 * @param elementStrides traversal stride of each dimension (1..8): a box dimension of
 *        {@code box[i]} tensor elements delivers every {@code elementStrides[i]}-th of them
 * @param type the element type, or null when unknown (tensor reductions need it)
 */
public record TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box, int swizzle,
                        int[] elementStrides, int interleave, boolean oobNan, ScalarType type, Im2col im2col) {
    /**
     * The im2col part of a map (PTX ISA 5.5.4.1): the bounding box's corners in the spatial
     * dimensions, index j for tensor dimension j + 1 (W, H, D), relative to the tensor's first
     * (lower) and last (upper) coordinate; channelsPerPixel and pixelsPerColumn are box[0], box[1].
     */
    public record Im2col(int[] lower, int[] upper) {
        /** The corner limits per rank (PTX ISA 5.5.4.1): 3D 16 bits, 4D 8 bits, 5D 5 bits, signed. */
        public static int cornerBits(int rank) { return rank == 3 ? 16 : rank == 4 ? 8 : 5; }

        /** The im2col offsets' bits per rank (PTX ISA 5.5.4.1): 3D 16, 4D 8, 5D 5, unsigned. */
        public static int offsetBits(int rank) { return cornerBits(rank); }
    }

    /** A tile-mode map with every field. */
    public TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box, int swizzle,
                     int[] elementStrides, int interleave, boolean oobNan, ScalarType type) {
        this(rank, base, elementSize, dims, strides, box, swizzle, elementStrides, interleave, oobNan, type, null);
    }

    /** Pixels a copy of an im2col map delivers (pixelsPerColumn). */
    public int pixelsPerColumn() { return box[1]; }

    /** Channels each pixel of an im2col copy delivers (channelsPerPixel). */
    public int channelsPerPixel() { return box[0]; }

    /** The last coordinate of the bounding box along spatial dimension j (tensor dimension j + 1), before offsets. */
    public long boxUpper(int j) { return dims[j + 1] - 1 + im2col.upper()[j]; }

    /** A map without swizzle. */
    public TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box) {
        this(rank, base, elementSize, dims, strides, box, 0);
    }

    /** A map with traversal strides 1, no interleave, zero fill, untyped. */
    public TensorMap(int rank, long base, int elementSize, long[] dims, long[] strides, int[] box, int swizzle) {
        this(rank, base, elementSize, dims, strides, box, swizzle, ones(rank), 0, false, null);
    }

    private static int[] ones(int rank) {
        int[] a = new int[rank];
        java.util.Arrays.fill(a, 1);
        return a;
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
    /** Element types a map may record, in the order of their codes (fixed: codes are stored). */
    public static final java.util.List<ScalarType> TYPES = java.util.List.of(ScalarType.U8, ScalarType.U16, ScalarType.U32,
            ScalarType.S32, ScalarType.U64, ScalarType.S64, ScalarType.F16, ScalarType.F32, ScalarType.F64, ScalarType.BF16,
            ScalarType.TF32, ScalarType.S8, ScalarType.S16, ScalarType.B8, ScalarType.B16, ScalarType.B32, ScalarType.B64);
    private static final int MAGIC = 0x544D4150;

    /**
     * Elements one box delivers along dimension {@code i}: ceil(box / traversal stride). Without
     * interleave the driver ignores the stride of dimension 0 (CUDA driver API,
     * cuTensorMapEncodeTiled), so it is 1 there.
     */
    public int boxElements(int i) {
        if (im2col != null) return i < 2 ? box[i] : 1;
        int es = i == 0 && interleave == 0 ? 1 : elementStrides[i];
        return (box[i] + es - 1) / es;
    }

    /** The traversal stride in effect along dimension {@code i} (see {@link #boxElements}). */
    public int traversalStride(int i) {
        return i == 0 && interleave == 0 ? 1 : elementStrides[i];
    }

    /** Bytes one box holds (what a copy of it delivers, out-of-bounds elements included). */
    public long boxBytes() {
        long n = elementSize;
        for (int i = 0; i < rank; i++) n *= boxElements(i);
        return n;
    }

    /** The value an out-of-bounds element reads as: zero, or the canonical NaN of the element size. */
    public long oobValue() {
        if (!oobNan) return 0;
        return switch (elementSize) {
            case 2 -> 0x7FFFL;
            case 4 -> Values.F32_NAN;
            default -> Values.F64_NAN;
        };
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, MAGIC).putInt(4, rank).putLong(8, base).putInt(16, elementSize).putInt(116, swizzle);
        for (int i = 0; i < rank; i++) {
            b.putLong(24 + 8 * i, dims[i]);
            b.putInt(96 + 4 * i, box[i]);
            if (i > 0) b.putLong(64 + 8 * (i - 1), strides[i - 1]);
            b.put(120 + i, (byte) (elementStrides[i] == 1 ? 0 : elementStrides[i]));
        }
        b.put(125, (byte) interleave);
        b.put(126, (byte) ((oobNan ? 1 : 0) | (im2col != null ? 2 : 0)));
        if (im2col != null) {
            for (int j = 0; j < rank - 2; j++) b.putInt(104 + 4 * j, (im2col.lower()[j] & 0xFFFF) | (im2col.upper()[j] << 16));
        }
        b.put(127, (byte) (type == null ? 0 : TYPES.indexOf(type) + 1));
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
        int[] es = new int[rank];
        boolean im2col = (b.get(126) & 2) != 0;
        if (im2col && rank < 3) return null;
        for (int i = 0; i < rank; i++) {
            dims[i] = b.getLong(24 + 8 * i);
            box[i] = im2col && i >= 2 ? 1 : b.getInt(96 + 4 * i);
            es[i] = b.get(120 + i) == 0 ? 1 : b.get(120 + i);
            // im2col: channelsPerPixel up to 256, pixelsPerColumn up to 1024 (cuTensorMapEncodeIm2col)
            int maxBox = im2col && i == 1 ? 1024 : 256;
            if (dims[i] < 1 || box[i] < 1 || box[i] > maxBox || es[i] < 1 || es[i] > 8) return null;
            if (i > 0) strides[i - 1] = b.getLong(64 + 8 * (i - 1));
        }
        Im2col corners = null;
        if (im2col) {
            int[] lo = new int[rank - 2];
            int[] hi = new int[rank - 2];
            int lim = 1 << (Im2col.cornerBits(rank) - 1);
            for (int j = 0; j < rank - 2; j++) {
                int v = b.getInt(104 + 4 * j);
                lo[j] = (short) v;
                hi[j] = v >> 16;
                if (lo[j] < -lim || lo[j] >= lim || hi[j] < -lim || hi[j] >= lim || dims[j + 1] - 1 + hi[j] < lo[j]) return null;
            }
            corners = new Im2col(lo, hi);
        }
        int swizzle = b.getInt(116);
        if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128) return null;
        int interleave = b.get(125);
        int flags = b.get(126);
        int t = b.get(127) & 0xFF;
        if ((interleave != 0 && interleave != 16 && interleave != 32) || (flags & ~3) != 0 || t > TYPES.size()) return null;
        if (im2col && interleave != 0) return null; // not modelled: refused where maps are made
        return new TensorMap(rank, b.getLong(8), elem, dims, strides, box, swizzle, es, interleave, (flags & 1) == 1,
                t == 0 ? null : TYPES.get(t - 1), corners);
    }
}
