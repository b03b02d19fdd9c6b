package io.barrierscope.exec;

import java.util.List;

/**
 * The device runtime's functions the engine itself provides to a {@code call} of an
 * {@code .extern .func} (printf, assert, the device heap, a conditional graph node's setter):
 * what nvlink would take from libcudadevrt, so linking relocatable device code
 * (docs/runtime.md) leaves them unresolved on purpose.
 */
public final class DeviceBuiltins {
    /** What nvcc emits for __nv_aligned_device_malloc(size, align). */
    static final String ALIGNED_MALLOC = "__cuda_syscall_aligned_malloc";
    public static final List<String> NAMES = List.of("vprintf", "__assertfail", "malloc", "free", ALIGNED_MALLOC,
            GraphConditional.FUNCTION);

    private DeviceBuiltins() {}
}
