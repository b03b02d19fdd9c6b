package io.barrierscope.sync;

/**
 * The elements of one box of a tensor map in shared-memory order (dimension 0 fastest): for each,
 * its index in the dense box and its global address, or -1 when its coordinates fall outside the
 * tensor (PTX ISA 5.5, tensor bounding box and traversal stride: dimension i visits
 * {@code start[i] + k * stride[i]} for k below ceil(box[i] / stride[i])).
 */
final class TensorBox {
    private TensorBox() {}

    interface Visitor {
        void element(long index, long address);
    }

    /** The elements of the box a copy moves, in either mode. */
    static void forEach(TensorCopy c, Visitor v) {
        if (c.map().im2col() != null) im2col(c.map(), c.coords(), c.offsets(), v);
        else forEach(c.map(), c.coords(), v);
    }

    /**
     * An im2col box (PTX ISA 5.5.4): pixelsPerColumn pixels of channelsPerPixel channels each,
     * channels fastest. The channel coordinate starts at {@code start[0]}; the pixels start at the
     * filter base {@code start[1..rank-2]} (W, H, D) of image {@code start[rank-1]} and walk the
     * bounding box W first, each spatial step the dimension's traversal stride (5.5.4.2): past the
     * box's upper corner a dimension wraps to its lower corner and the next one steps; past the
     * outermost spatial dimension the image (N) steps by one. Each pixel is read at its walk
     * position plus the im2col offsets; outside the tensor, or past the last image (5.5.4.3), it
     * reads as the fill.
     */
    static void im2col(TensorMap tm, long[] start, int[] offsets, Visitor v) {
        int rank = tm.rank();
        int sp = rank - 2;
        int e = tm.elementSize();
        long[] dims = tm.dims();
        long[] pos = new long[sp];
        for (int j = 0; j < sp; j++) pos[j] = start[j + 1];
        long n = start[rank - 1];
        int cpp = tm.channelsPerPixel();
        long index = 0;
        for (int p = 0; p < tm.pixelsPerColumn(); p++) {
            boolean inside = n >= 0 && n < dims[rank - 1];
            long addr = tm.base() + n * tm.strides()[rank - 2];
            for (int j = 0; j < sp; j++) {
                long cj = pos[j] + offsets[j];
                inside &= cj >= 0 && cj < dims[j + 1];
                addr += cj * tm.strides()[j];
            }
            for (int k = 0; k < cpp; k++) {
                long ch = start[0] + k;
                boolean in = inside && ch >= 0 && ch < dims[0];
                v.element(index++, in ? addr + ch * e : -1);
            }
            int j = 0;
            while (j < sp) {
                pos[j] += tm.elementStrides()[j + 1];
                if (pos[j] <= tm.boxUpper(j)) break;
                pos[j] = tm.im2col().lower()[j];
                j++;
            }
            if (j == sp) n++;
        }
    }

    static void forEach(TensorMap tm, long[] start, Visitor v) {
        int rank = tm.rank();
        int[] j = new int[rank];
        int e = tm.elementSize();
        long count = tm.boxBytes() / e;
        for (long n = 0; n < count; n++) {
            long addr = tm.base();
            boolean inside = true;
            for (int i = 0; i < rank; i++) {
                long ci = start[i] + (long) j[i] * tm.traversalStride(i);
                inside &= ci >= 0 && ci < tm.dims()[i];
                addr += i == 0 ? ci * e : ci * tm.strides()[i - 1];
            }
            v.element(n, inside ? addr : -1);
            for (int i = 0; i < rank && ++j[i] == tm.boxElements(i); i++) j[i] = 0;
        }
    }
}
