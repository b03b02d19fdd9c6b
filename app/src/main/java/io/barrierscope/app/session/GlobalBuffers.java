package io.barrierscope.app.session;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * The launch's global buffers at one step, by name, decoded by their element type; copied out of the
 * engine on its thread (each buffer's first {@link GlobalMemoryCapture#LIMIT} elements).
 *
 * @param step    the state shown: after this many warp steps
 * @param buffers in launch-file order
 */
public record GlobalBuffers(long step, List<Buffer> buffers) {
    /**
     * @param elements every element the buffer has; {@code values} may hold fewer (the first ones)
     */
    public record Buffer(String name, ScalarType type, long base, long elements, List<Number> values) {}

    /** The buffer of that name, or null. */
    public Buffer buffer(String name) {
        for (Buffer b : buffers) if (b.name().equals(name)) return b;
        return null;
    }
}
