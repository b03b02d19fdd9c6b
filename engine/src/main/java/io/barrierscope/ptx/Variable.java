package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;

/**
 * A declared variable in an addressable state space (global, const, shared, local, param).
 * {@code count} is the number of elements (1 for a scalar, -1 for an unsized {@code extern} array);
 * {@code vector} is 1, 2 or 4 for {@code .v2}/{@code .v4}; {@code init} holds the initialiser as
 * little-endian bytes or null. {@code id} is unique within the module so scoped names never clash.
 */
public record Variable(int id, String name, StateSpace space, ScalarType type, int align, int vector,
                       long count, boolean extern, byte[] init, SourcePos pos) {
    /** Size in bytes of one element (vector included). */
    public int elementBytes() { return type.bytes() * vector; }

    /** Declared size in bytes; 0 for an unsized extern array. */
    public long sizeBytes() { return count < 0 ? 0 : count * elementBytes(); }

    /** Effective alignment: the declared one, else the element's natural alignment. */
    public int effectiveAlign() { return align > 0 ? align : elementBytes(); }
}
