package io.barrierscope.sync;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Memory;
import io.barrierscope.exec.MemoryModelHook;
import io.barrierscope.exec.Space;
import java.util.List;

/**
 * A tile-mode tensor box copied into shared memory by array copies instead of element by element:
 * a box row (dimension 0) is contiguous in global memory, and the swizzle only permutes 16-byte
 * chunks (see {@link TensorMap#swizzled}), so each piece of a row that stays inside one 16-byte
 * chunk of the destination is contiguous on both sides. Rows with elements outside the tensor are
 * copied element by element (those elements take the map's fill). The result is the element
 * loop's: the same bytes, one effect and one write per element, and the race detector told of
 * the same accesses in the same order (per element: the global read if inside, then the shared
 * write). Used only when that loop is sure to succeed; otherwise it changes nothing and the loop
 * runs (and faults where it faults).
 */
final class TensorBoxCopy {
    private TensorBoxCopy() {}

    /** Bytes as 8-byte words (any alignment; the byte order is irrelevant to a copy). */
    private static final java.lang.invoke.VarHandle I64 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** Copies the box of {@code op} to shared address {@code dst}; false, having changed nothing, if the element loop must. */
    static boolean copy(Machine m, AsyncOperation op, long dst) {
        TensorMap tm = op.tensor().map();
        if (tm.im2col() != null || tm.interleave() != 0) return false;
        Memory mem = m.memory;
        int s = op.slot();
        int e = tm.elementSize();
        int cta = m.ctaOfSlot(s);
        long off = dst;
        if (dst > Space.CTA_OFFSET_MASK) {
            long r = (dst >>> Space.CLUSTER_RANK_SHIFT) - 1;
            int[] members = mem.clusterMembers[cta];
            if (r < 0 || r >= members.length) return false;
            cta = members[(int) r];
            if (mem.ctaExited[cta]) return false;
            off = dst & Space.CTA_OFFSET_MASK;
        }
        long bytes = tm.boxBytes();
        byte[] sh = mem.shared[cta];
        // The swizzle keeps every byte inside its 128-byte line, so the lines the box touches bound where it lands.
        long lo = tm.swizzle() == 0 ? off : off & ~127L;
        long hi = tm.swizzle() == 0 ? off + bytes - 1 : (off + bytes - 1) | 127L;
        if ((off & (e - 1)) != 0 || lo < 0 || hi >= sh.length) return false;
        if (mem.validMbarriers > 0 && mem.mbarrierWords[cta] != null) {
            byte[] words = mem.mbarrierWords[cta];
            for (long w = lo >> 3; w <= hi >> 3; w++) if (words[(int) w] != 0) return false;
        }
        int rank = tm.rank();
        int rowElems = tm.boxElements(0);
        int rows = (int) (bytes / e / rowElems);
        long[] start = op.tensor().coords();
        long[] dims = tm.dims();
        // Inside elements of every row: k in [kLo, kHi) along dimension 0.
        int kLo = (int) Math.max(0, Math.min(rowElems, -start[0]));
        int kHi = (int) Math.max(kLo, Math.min(rowElems, dims[0] - start[0]));
        List<GlobalMemory.Segment> segments = mem.global.segments();
        int[] rowSegment = new int[rows]; // -1: the whole row is outside the tensor
        int[] rowOffset = new int[rows];  // the segment offset of the row's element 0 (may lie before the segment when kLo > 0)
        int[] j = new int[rank];
        int seg = 0;
        for (int r = 0; r < rows; r++) {
            boolean inside = kLo < kHi;
            long addr = tm.base() + start[0] * e;
            for (int i = 1; i < rank; i++) {
                long ci = start[i] + (long) j[i] * tm.traversalStride(i);
                inside &= ci >= 0 && ci < dims[i];
                addr += ci * tm.strides()[i - 1];
            }
            rowSegment[r] = -1;
            if (inside) {
                if ((addr & (e - 1)) != 0) return false;
                long first = addr + (long) kLo * e;
                long end = addr + (long) kHi * e;
                GlobalMemory.Segment g = segments.get(seg);
                if (first < g.base() || end > g.end()) {
                    seg = -1;
                    for (int i = 0; i < segments.size(); i++) {
                        g = segments.get(i);
                        if (first >= g.base() && end <= g.end()) {
                            seg = i;
                            break;
                        }
                    }
                    if (seg < 0) return false;
                }
                rowSegment[r] = seg;
                rowOffset[r] = (int) (addr - g.base());
            }
            for (int i = 1; i < rank && ++j[i] == tm.boxElements(i); i++) j[i] = 0;
        }
        MemoryModelHook race = mem.race; // what the element loop's loads and stores tell
        long fill = tm.oobValue();
        int rowBytes = rowElems * e;
        boolean full = kLo == 0 && kHi == rowElems;
        for (int r = 0; r < rows; r++) {
            long rb = (long) r * rowBytes;
            int sg = rowSegment[r];
            byte[] src = sg >= 0 ? segments.get(sg).data() : null;
            if (race != null) {
                for (int k = 0; k < rowElems; k++) {
                    if (sg >= 0 && k >= kLo && k < kHi) race.access(mem.shared.length + sg, rowOffset[r] + k * e, e, s, false);
                    race.access(cta, (int) tm.swizzled(off, rb + (long) k * e), e, s, true);
                }
            }
            if (sg >= 0 && full) {
                for (int p = 0; p < rowBytes; ) {
                    long a = off + rb + p;
                    int n = tm.swizzle() == 0 ? rowBytes - p : Math.min(rowBytes - p, 16 - (int) (a & 15));
                    int from = rowOffset[r] + p;
                    int to = (int) tm.swizzled(off, rb + p);
                    if (n == 16) { // a whole swizzle chunk: two words, cheaper than arraycopy's call at this size
                        I64.set(sh, to, (long) I64.get(src, from));
                        I64.set(sh, to + 8, (long) I64.get(src, from + 8));
                    } else {
                        System.arraycopy(src, from, sh, to, n);
                    }
                    p += n;
                }
            } else {
                for (int k = 0; k < rowElems; k++) {
                    int d = (int) tm.swizzled(off, rb + (long) k * e);
                    if (sg >= 0 && k >= kLo && k < kHi) System.arraycopy(src, rowOffset[r] + k * e, sh, d, e);
                    else put(sh, d, e, fill);
                }
            }
        }
        long count = bytes / e;
        mem.effects[s] += count;
        mem.writes += count;
        return true;
    }

    /** The fill value's low {@code e} bytes, little-endian, at {@code d}. */
    private static void put(byte[] sh, int d, int e, long v) {
        for (int b = 0; b < e; b++) sh[d + b] = (byte) (v >>> (8 * b));
    }
}
