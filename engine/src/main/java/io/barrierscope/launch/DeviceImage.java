package io.barrierscope.launch;

import java.util.Map;

/**
 * The module state a launch starts from when it is not the PTX's own (a launch bundle of
 * `barrierscope exec`): where the module's {@code .global} variables are placed, and the current
 * bytes of those variables and of its {@code .const} variables, by name.
 */
public record DeviceImage(long globalBase, Map<String, byte[]> globals, Map<String, byte[]> constants) {}
