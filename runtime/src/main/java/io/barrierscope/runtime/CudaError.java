package io.barrierscope.runtime;

/**
 * The cudaError_t values the runtime returns (CUDA 13's driver_types.h), and what a failed
 * launch becomes: a deadlock or the step limit is a launch that never ends on a GPU
 * (cudaErrorLaunchTimeout), a fault an illegal address, a failed device assert cudaErrorAssert,
 * undefined behaviour or a race an unspecified launch failure (docs/runtime.md).
 */
public final class CudaError {
    public static final int SUCCESS = 0;
    public static final int INVALID_VALUE = 1;
    public static final int MEMORY_ALLOCATION = 2;
    public static final int INVALID_CONFIGURATION = 9;
    public static final int INVALID_SYMBOL = 13;
    public static final int INVALID_DEVICE_FUNCTION = 98;
    public static final int INVALID_PTX = 218;
    public static final int ILLEGAL_ADDRESS = 700;
    public static final int LAUNCH_OUT_OF_RESOURCES = 701;
    public static final int LAUNCH_TIMEOUT = 702;
    public static final int ASSERT = 710;
    public static final int LAUNCH_FAILURE = 719;
    public static final int NOT_SUPPORTED = 801;

    private CudaError() {}

    public static String name(int code) {
        return switch (code) {
            case SUCCESS -> "cudaSuccess";
            case INVALID_VALUE -> "cudaErrorInvalidValue";
            case MEMORY_ALLOCATION -> "cudaErrorMemoryAllocation";
            case INVALID_CONFIGURATION -> "cudaErrorInvalidConfiguration";
            case INVALID_SYMBOL -> "cudaErrorInvalidSymbol";
            case INVALID_DEVICE_FUNCTION -> "cudaErrorInvalidDeviceFunction";
            case INVALID_PTX -> "cudaErrorInvalidPtx";
            case ILLEGAL_ADDRESS -> "cudaErrorIllegalAddress";
            case LAUNCH_OUT_OF_RESOURCES -> "cudaErrorLaunchOutOfResources";
            case LAUNCH_TIMEOUT -> "cudaErrorLaunchTimeout";
            case ASSERT -> "cudaErrorAssert";
            case LAUNCH_FAILURE -> "cudaErrorLaunchFailure";
            case NOT_SUPPORTED -> "cudaErrorNotSupported";
            default -> "cudaError " + code;
        };
    }
}
