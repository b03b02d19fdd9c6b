package io.barrierscope.launch;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * One kernel argument of a launch file: a global buffer (name, element type, count, initial
 * contents) or a scalar value.
 */
public record ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value,
                      TensorMapSpec tensorMap) {
    public ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value) {
        this(buffer, type, count, init, data, value, null);
    }

    public boolean isBuffer() { return buffer != null && tensorMap == null; }

    public boolean isTensorMap() { return tensorMap != null; }
}
