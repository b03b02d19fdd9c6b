package io.barrierscope.check;

import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.MbarrierUnit;
import java.util.TreeMap;

/**
 * The race detector's async copies in flight (semantics.md section 8): each copy's view at
 * issue, kept until it completes, and the agent epoch each cp.async group and bulk group ends
 * at, which a wait_group that lets its thread go on acquires. Plain data, saved in checkpoints
 * and hashed in key order (RaceCheckpoint).
 */
final class RaceAsyncCopies {
    private final RaceDetector d;
    /** By AsyncOperation id: the copy's view at issue, until it completes. */
    final TreeMap<Long, RaceDetector.AsyncSnap> inFlight = new TreeMap<>();
    /** Key {@code agent << 32 | group}: the agent epoch its group ends at (until a wait covers it), for {@link #groupWaitPassed}. */
    final TreeMap<Long, Integer> groupEnds = new TreeMap<>();

    RaceAsyncCopies(RaceDetector d) { this.d = d; }

    /** Thread {@code op.slot()} issued {@code op}: records its view, its group's end, and starts the thread's next epoch. */
    void issue(AsyncOperation op) {
        int s = op.slot();
        int slots = d.slots;
        int[] clock = d.clock;
        int kind = switch (op.kind()) {
            case CP_ASYNC -> RaceDetector.AGENT_CP;
            case BULK_TO_GLOBAL -> RaceDetector.AGENT_BULK;
            case CP_ASYNC_ARRIVE -> -RaceDetector.AGENT_CP;
            default -> RaceDetector.AGENT_MBAR;
        };
        RaceDetector.AsyncSnap snap;
        if (kind < 0) {
            // It writes nothing; its arrive-on publishes the thread's earlier cp.async data.
            int cp = RaceDetector.AGENT_CP * slots + s;
            snap = new RaceDetector.AsyncSnap(d.baseOf(s), s, clock[s], cp, clock[cp] - 1, op.pc(), true, -1, false);
        } else {
            int agent = kind * slots + s;
            // An operation with no destination CTA is refused at issue; checked here too, at the point of use.
            long mb = kind == RaceDetector.AGENT_MBAR && op.dstCtas().length > 0 ? MbarrierUnit.key(op.dstCtas()[0], op.mbarrierOffset()) : -1;
            snap = new RaceDetector.AsyncSnap(d.baseOf(s), s, clock[s], agent, clock[agent]++, op.pc(), false, mb, isAsyncProxy(op.kind()));
            if (kind != RaceDetector.AGENT_MBAR) groupEnds.put(((long) agent << 32) | (op.group() & 0xffffffffL), snap.agentK());
            if (kind == RaceDetector.AGENT_BULK) groupEnds.put(((long) (agent + slots) << 32) | (op.group() & 0xffffffffL), snap.agentK());
        }
        inFlight.put(op.id(), snap);
        // The issue is a release point: the thread's later accesses are not ordered before the copy.
        clock[s]++;
    }

    /** cp.async.bulk{,.tensor} and their reductions access memory through the async proxy; cp.async and st.async/red.async through the generic one. */
    static boolean isAsyncProxy(AsyncOperation.Kind k) {
        return k == AsyncOperation.Kind.BULK_TO_SHARED || k == AsyncOperation.Kind.BULK_TO_GLOBAL || k == AsyncOperation.Kind.TENSOR_TO_SHARED;
    }

    /**
     * A wait_group let thread {@code s} go on: it acquires the groups numbered below {@code keptFrom} only, never one
     * of the newest N even if it completed (PTX ISA 9.7.9.25.3.3, 9.7.9.25.6.2: nothing orders it before the waiter).
     * The bulk form's {@code .read} ({@code sourceReadsOnly}) waits until they "have completed ... the reading from
     * their source locations" (9.7.9.25.6.2): it orders their source reads, not their destination writes.
     */
    void groupWaitPassed(int s, boolean bulk, long keptFrom, boolean sourceReadsOnly) {
        int agent = (bulk ? RaceDetector.AGENT_BULK : RaceDetector.AGENT_CP) * d.slots + s;
        acquireGroups(s, agent, agent, keptFrom);
        if (bulk && !sourceReadsOnly) acquireGroups(s, agent + d.slots, agent, keptFrom);
    }

    /** Thread {@code s} acquires id {@code id}'s group ends below {@code keptFrom}, short of any copy of {@code agent} still in flight. */
    private void acquireGroups(int s, int id, int agent, long keptFrom) {
        long lo = (long) id << 32, hi = lo + Math.min(Math.max(keptFrom, 0), 0xffffffffL);
        java.util.Map.Entry<Long, Integer> last = groupEnds.lowerEntry(hi);
        if (last == null || last.getKey() < lo) return;
        int done = last.getValue();
        for (RaceDetector.AsyncSnap a : inFlight.values()) if (a.agentId() == agent && !a.arriveOnly() && a.agentK() <= done) done = a.agentK() - 1;
        groupEnds.subMap(lo, hi).clear();
        if (done > 0) d.setBase(s, d.baseOf(s).with(id, done, d.chunkSize, d.chunkCount));
    }
}
