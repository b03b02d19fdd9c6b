package io.barrierscope.app.threads;

import io.barrierscope.app.session.BarrierKey;
import java.util.List;

/**
 * One row of the threads tree: a cluster, a CTA, a warp, a group of lanes that share a state, or
 * one thread. Immutable; {@code key} names the same row across snapshots so the view keeps its
 * expansion and selection.
 *
 * @param status   the thread state ({@link io.barrierscope.exec.ThreadStatus}) or -1 for a summary row
 * @param pc       the next instruction's PC, -1 when not one place
 * @param ptxLine  its PTX line, 0 when not one place
 * @param slot     the thread to inspect when the row is selected, -1 for none
 * @param barrier  the barrier its threads wait on (as the barriers pane keys it), or null
 * @param matched  the row itself matches the filter (its whole subtree is then shown)
 * @param expand   the view should open the row: a filter match lies below it
 */
public record ThreadNode(String key, Level level, String name, byte status, String state, int pc, int ptxLine,
                         String cuda, String waitsOn, int slot, BarrierKey barrier, boolean matched, boolean expand,
                         List<ThreadNode> children) {

    public enum Level { CLUSTER, CTA, WARP, GROUP, THREAD }

    /** The key of a thread's row. */
    public static String threadKey(int slot) { return "t" + slot; }

    /** The key of a warp's row (global warp number). */
    public static String warpKey(int warp) { return "w" + warp; }

    /** The global warp a row belongs to (a warp, a lane group or a thread), else -1. */
    public int warp() {
        return switch (level) {
            case WARP, GROUP -> Integer.parseInt(key.substring(1, key.indexOf(':') < 0 ? key.length() : key.indexOf(':')));
            case THREAD -> slot >> 5;
            default -> -1;
        };
    }

    ThreadNode withChildren(List<ThreadNode> kids, boolean selfMatch, boolean open) {
        return new ThreadNode(key, level, name, status, state, pc, ptxLine, cuda, waitsOn, slot, barrier, selfMatch, open, kids);
    }

    /** Everything but the children: whether a row's own cells would change. */
    public boolean sameRow(ThreadNode o) {
        return o != null && key.equals(o.key) && level == o.level && name.equals(o.name) && status == o.status
                && state.equals(o.state) && pc == o.pc && ptxLine == o.ptxLine && cuda.equals(o.cuda)
                && waitsOn.equals(o.waitsOn) && slot == o.slot && java.util.Objects.equals(barrier, o.barrier)
                && matched == o.matched && expand == o.expand;
    }

    public String ptxLineText() { return ptxLine > 0 ? String.valueOf(ptxLine) : ""; }

    public String pcText() { return pc >= 0 ? String.valueOf(pc) : ""; }
}
