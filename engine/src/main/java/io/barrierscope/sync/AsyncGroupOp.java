package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.ThreadStatus;

/**
 * {@code cp.async.commit_group}, {@code cp.async.wait_group N}, {@code cp.async.wait_all} and their
 * bulk forms: per thread, close the open group, or wait until at most N committed groups are in flight.
 */
public final class AsyncGroupOp extends Op {
    private final boolean bulk;
    private final boolean commit;
    /** Groups that may stay in flight, or -1 for a commit alone. */
    private final int allowed;
    /** {@code cp.async.bulk.wait_group.read}: waits for the groups' source reads only (PTX ISA 9.7.9.25.6.2). */
    private final boolean sourceReadsOnly;

    public AsyncGroupOp(boolean bulk, boolean commit, int allowed) { this(bulk, commit, allowed, false); }

    public AsyncGroupOp(boolean bulk, boolean commit, int allowed, boolean sourceReadsOnly) {
        this.bulk = bulk;
        this.commit = commit;
        this.allowed = allowed;
        this.sourceReadsOnly = sourceReadsOnly;
    }

    /** Whether it is the {@code .read} form, which orders the waiter after the source reads only. */
    public boolean sourceReadsOnly() { return sourceReadsOnly; }


    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int g = group; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            if ((active & (1 << (s & 31))) == 0) {
                m.pc[s]++;
                continue;
            }
            if (commit) {
                if (bulk) m.async.bulkGroup[s]++;
                else m.async.cpGroup[s]++;
            }
            if (allowed < 0 || m.async.olderGroupsDone(s, bulk, allowed)) {
                if (allowed >= 0 && m.race != null) m.race.groupWaitPassed(s, bulk, m.async.firstKeptGroup(s, bulk, allowed), sourceReadsOnly);
                m.pc[s]++;
                continue;
            }
            m.waitArg[s] = allowed;
            m.waitArg2[s] = bulk ? 1 : 0;
            m.setStatus(s, ThreadStatus.ASYNC_WAIT);
        }
        m.uniform[warp] = false;
    }
}
