package io.barrierscope.launch;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * One kernel argument of a launch file: a global buffer (name, element type, count, initial
 * contents) or a scalar value.
 */
public record ArgSpec(String buffer, ScalarType type, long count, String init, List<Number> data, Number value) {
    public boolean isBuffer() { return buffer != null; }
}
