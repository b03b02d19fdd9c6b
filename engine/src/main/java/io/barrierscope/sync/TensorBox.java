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
