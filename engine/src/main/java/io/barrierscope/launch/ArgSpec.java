package io.barrierscope.launch;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * One kernel argument of a launch file: a global buffer (name, element type, count, initial
 * contents) or a scalar value.
 */
public record ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value,
                      TensorMapSpec tensorMap, Extras extras) {
    /**
     * What launch bundles add: a buffer placed at a fixed device {@code address} (null: the next
     * free one) with its exact initial {@code bytes} (init "bytes"), or a struct parameter.
     */
    public record Extras(Long address, byte[] bytes, StructSpec struct) {}

    public ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value) {
        this(buffer, type, count, init, data, value, null, null);
    }

    public ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value, TensorMapSpec tensorMap) {
        this(buffer, type, count, init, data, value, tensorMap, null);
    }

    public boolean isBuffer() { return buffer != null && tensorMap == null; }

    public boolean isTensorMap() { return tensorMap != null; }

    public boolean isStruct() { return extras != null && extras.struct() != null; }

    /** The fixed device address of a buffer, or null. */
    public Long address() { return extras == null ? null : extras.address(); }
}
