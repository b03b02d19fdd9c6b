package io.barrierscope.launch;

import java.util.List;

/**
 * A by-value struct parameter of a launch file ({@code .param .align A .b8 name[N]}): {@code bytes}
 * (N, or null: the parameter's size), the initial bytes (null: zeros) and fields written over them
 * at byte offsets. What a CuTe/CUTLASS kernel's one big parameter needs, and how a launch bundle
 * of `barrierscope exec` carries every parameter exactly.
 */
public record StructSpec(Integer bytes, byte[] initial, List<Field> fields) {
    /** One field: a scalar value, a buffer's address plus a byte offset, or a tensor map (128 bytes). */
    public record Field(long offset, io.barrierscope.ptx.ScalarType type, Number value, String pointer, long plus,
                        TensorMapSpec tensorMap) {
        public int size() { return tensorMap != null ? io.barrierscope.sync.TensorMap.BYTES : pointer != null ? 8 : type.bytes(); }
    }
}
