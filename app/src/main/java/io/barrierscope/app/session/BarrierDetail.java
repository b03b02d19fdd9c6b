package io.barrierscope.app.session;

import java.util.List;
import java.util.Set;

/**
 * The selected barrier's roster, history and waiters, captured on the engine thread.
 *
 * @param key         which barrier
 * @param title       e.g. "bar 0 of CTA (0,0,0) · generation 2" or "full+8 (shared 0x18) · phase 3"
 * @param summary     what the roster means, e.g. "1 of 3 arrivals pending this phase"
 * @param arrived     who arrived in the current generation/phase, one entry per warp or arrive-on
 * @param missing     who has not: for a CTA barrier the live warps that did not arrive (exact);
 *                    for an mbarrier the threads of the CTA that have not arrived this phase;
 *                    for a cluster barrier the live threads of the cluster, by CTA and warp (exact)
 * @param tx          expect-tx and complete-tx of the current phase with their bytes (mbarriers)
 * @param history     the completions so far, oldest first
 * @param waiterLines PTX lines (1-based) where threads wait on it now
 * @param waiterWarps global warp numbers of those threads (timeline lanes)
 * @param arrivedWho  who each entry of {@code arrived}, then of {@code tx}, names (may be shorter: the rest name nobody)
 * @param missingWho  who each entry of {@code missing} names (likewise)
 */
public record BarrierDetail(BarrierKey key, String title, String summary, List<String> arrived,
                            List<String> missing, List<String> tx, List<Completion> history,
                            Set<Integer> waiterLines, Set<Integer> waiterWarps, List<Who> arrivedWho, List<Who> missingWho) {

    /** A detail whose roster entries name nobody a click could select (tests). */
    public BarrierDetail(BarrierKey key, String title, String summary, List<String> arrived, List<String> missing,
                         List<String> tx, List<Completion> history, Set<Integer> waiterLines, Set<Integer> waiterWarps) {
        this(key, title, summary, arrived, missing, tx, history, waiterLines, waiterWarps, List.of(), List.of());
    }

    public BarrierDetail {
        arrivedWho = List.copyOf(arrivedWho);
        missingWho = List.copyOf(missingWho);
        arrived = List.copyOf(arrived);
        missing = List.copyOf(missing);
        tx = List.copyOf(tx);
        history = List.copyOf(history);
        waiterLines = Set.copyOf(waiterLines);
        waiterWarps = Set.copyOf(waiterWarps);
    }

    /**
     * The warp or thread a roster entry names, to select it everywhere.
     *
     * @param warp the global warp, -1 for none
     * @param slot the thread (its first one, for a range), -1 for the whole warp
     */
    public record Who(int warp, int slot) {
        public static final Who NOBODY = new Who(-1, -1);

        public static Who warp(int warp) { return new Who(warp, -1); }

        public static Who thread(int slot) { return slot < 0 ? NOBODY : new Who(slot >> 5, slot); }

        public boolean named() { return warp >= 0; }
    }

    /**
     * One completed generation or phase.
     *
     * @param number the generation or phase completed
     * @param step   the position right after it completed (warp steps executed), to seek to
     * @param text   e.g. "phase 0 completed at step 41"
     */
    public record Completion(long number, long step, String text) {
        @Override public String toString() { return text; }
    }
}
