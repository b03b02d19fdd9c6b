package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Memory;
import io.barrierscope.exec.MemoryFault;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * Completes asynchronous operations when their time comes (semantics.md section 7): the bytes
 * land, then the mbarrier is signalled (complete-tx of the byte count, or the arrive-on of
 * cp.async.mbarrier.arrive); threads waiting on their groups are released.
 */
public final class AsyncCopySync {
    private AsyncCopySync() {}

    /** Puts an operation in flight. */
    static void issue(Interpreter x, AsyncOperation op) {
        if (x.finished()) return; // an earlier operation of the same instruction passed the cap
        Machine m = x.machine();
        if (m.async.size() >= m.async.cap) {
            x.report(DiagnosticCode.ASYNC_IN_FLIGHT, m.threadName(op.slot()) + " issued an asynchronous operation with "
                    + m.async.size() + " already in flight, the most a launch of " + (m.async.cap / AsyncCopyUnit.IN_FLIGHT_PER_THREAD)
                    + " thread slots holds (" + AsyncCopyUnit.IN_FLIGHT_PER_THREAD + " per thread slot): wait for earlier copies "
                    + "(cp.async.wait_group, cp.async.bulk.wait_group, an mbarrier) before issuing more",
                    new int[] {op.pc()}, new int[] {op.slot()}, null);
            return;
        }
        m.async.add(op);
        if (m.race != null) m.race.asyncIssue(op);
        if (x.observed()) x.emit(SyncEvent.ASYNC_ISSUE, op.slot(), op.id(), op.size(), signalled(op));
    }

    /** Completes every operation ready at the current virtual time. */
    public static void completeReady(Interpreter x) {
        Machine m = x.machine();
        List<AsyncOperation> ready = m.async.takeReady(m.cycles);
        for (AsyncOperation op : ready) {
            if (x.finished()) return;
            if (x.observed()) x.emit(SyncEvent.ASYNC_LAND, op.slot(), op.id(), op.size(), signalled(op));
            if (m.race != null) m.race.beginAsync(op);
            try {
                complete(x, op);
            } catch (MemoryFault f) {
                x.report(f.code(), m.threadName(op.slot()) + ": the " + op.kind().name().toLowerCase().replace('_', ' ')
                        + " issued at " + x.where(op.pc()) + " faulted when it completed: " + f.getMessage(),
                        new int[] {op.pc()}, new int[] {op.slot()}, null);
                return;
            } finally {
                if (m.race != null) m.race.endAsync(op);
            }
        }
        // Waiters are released once every operation landing now has landed: the batch is out of
        // the pending set already, so a waiter released after the first would pass its wait_group
        // before the others of its group were written.
        for (AsyncOperation op : ready) {
            if (x.finished()) return;
            releaseGroupWaiter(x, op.slot());
        }
    }

    /** The mbarrier an operation signals (its first destination CTA's), or -1. */
    static long signalled(AsyncOperation op) {
        return switch (op.kind()) {
            case CP_ASYNC, BULK_TO_GLOBAL -> -1;
            default -> MbarrierUnit.key(op.dstCtas()[0], op.mbarrierOffset());
        };
    }

