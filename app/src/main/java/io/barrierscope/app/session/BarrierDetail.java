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
 */
public record BarrierDetail(BarrierKey key, String title, String summary, List<String> arrived,
                            List<String> missing, List<String> tx, List<Completion> history,
                            Set<Integer> waiterLines, Set<Integer> waiterWarps) {

    public BarrierDetail {
        arrived = List.copyOf(arrived);
        missing = List.copyOf(missing);
        tx = List.copyOf(tx);
        history = List.copyOf(history);
        waiterLines = Set.copyOf(waiterLines);
        waiterWarps = Set.copyOf(waiterWarps);
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
