package io.barrierscope.sync;

/**
 * One asynchronous operation in flight (PTX ISA 9.7.9.25): what it moves, where, which mbarrier
 * it signals, who issued it and when it completes. Immutable. For a bulk reduction
 * ({@code redOp >= 0} on BULK_TO_SHARED / BULK_TO_GLOBAL) {@code value} is the element type's
 * {@link io.barrierscope.ptx.ScalarType} ordinal; a BULK_TO_GLOBAL with a {@code tensor} is a
 * tensor store or reduction (one box of the map at {@code dst}).
 */
public record AsyncOperation(long id, long readyAt, Kind kind, int slot, int pc, long group,
                             int srcSpace, long src, int[] dstCtas, long dst, int size,
                             int mbarrierOffset, long value, int redOp, TensorCopy tensor) {

    public enum Kind {
        /** cp.async: global to the issuing CTA's shared memory, tracked by the thread's groups. */
        CP_ASYNC,
        /** cp.async.mbarrier.arrive: an arrive-on once the thread's earlier cp.async completed. */
        CP_ASYNC_ARRIVE,
        /** cp.async.bulk global (or the issuer's shared::cta) to shared (each CTA of dstCtas), then complete-tx on its mbarrier. */
        BULK_TO_SHARED,
        /** cp.async.bulk shared to global, tracked by bulk groups. */
        BULK_TO_GLOBAL,
        /** st.async / red.async to a peer's shared memory, then complete-tx on its mbarrier. */
        REMOTE_STORE,
        /** cp.async.bulk.tensor: a box of a tensor (tile mode) to shared memory, then complete-tx of the box bytes. */
        TENSOR_TO_SHARED
    }

    /** Whether it reads the shared memory of the issuing thread's CTA (a bulk copy to global, or shared::cta to shared::cluster). */
    public boolean readsSharedOfIssuer() {
        return kind == Kind.BULK_TO_GLOBAL || kind == Kind.BULK_TO_SHARED && srcSpace == io.barrierscope.exec.Space.SHARED;
    }

    /** Whether it writes the shared memory of {@code cta}. */
    public boolean writesSharedOf(int cta) {
        if (kind == Kind.BULK_TO_GLOBAL || kind == Kind.CP_ASYNC_ARRIVE) return false;
        for (int c : dstCtas) if (c == cta) return true;
        return false;
    }
}