    private static void complete(Interpreter x, AsyncOperation op) {
        Machine m = x.machine();
        int s = op.slot();
        switch (op.kind()) {
            case CP_ASYNC -> {
                for (int i = 0; i < op.size(); i += 4) {
                    long v = i < op.value() ? m.memory.load(op.srcSpace(), op.src() + i, 4, s) : 0;
                    m.memory.store(Space.SHARED, op.dst() + i, 4, v, s);
                }
            }
            case CP_ASYNC_ARRIVE -> {
                Mbarrier b = m.mbarriers.at(op.dstCtas()[0], op.mbarrierOffset());
                MbarrierOp issuer = (MbarrierOp) x.op(op.pc());
                if (!b.valid) {
                    issuer.report(x, DiagnosticCode.MBARRIER_UNINITIALIZED, s, b, "the arrive-on of cp.async.mbarrier.arrive "
                            + "found no valid mbarrier object when the copies completed");
                    return;
                }
                if (m.race != null) m.race.mbarrierUse(s, b, op.pc());
                MbarrierSync.arriveOn(x, issuer, s, b, 1, false);
            }
            case TENSOR_TO_SHARED -> {
                int issuerCta = m.ctaOfSlot(s);
                for (int cta : op.dstCtas()) {
                    copyBox(m, op, clusterAddress(m, issuerCta, cta, op.dst()));
                    completeTx(x, op, cta);
                    if (x.finished()) return;
                }
            }
            case BULK_TO_SHARED, REMOTE_STORE -> {
                int issuerCta = m.ctaOfSlot(s);
                for (int cta : op.dstCtas()) {
                    long base = clusterAddress(m, issuerCta, cta, op.dst());
                    if (op.kind() == AsyncOperation.Kind.BULK_TO_SHARED && op.redOp() >= 0) {
                        reduceBulk(m, op, Space.SHARED, base);
                    } else if (op.kind() == AsyncOperation.Kind.BULK_TO_SHARED) {
                        if (!copyWhole(m, op, base)) {
                            for (int i = 0; i < op.size(); i += 4) {
                                m.memory.store(Space.SHARED, base + i, 4, m.memory.load(op.srcSpace(), op.src() + i, 4, s), s);
                            }
                        }
                    } else {
                        remoteStore(m, op, base);
                    }
                    completeTx(x, op, cta);
                    if (x.finished()) return;
                }
            }
            case BULK_TO_GLOBAL -> {
                if (op.tensor() != null) {
                    storeBox(m, op);
                    return;
                }
                if (op.redOp() >= 0) {
                    reduceBulk(m, op, Space.GLOBAL, op.dst());
                    return;
                }
                for (int i = 0; i < op.size(); i += 4) {
                    m.memory.store(Space.GLOBAL, op.dst() + i, 4, m.memory.load(Space.SHARED, op.src() + i, 4, s), s);
                }
            }
            default -> throw new IllegalStateException(op.kind().name());
        }
    }

    /**
     * A bulk copy from global memory into the issuer's own shared memory in one array copy, when
     * the word-by-word loop is sure to succeed: the source inside one mapped segment, the
     * destination inside shared memory and clear of valid mbarriers. The result is the loop's: the
     * same bytes, one effect per word stored, and the race detector told of the same word accesses
     * in the same order (one call for all of them).
     * Returns false, having changed nothing, when the loop must run (and fault where it faults).
     */
    private static boolean copyWhole(Machine m, AsyncOperation op, long base) {
        int n = op.size();
        long src = op.src();
        if (op.srcSpace() != Space.GLOBAL || ((src | base) & 3) != 0 || (n & 3) != 0 || base < 0) return false;
        Memory mem = m.memory;
        int s = op.slot();
        int cta = m.ctaOfSlot(s);
        byte[] sh = mem.shared[cta];
        if (base > sh.length - (long) n) return false; // also refuses a shared::cluster address (a peer's memory)
        if (mem.validMbarriers > 0 && mem.mbarrierWords[cta] != null) {
            byte[] words = mem.mbarrierWords[cta];
            for (long w = base >> 3; w <= (base + n - 1) >> 3; w++) if (words[(int) w] != 0) return false;
        }
        java.util.List<GlobalMemory.Segment> segments = mem.global.segments();
        for (int i = 0; i < segments.size(); i++) {
            GlobalMemory.Segment g = segments.get(i);
            if (src >= g.base() && src + n <= g.end()) {
                // The loop's regions: global segment i is region ctas + i, the issuer's shared memory its CTA.
                if (m.race != null) m.race.copyWords(mem.shared.length + i, (int) (src - g.base()), cta, (int) base, n, s);
                System.arraycopy(g.data(), (int) (src - g.base()), sh, (int) base, n);
                mem.effects[s] += n >> 2;
                mem.writes += n >> 2;
                return true;
            }
        }
        return false;
    }

    /**
     * One box, dimension 0 fastest, placed through the map's swizzle; along each dimension every
     * traversal-stride-th element; elements outside the tensor read as the map's fill (zero or NaN).
     * Tile-mode boxes that cannot fault are copied by {@link TensorBoxCopy} with the same result.
     */
    private static void copyBox(Machine m, AsyncOperation op, long dst) {
        if (TensorBoxCopy.copy(m, op, dst)) return;
        TensorMap tm = op.tensor().map();
        int e = tm.elementSize();
        long fill = tm.oobValue();
        TensorBox.forEach(op.tensor(), (n, addr) -> {
            long v = addr >= 0 ? m.memory.load(Space.GLOBAL, addr, e, op.slot()) : fill;
            m.memory.store(Space.SHARED, tm.swizzled(dst, n * e), e, v, op.slot());
        });
    }

