package io.barrierscope.sync;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The operations in flight, completed in order of (ready time, issue order): deterministic, and
 * reordered only through the latencies the seeded policy chose. Also each thread's open
 * cp.async group and bulk group.
 */
public final class AsyncCopyUnit {
    private final TreeSet<AsyncOperation> pending =
            new TreeSet<>(Comparator.comparingLong(AsyncOperation::readyAt).thenComparingLong(AsyncOperation::id));
    private long nextId;
    /**
     * Operations a launch may have in flight at once per thread slot (docs/reliability.md): nothing
     * in PTX bounds them, and a loop issuing copies with a long latency and no wait held them until
     * the heap ran out; past {@link #cap} an issue is the diagnostic {@code async-in-flight}.
     */
    public static final int IN_FLIGHT_PER_THREAD = 32;
    /** Heap bytes of one operation in flight: its record and destination array, and its tree node. */
    public static final long BYTES_PER_OPERATION = 160;
    /** Operations in flight at once at most: {@link #IN_FLIGHT_PER_THREAD} per thread slot of the launch. */
    public final long cap;
    /** Per thread: the number of its committed cp.async groups (the open group has this number). */
    public final long[] cpGroup;
    public final long[] bulkGroup;

    /** The unit's state for a checkpoint (opaque); operations are immutable, so they are shared, not copied. */
    public static final class Saved {
        private final AsyncOperation[] pending;
        private final long nextId;
        private final long[] cpGroup;
        private final long[] bulkGroup;

        private Saved(AsyncOperation[] pending, long nextId, long[] cpGroup, long[] bulkGroup) {
            this.pending = pending;
            this.nextId = nextId;
            this.cpGroup = cpGroup;
            this.bulkGroup = bulkGroup;
        }

        /** Approximate heap bytes (an operation shared with the live run still counts: it may outlive it). */
        public long bytes() { return 64 + 120L * pending.length + 8L * (cpGroup.length + bulkGroup.length); }
    }

    public AsyncCopyUnit(int slots) {
        cap = (long) IN_FLIGHT_PER_THREAD * slots;
        cpGroup = new long[slots];
        bulkGroup = new long[slots];
    }

    public long nextId() { return nextId++; }

    /** The id the next operation will get (the count issued so far), without taking it. */
    public long issued() { return nextId; }

    public void add(AsyncOperation op) { pending.add(op); }

    public boolean isEmpty() { return pending.isEmpty(); }

    /** Operations in flight now. */
    public int size() { return pending.size(); }

    /** Ready time of the earliest operation, or Long.MAX_VALUE. */
    public long nextReady() { return pending.isEmpty() ? Long.MAX_VALUE : pending.first().readyAt(); }

    /** Removes and returns the operations ready at {@code now}, in completion order. */
    public List<AsyncOperation> takeReady(long now) {
        List<AsyncOperation> out = new ArrayList<>();
        while (!pending.isEmpty() && pending.first().readyAt() <= now) out.add(pending.pollFirst());
        return out;
    }

    /** Everything in flight, in completion order (for explanations and the exit check). */
    public List<AsyncOperation> all() { return new ArrayList<>(pending); }

    /**
     * The operations in flight that will complete-tx on the mbarrier at shared offset
     * {@code offset} of {@code cta} (a multicast copy counts for each destination CTA), in
     * completion order: the copies that could still deliver its pending bytes.
     */
    public List<AsyncOperation> deliveringTxTo(int cta, int offset) {
        List<AsyncOperation> out = new ArrayList<>();
        for (AsyncOperation op : pending) {
            boolean tx = switch (op.kind()) {
                case BULK_TO_SHARED, REMOTE_STORE, TENSOR_TO_SHARED -> true;
                default -> false;
            };
            if (tx && op.mbarrierOffset() == offset && op.writesSharedOf(cta)) out.add(op);
        }
        return out;
    }

    public Saved save() {
        return new Saved(pending.toArray(new AsyncOperation[0]), nextId, cpGroup.clone(), bulkGroup.clone());
    }

