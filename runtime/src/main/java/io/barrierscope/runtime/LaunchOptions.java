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
        if (!Boolean.TRUE.equals(kernelMatches(kernel))) return false;
        return failed || bundleAll;
    }

    /** Character reads one --kernel match may take: hundreds of times what a pattern needs on a name of a few KB. */
    static final long MATCH_BUDGET = 1_000_000;

    /**
     * Whether {@code kernel} matches --kernel (true with no pattern); null when the match took more
     * than {@link #MATCH_BUDGET} character reads. A pattern with nested repetition such as
     * {@code (a|a)*$} backtracks exponentially in the name's length, and it was matched on the
     * thread serving the program's launches: the program hung at its first launch.
     */
    Boolean kernelMatches(String kernel) {
        if (kernels == null) return true;
        try {
            return kernels.matcher(new Budgeted(kernel, MATCH_BUDGET)).find();
        } catch (Budgeted.Spent e) {
            return null;
        }
    }

    /** A name whose characters may be read a bounded number of times, then throws {@link Spent}. */
    private static final class Budgeted implements CharSequence {
        static final class Spent extends RuntimeException {
            Spent() { super(null, null, false, false); }
        }

        private final String s;
        private final long[] left;

        Budgeted(String s, long budget) { this(s, new long[] {budget}); }

        private Budgeted(String s, long[] left) {
            this.s = s;
            this.left = left;
        }

        @Override public int length() { return s.length(); }

        @Override
        public char charAt(int i) {
            if (--left[0] < 0) throw new Spent();
            return s.charAt(i);
        }

        @Override public CharSequence subSequence(int a, int b) { return new Budgeted(s.substring(a, b), left); }

        @Override public String toString() { return s; }
    }
}
