package io.barrierscope.trace;

import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoints of a session, within a memory budget. When the budget is exceeded the store
 * thins them so that their spacing grows with the distance from the focus (where the user is
 * looking): dense nearby, exponentially sparser far away, as rr does. The checkpoint at step 0
 * is never dropped, so every step stays reachable.
 */
public final class CheckpointStore {
    private final TreeMap<Long, Checkpoint> byStep = new TreeMap<>();
    private final long budgetBytes;
    private long bytes;
    private long focus;

    private java.util.function.Consumer<Checkpoint> onDrop;

    public CheckpointStore(long budgetBytes) { this.budgetBytes = budgetBytes; }

    /** Told of each checkpoint the budget drops, before it is gone (a session hashes owed ones then). */
    public void onDrop(java.util.function.Consumer<Checkpoint> f) { onDrop = f; }

    /** The checkpoint taken at exactly {@code step}, or null. */
    public Checkpoint at(long step) { return byStep.get(step); }

    public void focus(long step) { focus = step; }

    public boolean has(long step) { return byStep.containsKey(step); }

    public void add(Checkpoint c) {
        Checkpoint old = byStep.put(c.step(), c);
        if (old != null) bytes -= old.bytes();
        bytes += c.bytes();
        while (bytes > budgetBytes && byStep.size() > 2) thinOne();
    }

    /** The latest checkpoint at or before {@code step}. */
    public Checkpoint floor(long step) {
        Map.Entry<Long, Checkpoint> e = byStep.floorEntry(step);
        return e == null ? null : e.getValue();
    }

    public int size() { return byStep.size(); }

    public long bytes() { return bytes; }

    /** Drops the checkpoint whose loss widens the gap least relative to its distance from the focus. */
    private void thinOne() {
        Long victim = null;
        double best = Double.MAX_VALUE;
        Long prev = null;
        for (Long s : byStep.keySet()) {
            if (prev != null && s != 0) {
                Long next = byStep.higherKey(s);
                long gap = (next == null ? s : next) - prev;
                double score = (double) gap / (Math.abs(s - focus) + 1024);
                if (next != null && score < best) {
                    best = score;
                    victim = s;
                }
            }
            prev = s;
        }
        if (victim == null) victim = byStep.lastKey();
        Checkpoint gone = byStep.remove(victim);
        bytes -= gone.bytes();
        if (onDrop != null) onDrop.accept(gone);
    }
}