    /** Puts back the state of {@link #save}, in place. */
    public void restore(Saved s) {
        if (s.cpGroup.length != cpGroup.length) throw new IllegalArgumentException("async state of another launch shape");
        pending.clear();
        for (AsyncOperation op : s.pending) pending.add(op);
        nextId = s.nextId;
        System.arraycopy(s.cpGroup, 0, cpGroup, 0, cpGroup.length);
        System.arraycopy(s.bulkGroup, 0, bulkGroup, 0, bulkGroup.length);
    }

    /**
     * A cp.async of the thread, still in flight in group {@code group}, whose destination bytes in
     * {@code cta} overlap {@code [dst, dst + size)}, or null.
     */
    public AsyncOperation cpAsyncOverlapping(int slot, long group, int cta, long dst, int size) {
        for (AsyncOperation o : pending) {
            if (o.slot() == slot && o.kind() == AsyncOperation.Kind.CP_ASYNC && o.group() == group && o.dstCtas()[0] == cta
                    && o.dst() < dst + size && dst < o.dst() + o.size()) return o;
        }
        return null;
    }

    /**
     * {@code ready}, or later: no earlier than any operation of {@code kind} the thread still has in
     * flight in an older group. "All async-groups committed by an executing thread always complete in
     * the order in which they were committed" (PTX ISA 9.7.9.25.1.1); within a group there is no
     * order, so the latencies of one group's operations stay as the policy drew them.
     */
    public long readyAfterOlderGroups(int slot, AsyncOperation.Kind kind, long group, long ready) {
        for (AsyncOperation o : pending) {
            if (o.slot() == slot && o.kind() == kind && o.group() < group && o.readyAt() > ready) ready = o.readyAt();
        }
        return ready;
    }

    /** The latest ready time among the thread's cp.async in flight, or -1. */
    public long lastCpAsyncReady(int slot) {
        long t = -1;
        for (AsyncOperation o : pending) if (o.slot() == slot && o.kind() == AsyncOperation.Kind.CP_ASYNC) t = Math.max(t, o.readyAt());
        return t;
    }

    /**
     * Whether {@code wait_group n} may pass: every committed group older than the thread's newest
     * {@code n} has completed (PTX ISA 9.7.9.25.3, 9.7.9.25.6: "only N or fewer of the most recent
     * ... groups are pending and all the prior ... groups ... are complete"). Counting the groups
     * in flight is not enough: copies complete out of order, so a newer group may be done while
     * an older one is still pending.
     */
    public boolean olderGroupsDone(int slot, boolean bulk, int n) {
        AsyncOperation.Kind kind = bulk ? AsyncOperation.Kind.BULK_TO_GLOBAL : AsyncOperation.Kind.CP_ASYNC;
        long newestKept = firstKeptGroup(slot, bulk, n);
        for (AsyncOperation o : pending) if (o.slot() == slot && o.kind() == kind && o.group() < newestKept) return false;
        return true;
    }

    /**
     * The number of the oldest group a {@code wait_group n} does not wait for: the newest {@code n}
     * committed groups and the open one are left pending, every group numbered below this is waited for.
     */
    public long firstKeptGroup(int slot, boolean bulk, int n) {
        return (bulk ? bulkGroup[slot] : cpGroup[slot]) - n;
    }

    /**
     * The thread's committed groups of {@code kind} still in flight, each as its age (1 for the
     * newest committed group), ascending: what decides every {@code wait_group N} it may execute,
     * which a count alone does not (copies complete out of order).
     */
    public long[] pendingGroupAges(int slot, boolean bulk) {
        AsyncOperation.Kind kind = bulk ? AsyncOperation.Kind.BULK_TO_GLOBAL : AsyncOperation.Kind.CP_ASYNC;
        long open = bulk ? bulkGroup[slot] : cpGroup[slot];
        TreeSet<Long> ages = new TreeSet<>();
        for (AsyncOperation o : pending) if (o.slot() == slot && o.kind() == kind && o.group() < open) ages.add(open - o.group());
        long[] out = new long[ages.size()];
        int i = 0;
        for (long a : ages) out[i++] = a;
        return out;
    }

    /** How many committed groups of {@code kind} the thread still has in flight. */
    public int groupsInFlight(int slot, boolean bulk) {
        return pendingGroupAges(slot, bulk).length;
    }
}
