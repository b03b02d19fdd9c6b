package io.barrierscope.runtime;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * How `barrierscope exec` runs every launch: as `run` does (policy, seed, step budget, race
 * detection), where launch bundles go ({@code bundleDir}; every launch's when {@code bundleAll},
 * else a failed one's), which kernels get them ({@code kernels}, null: all) and what follows a
 * failed launch ({@code onFailure}).
 */
public record LaunchOptions(String policy, long seed, long maxSteps, boolean race, Path bundleDir, boolean bundleAll,
                            Pattern kernels, OnFailure onFailure) {
    /**
     * What follows a failed launch: the program goes on with the error (CONTINUE), is stopped
     * (ABORT), or waits while the window shows the launch's bundle, then goes on (GUI).
     */
    public enum OnFailure { CONTINUE, ABORT, GUI }

    public static final long DEFAULT_MAX_STEPS = 50_000_000L;
    /** Where failed launches' bundles go unless --bundle-all names a folder. */
    public static final Path DEFAULT_BUNDLE_DIR = Path.of("barrierscope-bundles");

    public static LaunchOptions defaults() {
        return new LaunchOptions("round-robin", 0, DEFAULT_MAX_STEPS, true, DEFAULT_BUNDLE_DIR, false, null, OnFailure.CONTINUE);
    }

    public LaunchOptions withBundles(Path dir, boolean all) {
        return new LaunchOptions(policy, seed, maxSteps, race, dir, all, kernels, onFailure);
    }

    /** Whether a launch of {@code kernel} (its mangled or plain name) gets a bundle, failed or not. */
    boolean bundles(String kernel, boolean failed) {
        if (bundleDir == null) return false;
        if (kernels != null && !kernels.matcher(kernel).find()) return false;
        return failed || bundleAll;
    }
}
