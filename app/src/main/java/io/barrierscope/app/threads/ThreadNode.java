package io.barrierscope.app.threads;

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
 * @param matched  the row itself matches the filter (its whole subtree is then shown)
 * @param expand   the view should open the row: a filter match lies below it
 */
public record ThreadNode(String key, Level level, String name, byte status, String state, int pc, int ptxLine,
                         String cuda, String waitsOn, int slot, boolean matched, boolean expand,
                         List<ThreadNode> children) {

    public enum Level { CLUSTER, CTA, WARP, GROUP, THREAD }

    ThreadNode withChildren(List<ThreadNode> kids, boolean selfMatch, boolean open) {
        return new ThreadNode(key, level, name, status, state, pc, ptxLine, cuda, waitsOn, slot, selfMatch, open, kids);
    }

    /** Everything but the children: whether a row's own cells would change. */
    public boolean sameRow(ThreadNode o) {
        return o != null && key.equals(o.key) && level == o.level && name.equals(o.name) && status == o.status
                && state.equals(o.state) && pc == o.pc && ptxLine == o.ptxLine && cuda.equals(o.cuda)
                && waitsOn.equals(o.waitsOn) && slot == o.slot && matched == o.matched && expand == o.expand;
    }

    public String ptxLineText() { return ptxLine > 0 ? String.valueOf(ptxLine) : ""; }

    public String pcText() { return pc >= 0 ? String.valueOf(pc) : ""; }
}
