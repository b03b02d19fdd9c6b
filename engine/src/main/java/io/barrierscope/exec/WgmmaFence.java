package io.barrierscope.exec;

import java.util.BitSet;

/**
 * What {@code wgmma.fence} orders (PTX ISA 9.7.15.7.1): per warp, the registers other
 * instructions named since the warp's last wgmma.fence, and where. A {@code wgmma.mma_async}
 * whose accumulator or A registers are among them was issued without the fence the ISA
 * requires between a register access and a wgmma that accesses the same registers (the first
 * wgmma of a kernel included).
 */
final class WgmmaFence {
    private final BitSet[] touched;
    /** Per warp, per register: the pc that last named it (valid where touched). */
    private final int[][] lastPc;
    private final int regs;

    WgmmaFence(int warps, int regs) {
        this.touched = new BitSet[warps];
        this.lastPc = new int[warps][];
        this.regs = regs;
    }

    void touch(int warp, int[] named, int pc) {
        if (named.length == 0) return;
        if (touched[warp] == null) {
            touched[warp] = new BitSet(regs);
            lastPc[warp] = new int[regs];
        }
        for (int r : named) {
            touched[warp].set(r);
            lastPc[warp][r] = pc;
        }
    }

    void fence(int warp) {
        if (touched[warp] != null) touched[warp].clear();
    }

    /** The first of {@code op}'s accumulator and A registers named since the fence, or -1. */
    int unfenced(int warp, WgmmaOp op) {
        BitSet b = touched[warp];
        if (b == null) return -1;
        for (int r : op.d) if (b.get(r)) return r;
        if (op.aIdx != null) for (int r : op.aIdx) if (r >= 0 && b.get(r)) return r;
        return -1;
    }

    int lastPc(int warp, int reg) { return lastPc[warp][reg]; }

    WgmmaFence copy() {
        WgmmaFence c = new WgmmaFence(touched.length, regs);
        for (int w = 0; w < touched.length; w++) {
            if (touched[w] == null) continue;
            c.touched[w] = (BitSet) touched[w].clone();
            c.lastPc[w] = lastPc[w].clone();
        }
        return c;
    }

    void copyFrom(WgmmaFence s) {
        for (int w = 0; w < touched.length; w++) {
            touched[w] = s.touched[w] == null ? null : (BitSet) s.touched[w].clone();
            lastPc[w] = s.lastPc[w] == null ? null : s.lastPc[w].clone();
        }
    }
}
