package io.barrierscope.explore;

import java.util.HashMap;
import java.util.Map;

/**
 * The partial-order reduction that stays sound under the deviation bound ({@code --bounded-por};
 * docs/explore.md, "Within a bound"). Source sets and sleep sets let a skipped schedule stand for
 * an explored equivalent that may need more non-default decisions than the bound allows (Coons,
 * Musuvathi, McKinley, <em>Bounded partial-order reduction</em>, OOPSLA 2013). This rule only
 * skips a fork whose every continuation is equivalent to the run it forks from, which is explored
 * at the same depth, so the equivalent never costs a deviation more:
 *
 * <p>A warp decision {@code p} of an enumerating run R is not forked when, from the step after it
 * to R's end, (a) no two logged steps of different warps are dependent ({@link StepFootprints}),
 * (b) no step changed another warp's runnability, and (c) R offered no alternative of another kind
 * (convergence group, copy latency, early try_wait) at {@code p} or later. Then every schedule that
 * takes R's decisions up to {@code p} and anything from there runs each warp through the same steps
 * as R (a warp's step depends only on its own state and on words no other warp touches from there
 * on), in an order that only swaps independent steps: it is equivalent to R. A run that stopped
 * early logs each warp still able to run as dependent with everything ({@link TraceLog#pending}),
 * so (a) fails before it. Every other decision forks all its alternatives (less symmetric warps),
 * with no sleep set: within the bound nothing else is skipped.
 */
final class BoundedPartialOrder {
    private BoundedPartialOrder() {}

    /** No step of the log interacts with another warp's. */
    static final long NONE = Long.MIN_VALUE;

    /**
     * The step number of the last entry of {@code t} that interacts with a later entry of another
     * warp (dependent with it, or dependent with everything while another warp steps later) or
     * changes another warp's runnability; {@link #NONE} when there is none. A decision taken after
     * that step (at a larger step number) has an independent remainder.
     */
    static long lastInteraction(TraceLog t) {
        Map<Long, Integer> accessor = new HashMap<>(); // key -> its only warp in the suffix, or MANY
        Map<Long, Integer> writer = new HashMap<>();
        int onlyWarp = -1; // the suffix's only warp, or MANY
        int allWarp = -1; // the only warp with a step dependent with everything, or MANY
        for (int i = t.n - 1; i >= 0; i--) {
            int w = t.warp[i];
            StepFootprints.Footprint f = t.fp[i];
            if (changesOthers(t.enables[i], w) || interacts(w, f, onlyWarp, allWarp, accessor, writer)) return t.step[i];
            onlyWarp = merge(onlyWarp, w);
            if (f.all()) allWarp = merge(allWarp, w);
            for (long k : f.keys()) {
                accessor.merge(k >>> 1, w, BoundedPartialOrder::merge);
                if ((k & 1) != 0) writer.merge(k >>> 1, w, BoundedPartialOrder::merge);
            }
        }
        return NONE;
    }

    /**
     * Whether warp decision {@code idx}, taken at step {@code step}, is left unforked: its remainder
     * is independent ({@code step} past {@code lastInteraction}) and no alternative of another kind
     * comes at it or later ({@code lastOtherKind}: the last such decision's index, -1 none).
     */
    static boolean skips(long idx, long step, long lastInteraction, long lastOtherKind) {
        return step > lastInteraction && idx > lastOtherKind;
    }

    private static final int MANY = -2;

    private static int merge(int a, int b) { return a == -1 || a == b ? b : MANY; }

    private static boolean other(int seen, int w) { return seen == MANY || (seen >= 0 && seen != w); }

    private static boolean changesOthers(long[] enables, int w) {
        if (enables == null) return false;
        for (int v = WarpBits.next(enables, 0); v >= 0; v = WarpBits.next(enables, v + 1)) if (v != w) return true;
        return false;
    }

    private static boolean interacts(int w, StepFootprints.Footprint f, int onlyWarp, int allWarp, Map<Long, Integer> accessor,
                                     Map<Long, Integer> writer) {
        if (f.all()) return other(onlyWarp, w);
        if (other(allWarp, w)) return true;
        for (long k : f.keys()) {
            Integer seen = (k & 1) != 0 ? accessor.get(k >>> 1) : writer.get(k >>> 1);
            if (seen != null && other(seen, w)) return true;
        }
        return false;
    }
}
