package io.barrierscope.app.session;

import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.BadInputException;
import java.util.List;
import java.util.Locale;

/**
 * How to launch a bare {@code .ptx} (no launch file): grid, block, optional cluster, scheduling
 * policy and seed. The defaults are the command line's for a bare PTX: one CTA of 32 threads,
 * round-robin, seed 0.
 *
 * @param cluster the cluster shape, or null for the kernel's own (or none)
 */
public record LaunchSettings(Dim3 grid, Dim3 block, Dim3 cluster, String policy, long seed) {
    /** The scheduling policies the engine knows, in the order the choosers list them. */
    public static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");
    /** The engine's limit on threads per CTA. */
    public static final int MAX_BLOCK = 1024;

    public static LaunchSettings defaults() {
        return new LaunchSettings(Dim3.ONE, new Dim3(32, 1, 1), null, "round-robin", 0);
    }

    public LaunchSettings {
        if (!POLICIES.contains(policy)) throw bad("unknown policy '" + policy + "' (expected " + String.join(", ", POLICIES) + ")");
        if (block.volume() > MAX_BLOCK) throw bad("a CTA has at most " + MAX_BLOCK + " threads; block " + block + " has " + block.volume());
    }

    /**
     * Reads the dialog's fields; each dim is written {@code 4}, {@code 4,2}, {@code 4x2x1} or
     * {@code (4,2,1)}; an empty cluster means none. Bad input throws with a message naming the field.
     */
    public static LaunchSettings parse(String grid, String block, String cluster, String policy, String seed) {
        long s;
        try {
            s = Long.parseLong(seed.trim());
        } catch (NumberFormatException e) {
            throw bad("seed: '" + seed.trim() + "' is not a whole number");
        }
        String c = cluster == null ? "" : cluster.trim();
        return new LaunchSettings(dim("grid", grid), dim("block", block), c.isEmpty() ? null : dim("cluster", c), policy, s);
    }

    /** One dim3 as the dialog takes it; missing components are 1. */
    public static Dim3 dim(String what, String text) {
        String t = text == null ? "" : text.trim().replaceAll("^\\(|\\)$", "");
        String[] parts = t.split("\\s*[,xX ]\\s*");
        if (t.isEmpty() || parts.length > 3) throw bad(what + ": expected 1 to 3 numbers such as 4 or 4,2,1, got '" + text.trim() + "'");
        int[] v = {1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw bad(what + ": '" + parts[i] + "' is not a whole number");
            }
            if (v[i] < 1) throw bad(what + ": every dimension must be at least 1");
        }
        return new Dim3(v[0], v[1], v[2]);
    }

    /** The dialog's text for a dim: {@code 4,2,1}. */
    public static String text(Dim3 d) { return d == null ? "" : d.x() + "," + d.y() + "," + d.z(); }

    /** For the status bar, e.g. "grid (1,1,1), block (32,1,1), round-robin, seed 0". */
    public String describe() {
        return "grid " + grid + ", block " + block + (cluster != null ? ", cluster " + cluster : "") + ", "
                + policy.toLowerCase(Locale.ROOT) + ", seed " + seed;
    }

    private static BadInputException bad(String message) { return new BadInputException("launch settings: " + message); }
}
