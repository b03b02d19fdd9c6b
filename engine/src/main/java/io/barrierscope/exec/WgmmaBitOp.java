package io.barrierscope.exec;

import io.barrierscope.exec.MmaOp.Elem;

/**
 * Single-bit {@code wgmma.mma_async.sync.aligned.m64nNk256.s32.b1.b1.and.popc} (PTX ISA
 * 9.7.15.5.2): D(i, j) = popc of (row i of A AND column j of B), 256 bits each, plus D(i, j) when
 * scale-d is true, wrapping modulo 2^32 (the ISA's integer rule without {@code .satfinite}; the
 * meaning of {@code .and.popc} is mma's, 9.7.14.5.14). N is 8, 16, 24, 32, 48, ..., 256.
 *
 * <p>A comes from four registers (9.7.15.5.1.1.4: thirty-two elements each, low bit first), warp
 * r of the warpgroup holding rows 16r..16r+15 in the layout 9.7.14.5.13 gives {@code mma.m16n8k256}'s
 * A: register q, bit j is row groupID + 8 (q mod 2), column 32 threadID_in_group + j + 128 (q / 2);
 * or from a descriptor. B comes from a descriptor. Both are K-major (the ISA gives .b1 no
 * imm-trans): a row of 256 bits is 32 bytes, element k at bit k mod 8 of byte k / 8, so the
 * descriptor addresses bytes as for an 8-bit type ({@link MatrixDescriptor}).
 */
final class WgmmaBitOp extends WgmmaOp {

    WgmmaBitOp(CompileContext c, int n, Elem[] t, int[] d, Src[] aRegs, int[] aIdx, Src aDesc, Src bDesc, Src scaleD) {
        super(c, n, 256, t, false, d, aRegs, aIdx, aDesc, bDesc, scaleD, new int[] {1, 1, 0, 0});
    }

    /** The descriptor steps in bytes: 8 elements a byte. */
    @Override
    int elemBytes() { return 1; }

    /** A's (from a descriptor) and B's rows: 256 bits, four 8-byte words each. */
    @Override
    int operandWords() { return ((aRegs == null ? 64 : 0) + n) * 4; }

    /** Register q = i / 32, bit j = i mod 32 of lane l: {row within the warp's 16, column}. */
    @Override
    int[] aRowCol(int l, int i) {
        int q = i >> 5;
        return new int[] {(l >> 2) + 8 * (q & 1), 32 * (l & 3) + (i & 31) + 128 * (q >> 1)};
    }

    /**
     * As {@link WgmmaOp#compute}: A is kept as 64 rows of four 64-bit words (element k of row i
     * at bit k mod 64 of word i * 4 + k / 64), B as N columns the same way; each element of D is
     * the sum of four popcounts.
     */
    @Override
    int[][] compute(Machine m, int slot, WgmmaGroups.Part[] parts, int[][] dIn, WgmmaGroups.Reads reads) {
        long[] a = new long[64 * 4];
        if (aRegs != null) {
            for (int w = 0; w < 4; w++) {
                for (int l = 0; l < 32; l++) {
                    for (int q = 0; q < 4; q++) {
                        long v = parts[w].aIn()[l * 4 + q] & 0xFFFFFFFFL;
                        int[] rc = aRowCol(l, q * 32);
                        // the register's 32 bits are 32 consecutive columns starting at a multiple of 32
                        a[(16 * w + rc[0]) * 4 + (rc[1] >> 6)] |= v << (rc[1] & 63);
                    }
                }
            }
        } else {
            load(m, MatrixDescriptor.decode(parts[0].descA()), 64, a, reads, slot);
        }
        long[] b = new long[n * 4];
        load(m, MatrixDescriptor.decode(parts[0].descB()), n, b, reads, slot);
        int[][] out = new int[4][32 * d.length];
        for (int w = 0; w < 4; w++) {
            int[] o = out[w];
            int[] in = dIn[w];
            int keepMask = parts[w].scaleD();
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < n / 2; i++) {
                    int[] rc = dRowCol(l, i);
                    int ra = (16 * w + rc[0]) * 4;
                    int cb = rc[1] * 4;
                    int acc = (keepMask & (1 << l)) != 0 ? in[(i << 5) + l] : 0;
                    for (int q = 0; q < 4; q++) acc += Long.bitCount(a[ra + q] & b[cb + q]); // wraps modulo 2^32
                    o[(i << 5) + l] = acc;
                }
            }
        }
        return out;
    }

    /** Reads {@code rows} K-major rows of 32 bytes through {@code desc}, 8 bytes (64 elements) at a time. */
    private void load(Machine m, MatrixDescriptor desc, int rows, long[] out, WgmmaGroups.Reads reads, int slot) {
        for (int r = 0; r < rows; r++) {
            for (int q = 0; q < 4; q++) out[r * 4 + q] = reads.load8(m, desc.address(r, 8 * q, 1, true), slot);
        }
    }
}
