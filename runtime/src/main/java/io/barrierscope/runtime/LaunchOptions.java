package io.barrierscope.runtime;

/** How `barrierscope exec` runs every launch: as `run` does (policy, seed, step budget, race detection). */
public record LaunchOptions(String policy, long seed, long maxSteps, boolean race) {
    public static final long DEFAULT_MAX_STEPS = 50_000_000L;

    public static LaunchOptions defaults() { return new LaunchOptions("round-robin", 0, DEFAULT_MAX_STEPS, true); }
}
