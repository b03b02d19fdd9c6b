package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * A texture or surface object as a kernel sees it: the 64-bit handle is the global address of a
 * 128-byte descriptor in the engine's own documented layout (docs/semantics.md, "Textures and
 * surfaces"; BarrierScope's runtime writes it in cudaCreateTextureObject/SurfaceObject), all
 * little-endian:
 * <pre>
 *   0 u32 magic "BSTX" (texture) or "BSSF" (surface)   4 u32 dimensions (1, 2, 3)
 *   8 u64 address of texel (0, 0, 0)                  16 u32 width, 20 u32 height, 24 u32 depth (texels)
 *  28 u32 bytes per texel                              32 u64 row pitch, 40 u64 slice pitch (bytes)
 *  48 u8 bits of channels x, y, z, w (0: absent)       52 u8 channel kind (0 signed, 1 unsigned, 2 float)
 *  53 u8 address mode of dimension 0, 1, 2 (0 wrap, 1 clamp, 2 mirror, 3 border)
 *  56 u8 filter (0 point, 1 linear)   57 u8 read mode (0 element type, 1 normalized float)
 *  58 u8 normalized coordinates (0, 1)   59 u8 gathers allowed (0, 1)   60 f32 border color x, y, z, w
 *  76 u8 linear resource (1: cudaResourceTypeLinear memory, fetched by integer index only)
 *  77 u8 layered (1: a 1d or 2d layered array; dimensions 1 or 2)    80 u32 number of layers
 *  78 u8 cubemap (1: dimensions 2, width = height, 6 layers, one a face; with 77: 6 per cubemap)
 *  79 u8 seamless cubemap filtering (read by {@link SeamlessCube})
 *  84.. the mipmap levels and mipmap sampler state, read by {@link Mipmap}
 * </pre>
 * Texels are row-major: texel (i, j, k) is at address + k * slice + j * pitch + i * bytes, its
 * channels packed in x, y, z, w order. Layer l of a layered object starts at address + l * slice
 * (for 1d layered the slice is one row).
 */
