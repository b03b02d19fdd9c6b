package io.barrierscope.sync;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code st.async} and {@code red.async} with {@code .mbarrier::complete_tx::bytes} (PTX ISA
 * 9.7.9.12, 9.7.13.7): a store (or reduction) into a cluster peer's shared memory that completes
 * later, followed by complete-tx of its size on the peer's mbarrier.
 */
public final class StAsyncOp extends MbarrierOp {
    private final Src addr;
    private final Src[] values;
    private final int size;
    /** -1 for st.async; else the reduction: 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor, 6 inc, 7 dec. */
    private final int redOp;

    public StAsyncOp(Src addr, Src[] values, int size, Src mbar, int redOp) {
        super(mbar, true);
        this.addr = addr;
        this.values = values;
        this.size = size;
        this.redOp = redOp;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        long key = locate(x, m, s);
        if (key < 0) return false;
        long a = addr.get(m, s);
        int own = m.ctaOfSlot(s);
        int cta = a > Space.CTA_OFFSET_MASK ? m.memory.peer(own, a) : own;
        long ready = m.cycles + x.policy().asyncLatency();
        for (int i = 0; i < values.length; i++) {
            AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.REMOTE_STORE, s, pc, -1, Space.SHARED, 0,
                    new int[] {cta}, (a & Space.CTA_OFFSET_MASK) + (long) i * size, size, (int) key, values[i].get(m, s), redOp, null));
        }
        return true;
    }
}
