package io.barrierscope.sync;

/**
 * The box a cp.async.bulk.tensor copies: the tensor map read at issue and the box's first
 * coordinates; in im2col mode also the im2col offsets (one per spatial dimension, W first), else null.
 */
public record TensorCopy(TensorMap map, long[] coords, int[] offsets) {
    /** A tile-mode copy. */
    public TensorCopy(TensorMap map, long[] coords) {
        this(map, coords, null);
    }
}
