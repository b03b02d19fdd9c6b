package io.barrierscope.exec;

/**
 * The 64-bit shared-memory matrix descriptor of {@code wgmma.mma_async} (PTX ISA 9.7.15.5.1,
 * "Matrix Descriptor Format"), decoded, and the byte address it gives each matrix element.
 *
 * <p>Fields: bits 0-13 start address, 16-29 leading dimension byte offset (LBO), 32-45 stride
 * dimension byte offset (SBO), each stored without its 4 low bits; bits 49-51 the matrix base
 * offset; bits 62-63 the swizzle mode (0 none, 1 128B, 2 64B, 3 32B). Other bits are ignored.
 *
 * <p>The matrix is made of core matrices of 8 rows of 16 bytes (PTX ISA 9.7.15.5.1, "Shared
 * Memory Matrix Layout"). We name the operand's two dimensions {@code mn} (M of A, N of B) and
 * {@code k}. In a K-major operand (no transpose) a row runs along K; in an MN-major operand
 * (transposed) along M or N. The canonical layouts, with T = 16 / element bytes elements per
 * 16-byte row and W the swizzle width in bytes:
 * <ul>
 * <li>K-major, no swizzle: core matrices 8 (mn) x T (k); LBO steps between core matrices along
 *     K, SBO along MN.</li>
 * <li>K-major, swizzle W: rows of W bytes along K, 8 rows an atom, SBO between atoms along MN;
 *     LBO is not used (one instruction's K extent, 32 bytes, fits in a row).</li>
 * <li>MN-major, no swizzle: core matrices T (mn) x 8 (k); SBO steps between core matrices along
 *     MN, LBO along K.</li>
 * <li>MN-major, swizzle W: rows of W bytes along MN, 8 rows (k) an atom; LBO steps between
 *     W-byte column blocks along MN, SBO between atoms along K.</li>
 * </ul>
 * A swizzle of W bytes then XORs the 16-byte chunk index (address bits 4..) with the 128-byte
 * line index modulo W/16 (bits 7..), the pattern of TMA's swizzle (semantics.md section 10), so
 * what TMA stored with swizzle W is read back in order. The line index counts from the start
 * address plus the base offset: the ISA's rule is base offset = (start >> 7) & 7 when the start
 * is not on a pattern boundary, which makes this the absolute address's line.
 */
public record MatrixDescriptor(long startAddress, long leadingByteOffset, long strideByteOffset, int baseOffset, int swizzleBytes) {

    /** Decodes the descriptor's bits. */
    public static MatrixDescriptor decode(long bits) {
        long start = (bits & 0x3FFF) << 4;
        long lbo = ((bits >>> 16) & 0x3FFF) << 4;
        long sbo = ((bits >>> 32) & 0x3FFF) << 4;
        int base = (int) ((bits >>> 49) & 7);
        int swizzle = switch ((int) (bits >>> 62)) {
            case 1 -> 128;
            case 2 -> 64;
            case 3 -> 32;
            default -> 0;
        };
        return new MatrixDescriptor(start, lbo, sbo, base, swizzle);
    }

    /** Encodes a descriptor (addresses and offsets are truncated to their 4..17 bits, as the hardware keeps them). */
    public static long encode(long start, long lbo, long sbo, int baseOffset, int swizzleBytes) {
        long mode = switch (swizzleBytes) {
            case 128 -> 1;
            case 64 -> 2;
            case 32 -> 3;
            case 0 -> 0;
            default -> throw new IllegalArgumentException("swizzle of " + swizzleBytes + " bytes");
        };
        return ((start >>> 4) & 0x3FFF) | (((lbo >>> 4) & 0x3FFF) << 16) | (((sbo >>> 4) & 0x3FFF) << 32)
                | ((long) (baseOffset & 7) << 49) | (mode << 62);
    }

    /**
     * The shared-memory byte address of element ({@code mn}, {@code k}) of an operand whose
     * elements are {@code elemBytes} wide (1, 2 or 4); {@code kMajor} for a non-transposed one.
     */
    public long address(int mn, int k, int elemBytes, boolean kMajor) {
        int t = 16 / elemBytes;
        long off;
        if (kMajor) {
            off = swizzleBytes == 0
                    ? (mn / 8) * strideByteOffset + (mn % 8) * 16L + (k / t) * leadingByteOffset + (long) (k % t) * elemBytes
                    : (mn / 8) * strideByteOffset + (mn % 8) * (long) swizzleBytes + (long) k * elemBytes;
        } else {
            if (swizzleBytes == 0) {
                off = (mn / t) * strideByteOffset + (long) (mn % t) * elemBytes + (k / 8) * leadingByteOffset + (k % 8) * 16L;
            } else {
                int perRow = swizzleBytes / elemBytes;
                off = (mn / perRow) * leadingByteOffset + (long) (mn % perRow) * elemBytes + (k / 8) * strideByteOffset
                        + (k % 8) * (long) swizzleBytes;
            }
        }
        return swizzle(off);
    }

    /** Applies the swizzle to byte {@code off} past the start address. */
    long swizzle(long off) {
        long a = startAddress + off;
        if (swizzleBytes == 0) return a;
        long line = (off >> 7) + baseOffset;
        return a ^ ((line & (swizzleBytes / 16 - 1)) << 4);
    }

    @Override
    public String toString() {
        return "descriptor{start 0x" + Long.toHexString(startAddress) + ", LBO " + leadingByteOffset + ", SBO " + strideByteOffset
                + ", base offset " + baseOffset + ", swizzle " + (swizzleBytes == 0 ? "none" : swizzleBytes + "B") + "}";
    }
}
