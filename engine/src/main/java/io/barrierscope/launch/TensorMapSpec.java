package io.barrierscope.launch;

import java.util.List;

/**
 * A tensor map argument of a launch file: the buffer it describes, its dimensions (elements,
 * dimension 0 innermost), the byte strides of dimensions 1.. (default: packed) and the box a
 * tensor copy moves, and the shared-memory swizzle (0 for none, else 32, 64 or 128 bytes). The
 * kernel receives it as a 128-byte parameter. Also the traversal strides of the box (null: all 1),
 * the interleave (0 for none, 16 or 32 bytes) and the out-of-bounds fill (NaN instead of zero),
 * as cuTensorMapEncodeTiled takes them. An im2col map ({@code im2col} not null) has as box
 * [channelsPerPixel, pixelsPerColumn], as cuTensorMapEncodeIm2col takes them.
 */
public record TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box, int swizzle,
                            List<Integer> elementStrides, int interleave, boolean oobNan, Im2col im2col) {
    /**
     * The bounding box of an im2col map (PTX ISA 5.5.4.1): per spatial dimension, W first (tensor
     * dimension 1 onwards), the lower corner relative to coordinate 0 and the upper corner
     * relative to the dimension's last coordinate.
     */
    public record Im2col(List<Integer> lowerCorner, List<Integer> upperCorner) {}

    /** A tile-mode map. */
    public TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box, int swizzle,
                         List<Integer> elementStrides, int interleave, boolean oobNan) {
        this(buffer, dims, strides, box, swizzle, elementStrides, interleave, oobNan, null);
    }

    /** A map without swizzle. */
    public TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box) {
        this(buffer, dims, strides, box, 0);
    }

    /** A map with traversal strides 1, no interleave, zero fill. */
    public TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box, int swizzle) {
        this(buffer, dims, strides, box, swizzle, null, 0, false);
    }
}