record TextureObject(int dims, long base, int width, int height, int depth, int texelBytes, long pitch, long slice,
                     int[] bits, int kind, int[] addressMode, boolean linear, boolean normalizedRead, boolean normalizedCoords,
                     boolean gather, float[] border, boolean linearResource, boolean layered, int layers, boolean cube) {
    static final int TEXTURE_MAGIC = 0x58545342; // "BSTX"
    static final int SURFACE_MAGIC = 0x46535342; // "BSSF"
    static final int SIGNED = 0, UNSIGNED = 1, FLOAT = 2;
    static final int WRAP = 0, CLAMP = 1, MIRROR = 2, BORDER = 3;

    /** Reads the descriptor at {@code handle}; a fault when it is no object of the kind the instruction needs. */
    static TextureObject read(Memory mem, long handle, int thread, boolean surface, String what) {
        long magic = mem.load(Space.GLOBAL, handle, 4, thread);
        int want = surface ? SURFACE_MAGIC : TEXTURE_MAGIC;
        if (magic != want) {
            throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, handle, what + ": handle 0x" + Long.toHexString(handle)
                    + " is not a " + (surface ? "surface" : "texture") + " object (cudaCreate" + (surface ? "Surface" : "Texture")
                    + "Object makes one)");
        }
        int[] bits = new int[4];
        for (int c = 0; c < 4; c++) bits[c] = (int) mem.load(Space.GLOBAL, handle + 48 + c, 1, thread);
        int[] modes = new int[3];
        for (int d = 0; d < 3; d++) modes[d] = (int) mem.load(Space.GLOBAL, handle + 53 + d, 1, thread);
        float[] border = new float[4];
        for (int c = 0; c < 4; c++) border[c] = Float.intBitsToFloat((int) mem.load(Space.GLOBAL, handle + 60 + 4L * c, 4, thread));
        int kind = (int) mem.load(Space.GLOBAL, handle + 52, 1, thread);
        // Normalized-float read mode promotes 8- and 16-bit integers only; 32-bit ones and floats read as they are.
        boolean normalizedRead = mem.load(Space.GLOBAL, handle + 57, 1, thread) == 1 && kind != FLOAT && bits[0] <= 16;
        return new TextureObject((int) mem.load(Space.GLOBAL, handle + 4, 4, thread), mem.load(Space.GLOBAL, handle + 8, 8, thread),
                (int) mem.load(Space.GLOBAL, handle + 16, 4, thread), (int) mem.load(Space.GLOBAL, handle + 20, 4, thread),
                (int) mem.load(Space.GLOBAL, handle + 24, 4, thread), (int) mem.load(Space.GLOBAL, handle + 28, 4, thread),
                mem.load(Space.GLOBAL, handle + 32, 8, thread), mem.load(Space.GLOBAL, handle + 40, 8, thread), bits,
                kind, modes, mem.load(Space.GLOBAL, handle + 56, 1, thread) == 1,
                normalizedRead, mem.load(Space.GLOBAL, handle + 58, 1, thread) == 1,
                mem.load(Space.GLOBAL, handle + 59, 1, thread) == 1, border,
                mem.load(Space.GLOBAL, handle + 76, 1, thread) == 1,
                mem.load(Space.GLOBAL, handle + 77, 1, thread) == 1, (int) mem.load(Space.GLOBAL, handle + 80, 4, thread),
                mem.load(Space.GLOBAL, handle + 78, 1, thread) == 1);
    }

    /** The geometry as the instructions name it: an "a" for a layered object (2d, a2d, cube, acube). */
    String geometry() { return (layered ? "a" : "") + (cube ? "cube" : dims + "d"); }

    /**
     * Layer {@code layer} (the instruction's first coordinate element, read as .u32) of a layered
     * object as an object of its own; an index not below the number of layers is our decision
     * (docs/semantics.md section 16): the ISA gives it no meaning, so it is reported, never clamped.
     */
    TextureObject layer(long layer, long handle, String what) {
        if (layer < 0 || layer >= (layers & 0xFFFFFFFFL)) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_LAYER_RANGE, handle, what + ": layer " + layer + " of a layered object with "
                    + Integer.toUnsignedString(layers) + " layer(s)");
        }
        return new TextureObject(dims, base + layer * slice, width, height, depth, texelBytes, pitch, slice, bits, kind, addressMode, linear,
                normalizedRead, normalizedCoords, gather, border, linearResource, false, 1, false);
    }

    /**
     * Face {@code face} of cubemap {@code cubemap} (0 for a cubemap that is not layered) as a 2d
     * object of its own, fetched with normalized coordinates whatever the descriptor says: the face
     * coordinates (u, v) of the cubemap table lie in [0, 1] (docs/semantics.md section 16). A
     * cubemap index not below the number of cubemaps is texture-layer-range, as a layer is.
     */
    TextureObject face(long cubemap, int face, long handle, String what) {
        long cubes = (layers & 0xFFFFFFFFL) / 6;
        if (cubemap < 0 || cubemap >= cubes) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_LAYER_RANGE, handle, what + ": cubemap " + cubemap + " of a cubemap layered object with "
                    + cubes + " cubemap(s)");
        }
        long l = cubemap * 6 + face;
        return new TextureObject(dims, base + l * slice, width, height, depth, texelBytes, pitch, slice, bits, kind, addressMode, linear,
                normalizedRead, true, gather, border, linearResource, false, 1, false);
    }

    /** The same object over other texels (a mipmap level): base, extent, row pitch and slice pitch. */
    TextureObject withTexels(long base, int width, int height, int depth, long pitch, long slice) {
        return new TextureObject(dims, base, width, height, depth, texelBytes, pitch, slice, bits, kind, addressMode, linear,
                normalizedRead, normalizedCoords, gather, border, linearResource, layered, layers, cube);
    }

    /** Extent in dimension {@code d} (0 x, 1 y, 2 z). */
    int extent(int d) { return d == 0 ? width : d == 1 ? height : depth; }

    /** Whether fetches return f32 (a float format, or normalized-float read mode), as opposed to 32-bit integers. */
    boolean returnsFloat() { return kind == FLOAT || normalizedRead; }

    /** Address of texel (i, j, k), all in range. */
    long texelAddress(int i, int j, int k) { return base + k * slice + j * pitch + (long) i * texelBytes; }

    /**
     * The four result components of texel (i, j, k) as the fetch returns them: f32 bits or 32-bit
     * integers; absent channels read 0, an absent w channel 1 (1.0f for float results).
     */
    long[] texel(Memory mem, int i, int j, int k, int thread) {
        long a = texelAddress(i, j, k);
        long[] out = new long[4];
        boolean f = returnsFloat();
        int off = 0;
        for (int c = 0; c < 4; c++) {
            int b = bits[c];
            if (b == 0) {
                out[c] = c == 3 ? (f ? Values.bits(1.0f) : 1) : 0;
                continue;
            }
            long raw = mem.load(Space.GLOBAL, a + off, b / 8, thread);
            off += b / 8;
            out[c] = channel(raw, b);
        }
        return out;
    }

    /** One channel's raw bits as the fetch returns it (docs/semantics.md: element type or normalized float). */
    private long channel(long raw, int b) {
        if (kind == FLOAT) return b == 16 ? Values.bits(Values.halfToFloat((int) raw)) : raw & 0xFFFFFFFFL;
        long v = kind == SIGNED ? (raw << (64 - b)) >> (64 - b) : raw;
        if (!normalizedRead) return v & 0xFFFFFFFFL;
        // Normalized float: unsigned v / (2^b - 1); signed max(v / (2^(b-1) - 1), -1), each one f32 division.
        float r = kind == SIGNED ? Math.max((float) v / (float) ((1L << (b - 1)) - 1), -1.0f) : (float) v / (float) ((1L << b) - 1);
        return Values.bits(r);
    }

    /**
     * Texel index {@code i} of dimension {@code d} under its address mode: the index in range, or
     * -1 when it falls on the border. Wrap and mirror repeat the texture every {@code n} (mirror:
     * every other copy reversed); clamp takes the nearest edge texel. Without normalized
     * coordinates wrap and mirror are not supported and act as clamp (CUDA Programming Guide,
     * "Texture Fetching"), whoever wrote the descriptor.
     */
    int address(int i, int d) {
        int n = extent(d);
        if (i >= 0 && i < n) return i;
        int mode = addressMode[d];
        if (!normalizedCoords && (mode == WRAP || mode == MIRROR)) mode = CLAMP;
        return switch (mode) {
            case WRAP -> Math.floorMod(i, n);
            case MIRROR -> {
                int m = Math.floorMod(i, 2 * n);
                yield m < n ? m : 2 * n - 1 - m;
            }
            case BORDER -> -1;
            default -> i < 0 ? 0 : n - 1;
        };
    }

    /** The border color as a fetch of this object returns it (f32 bits, or truncated to integers). */
    long[] borderTexel() {
        long[] out = new long[4];
        for (int c = 0; c < 4; c++) out[c] = returnsFloat() ? Values.bits(border[c]) : ((long) (int) border[c]) & 0xFFFFFFFFL;
        return out;
    }
}
