package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The wgmma shared-memory matrix descriptor (PTX ISA 9.7.15.5.1): its bit fields, and the address
 * of every element in each canonical layout, against references written here from the ISA's
 * pictures: a swizzled tile as TMA stores it (rows of W bytes, 16-byte chunk c of 128-byte line l
 * moved to c ^ (l mod W/16)), and an unswizzled one as a sequence of 8x16-byte core matrices.
 */
class MatrixDescriptorTest {

    @Test
    void decodesEveryField() {
        long bits = (0x0040L) | (0x0001L << 16) | (0x0040L << 32) | (5L << 49) | (1L << 62) | (1L << 14) | (3L << 46);
        MatrixDescriptor d = MatrixDescriptor.decode(bits);
        assertEquals(0x400, d.startAddress());
        assertEquals(16, d.leadingByteOffset());
        assertEquals(1024, d.strideByteOffset());
        assertEquals(5, d.baseOffset());
        assertEquals(128, d.swizzleBytes());
        assertEquals(64, MatrixDescriptor.decode(2L << 62).swizzleBytes());
        assertEquals(32, MatrixDescriptor.decode(3L << 62).swizzleBytes());
        assertEquals(0, MatrixDescriptor.decode(0).swizzleBytes());
        assertEquals(0x3FFF0, MatrixDescriptor.decode(0x3FFF).startAddress(), "14 bits, the 4 low bits implied");
        long again = MatrixDescriptor.encode(0x400, 16, 1024, 5, 128);
        assertEquals(bits & ~((1L << 14) | (3L << 46)), again);
    }

    /**
     * Byte address of byte colByte of row {@code row} of a tile TMA stored at base (1024-aligned) with
     * rows of w bytes and swizzle w: the 16-byte chunk index (address bits 4..) XOR the 128-byte
     * line index (bits 7..) modulo w/16.
     */
    private static long tmaPlaced(long base, int row, int colByte, int w) {
        long linear = base + (long) row * w + colByte;
        long line = linear / 128;
        long chunk = (linear / 16) % 8;
        long swapped = chunk ^ (line % (w / 16));
        return linear - chunk * 16 + swapped * 16;
    }

    @Test
    void kMajorSwizzledTileIsReadAsTmaStoredIt() {
        for (int w : new int[] {32, 64, 128}) {
            long base = 0x2000;
            MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base, 16, 8L * w, 0, w));
            int cols = w / 2;
            for (int r = 0; r < 64; r++) {
                for (int c = 0; c < cols; c++) {
                    assertEquals(tmaPlaced(base, r, 2 * c, w), d.address(r, c, 2, true), w + "B swizzle, element " + r + "," + c);
                }
            }
        }
    }

    @Test
    void kMajorSwizzledStartAdvancedAlongKReadsTheNextSlice() {
        long base = 0x4000;
        for (int slice = 0; slice < 4; slice++) {
            MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base + 32L * slice, 16, 1024, 0, 128));
            for (int r = 0; r < 64; r++) {
                for (int c = 0; c < 16; c++) {
                    assertEquals(tmaPlaced(base, r, 2 * (16 * slice + c), 128), d.address(r, c, 2, true));
                }
            }
        }
    }

    @Test
    void kMajorSwizzledWorksForEveryElementSize() {
        long base = 0x1000;
        MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base, 16, 1024, 0, 128));
        for (int e : new int[] {1, 4}) {
            for (int r = 0; r < 16; r++) {
                for (int c = 0; c < 128 / e; c++) assertEquals(tmaPlaced(base, r, c * e, 128), d.address(r, c, e, true));
            }
        }
    }

    @Test
    void mnMajorSwizzledTileIsReadAsTmaStoredIt() {
        for (int w : new int[] {32, 64, 128}) {
            long base = 0x8000;
            int perRow = w / 2;
            long lbo = 8L * w * 4; // column blocks along MN, each 4 atoms (32 k rows) deep
            MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base, lbo, 8L * w, 0, w));
            for (int mn = 0; mn < 2 * perRow; mn++) {
                for (int k = 0; k < 32; k++) {
                    long block = base + (mn / perRow) * lbo;
                    assertEquals(tmaPlaced(block, k, 2 * (mn % perRow), w), d.address(mn, k, 2, false), w + "B, " + mn + "," + k);
                }
            }
        }
    }

    @Test
    void unswizzledKMajorIsASequenceOfCoreMatrices() {
        // Core matrices of 8 rows x 16 bytes, stored one after another: (mn block i, k block j) at i*SBO + j*LBO.
        long base = 0x600;
        long lbo = 128;
        long sbo = 256;
        MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base, lbo, sbo, 0, 0));
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 2; j++) {
                long core = base + i * sbo + j * lbo;
                for (int row = 0; row < 8; row++) {
                    for (int e = 0; e < 8; e++) assertEquals(core + row * 16L + e * 2L, d.address(8 * i + row, 8 * j + e, 2, true));
                }
            }
        }
    }

    @Test
    void unswizzledMnMajorIsASequenceOfCoreMatrices() {
        // Transposed core matrices: each 16-byte row runs along MN, its 8 rows along K; SBO steps MN, LBO steps K.
        long base = 0x800;
        long lbo = 1024;
        long sbo = 128;
        MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(base, lbo, sbo, 0, 0));
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 2; j++) {
                long core = base + i * sbo + j * lbo;
                for (int krow = 0; krow < 8; krow++) {
                    for (int e = 0; e < 8; e++) assertEquals(core + krow * 16L + e * 2L, d.address(8 * i + e, 8 * j + krow, 2, false));
                }
            }
        }
    }

    @Test
    void baseOffsetGivesThePhaseOfAStartOffThePatternBoundary() {
        // A tile starting 3 lines into a 1024-byte pattern: with base offset (start >> 7) & 7 = 3 the
        // lines swizzle as their absolute addresses do (what TMA wrote there).
        long pattern = 0x3000;
        long start = pattern + 3 * 128;
        MatrixDescriptor d = MatrixDescriptor.decode(MatrixDescriptor.encode(start, 16, 1024, 3, 128));
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 64; c++) {
                long linear = start + r * 128L + 2L * c;
                long absolute = linear ^ (((linear >> 7) & 7) << 4);
                assertEquals(absolute, d.address(r, c, 2, true));
            }
        }
        MatrixDescriptor zero = MatrixDescriptor.decode(MatrixDescriptor.encode(start, 16, 1024, 0, 128));
        assertEquals(start + 16, zero.address(1, 0, 2, true) - 128 + 0, "base offset 0 counts lines from the start: line 1 swaps chunk 0 with 1");
    }
}