    /**
     * A tensor store or reduction: each element of the box is read from shared memory through the
     * swizzle and written to (or reduced into) its global address; elements outside the tensor are
     * not written (PTX ISA 9.7.9.25.5.1).
     */
    private static void storeBox(Machine m, AsyncOperation op) {
        TensorMap tm = op.tensor().map();
        int e = tm.elementSize();
        int s = op.slot();
        ScalarType t = op.redOp() >= 0 ? ScalarType.values()[(int) op.value()] : null;
        TensorBox.forEach(op.tensor(), (n, addr) -> {
            if (addr < 0) return;
            long v = m.memory.load(Space.SHARED, tm.swizzled(op.src(), n * e), e, s);
            if (t == null) m.memory.store(Space.GLOBAL, addr, e, v, s);
            else reduceElement(m, op, Space.GLOBAL, addr, t, v);
        });
    }

    /** cp.reduce.async.bulk: size bytes of shared memory at src reduced element by element into dst. */
    private static void reduceBulk(Machine m, AsyncOperation op, int space, long dst) {
        ScalarType t = ScalarType.values()[(int) op.value()];
        int e = t.bytes();
        for (int i = 0; i < op.size(); i += e) {
            long v = m.memory.load(Space.SHARED, op.src() + i, e, op.slot());
            if (t == ScalarType.F32 && op.redOp() == BulkReduction.ADD) {
                addF32(m, op, space, dst + i, v);
            } else {
                reduceElement(m, op, space, dst + i, t, v);
            }
        }
    }

    // Each element is an atomic read-modify-write (a relaxed reduction): two of them on one location never race.
    private static void reduceElement(Machine m, AsyncOperation op, int space, long addr, ScalarType t, long v) {
        if (m.race != null) m.race.beginStrong(1, true);
        try {
            int e = t.bytes();
            long old = m.memory.load(space, addr, e, op.slot());
            m.memory.store(space, addr, e, BulkReduction.apply(op.redOp(), t, old, v), op.slot());
        } finally {
            if (m.race != null) m.race.endStrong();
        }
    }

    private static void addF32(Machine m, AsyncOperation op, int space, long addr, long v) {
        if (m.race != null) m.race.beginStrong(1, true);
        try {
            long old = m.memory.load(space, addr, 4, op.slot());
            m.memory.store(space, addr, 4, BulkReduction.addF32FlushingSubnormals(old, v), op.slot());
        } finally {
            if (m.race != null) m.race.endStrong();
        }
    }

    private static void remoteStore(Machine m, AsyncOperation op, long addr) {
        int s = op.slot();
        if (op.redOp() < 0) {
            m.memory.store(Space.SHARED, addr, op.size(), op.value(), s);
            return;
        }
        // red.async is a relaxed atomic reduction (9.7.13.7): two of them on one location never race.
        if (m.race != null) m.race.beginStrong(1, true);
        try {
            reduce(m, op, addr);
        } finally {
            if (m.race != null) m.race.endStrong();
        }
    }

    private static void reduce(Machine m, AsyncOperation op, long addr) {
        int s = op.slot();
        long old = m.memory.load(Space.SHARED, addr, op.size(), s);
        long mask = op.size() == 8 ? -1L : 0xFFFFFFFFL;
        long v = switch (op.redOp()) {
            case 0 -> old + op.value();
            case 1 -> Math.min(old, op.value() & mask);
            case 2 -> Math.max(old, op.value() & mask);
            case 3 -> old & op.value();
            case 4 -> old | op.value();
            case 5 -> old ^ op.value();
            case 6 -> Long.compareUnsigned(old, op.value() & mask) >= 0 ? 0 : old + 1;
            case StAsyncOp.MIN_S -> Math.min((int) old, (int) op.value());
            case StAsyncOp.MAX_S -> Math.max((int) old, (int) op.value());
            default -> (old == 0 || Long.compareUnsigned(old, op.value() & mask) > 0) ? op.value() : old - 1;
        };
        m.memory.store(Space.SHARED, addr, op.size(), v & mask, s);
    }

