package io.barrierscope.sync;

/** The box a cp.async.bulk.tensor copies: the tensor map read at issue and the box's first coordinates. */
public record TensorCopy(TensorMap map, long[] coords) {}
