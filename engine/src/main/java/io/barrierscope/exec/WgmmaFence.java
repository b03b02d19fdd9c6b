package io.barrierscope.exec;

/**
 * What {@code wgmma.fence} orders (PTX ISA 9.7.15.7.1): per warp, the registers other
 * instructions named since the warp's last wgmma.fence, and where. A {@code wgmma.mma_async}
 * whose accumulator or A registers are among them was issued without the fence the ISA
 * requires between a register access and a wgmma that accesses the same registers (the first
 * wgmma of a kernel included).
 */
final class WgmmaFence {
    /** Per warp, a bit per register named since the fence (words of 64; null until the first). */
    private final long[][] touched;
    /** Per warp, per register: the pc that last named it (valid where touched). */
    private final int[][] lastPc;
    private final int regs;

    WgmmaFence(int warps, int regs) {
        this.touched = new long[warps][];
        this.lastPc = new int[warps][];
        this.regs = regs;
    }

    void touch(int warp, int[] named, int pc) {
        if (named.length == 0) return;
        long[] t = touched[warp];
        int[] last = lastPc[warp];
        if (t == null) {
            t = touched[warp] = new long[(regs + 63) >>> 6];
            last = lastPc[warp] = new int[regs];
        }
        // Every instruction but wgmma's own comes here: plain arrays, no BitSet bounds growth.
        for (int r : named) {
            t[r >>> 6] |= 1L << r;
            last[r] = pc;
        }
    }

    void fence(int warp) {
        if (touched[warp] != null) java.util.Arrays.fill(touched[warp], 0L);
    }

    /** The first of {@code op}'s accumulator and A registers named since the fence, or -1. */
    int unfenced(int warp, WgmmaOp op) {
        long[] b = touched[warp];
        if (b == null) return -1;
        for (int r : op.d) if (has(b, r)) return r;
        if (op.aIdx != null) for (int r : op.aIdx) if (r >= 0 && has(b, r)) return r;
        return -1;
    }

    private static boolean has(long[] b, int r) {
        return (b[r >>> 6] & (1L << r)) != 0;
    }

    int lastPc(int warp, int reg) { return lastPc[warp][reg]; }

    WgmmaFence copy() {
        WgmmaFence c = new WgmmaFence(touched.length, regs);
        for (int w = 0; w < touched.length; w++) {
            if (touched[w] == null) continue;
            c.touched[w] = touched[w].clone();
            c.lastPc[w] = lastPc[w].clone();
        }
        return c;
    }

    void copyFrom(WgmmaFence s) {
        for (int w = 0; w < touched.length; w++) {
            touched[w] = s.touched[w] == null ? null : s.touched[w].clone();
            lastPc[w] = s.lastPc[w] == null ? null : s.lastPc[w].clone();
        }
    }
}
