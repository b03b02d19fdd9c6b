package io.barrierscope.launch;

import java.util.List;

/**
 * A tensor map argument of a launch file: the buffer it describes, its dimensions (elements,
 * dimension 0 innermost), the byte strides of dimensions 1.. (default: packed) and the box a
 * tensor copy moves, and the shared-memory swizzle (0 for none, else 32, 64 or 128 bytes). The
 * kernel receives it as a 128-byte parameter.
 */
public record TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box, int swizzle) {
    /** A map without swizzle. */
    public TensorMapSpec(String buffer, List<Long> dims, List<Long> strides, List<Integer> box) {
        this(buffer, dims, strides, box, 0);
    }
}