    /** The shared::cluster address of {@code offset} in {@code cta}, seen from {@code issuerCta}. */
    static long clusterAddress(Machine m, int issuerCta, int cta, long offset) {
        if (cta == issuerCta) return offset;
        int[] members = m.memory.clusterMembers[issuerCta];
        for (int r = 0; r < members.length; r++) {
            if (members[r] == cta) return ((long) (r + 1) << Space.CLUSTER_RANK_SHIFT) | offset;
        }
        throw new IllegalStateException("CTA " + cta + " is not in the issuer's cluster");
    }

    private static void completeTx(Interpreter x, AsyncOperation op, int cta) {
        Machine m = x.machine();
        if (m.memory.ctaExited[cta]) {
            throw new MemoryFault(DiagnosticCode.DSMEM_AFTER_EXIT, op.mbarrierOffset(), "its mbarrier is in a CTA that has exited");
        }
        Mbarrier b = m.mbarriers.at(cta, op.mbarrierOffset());
        MbarrierOp issuer = (MbarrierOp) x.op(op.pc());
        if (!b.valid) {
            issuer.report(x, DiagnosticCode.MBARRIER_UNINITIALIZED, op.slot(), b, "the complete-tx of " + op.size()
                    + " bytes found no valid mbarrier object");
            return;
        }
        long tx = b.tx - op.size();
        if (Math.abs(tx) > Mbarrier.MAX_COUNT) {
            issuer.report(x, DiagnosticCode.MBARRIER_TX_RANGE, op.slot(), b, "complete-tx of " + op.size()
                    + " bytes would make the tx-count " + tx);
            return;
        }
        if (m.race != null) {
            m.race.mbarrierUse(op.slot(), b, op.pc());
            m.race.mbarrierArrive(op.slot(), b, false, io.barrierscope.exec.MemoryModelHook.SCOPE_CLUSTER);
        }
        b.tx = tx;
        b.txCompleted += op.size();
        if (x.observed()) x.emit(SyncEvent.MBAR_COMPLETE_TX, op.slot(), MbarrierUnit.key(cta, op.mbarrierOffset()), op.size(), tx);
        MbarrierSync.changed(x, b);
    }

    private static void releaseGroupWaiter(Interpreter x, int s) {
        Machine m = x.machine();
        if (m.status[s] != ThreadStatus.ASYNC_WAIT || m.waitArg2[s] == io.barrierscope.exec.WgmmaGroups.WAITING
                || m.waitArg2[s] == io.barrierscope.exec.RegisterPool.REGISTERS) return;
        if (m.async.olderGroupsDone(s, m.waitArg2[s] == 1, m.waitArg[s])) {
            if (m.race != null) {
                // The waiting thread is still at its wait_group: its .read form orders the source reads only.
                boolean readOnly = x.op(m.pc[s]) instanceof AsyncGroupOp g && g.sourceReadsOnly();
                m.race.groupWaitPassed(s, m.waitArg2[s] == 1, m.async.firstKeptGroup(s, m.waitArg2[s] == 1, m.waitArg[s]), readOnly);
            }
            m.pc[s]++;
            m.uniform[s >> 5] = false;
            m.setStatus(s, ThreadStatus.RUNNABLE);
        }
    }

    /** A CTA exited: copies still landing in its shared memory are reported. */
    public static void onCtaExit(Interpreter x, int cta) {
        Machine m = x.machine();
        for (AsyncOperation op : m.async.all()) {
            if (op.writesSharedOf(cta) || (op.readsSharedOfIssuer() && m.ctaOfSlot(op.slot()) == cta)) {
                x.report(DiagnosticCode.ASYNC_PENDING_AT_EXIT, "CTA " + m.grid.unflatten(cta) + " exited while the "
                        + op.kind().name().toLowerCase().replace('_', ' ') + " of " + op.size() + " bytes issued by "
                        + m.threadName(op.slot()) + " at " + x.where(op.pc()) + " was still in flight; wait for it "
                        + "(an mbarrier wait or wait_group) before exiting", new int[] {op.pc()}, new int[] {op.slot()}, null);
                return;
            }
        }
    }
}
