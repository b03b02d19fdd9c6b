package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.multicast::cluster}
 * [dst], [src], size, [mbar]{, ctaMask}} (to shared memory, then complete-tx of size bytes on the
 * mbarrier at the same CTA-relative offset in each destination CTA) and
 * {@code cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size} (to global memory, in the
 * thread's bulk group). PTX ISA 9.7.9.25.4. With a reduction ({@code cp.reduce.async.bulk}, 9.7.9.25.4.2) the
 * source elements are reduced into the destination instead of copied.
 */
public final class CpAsyncBulkOp extends MbarrierOp {
    private final boolean toGlobal;
    private final Src dst;
    private final Src src;
    private final int srcSpace;
    private final Src size;
    private final Src ctaMask;
    private final int redOp;
    private final io.barrierscope.ptx.ScalarType type;

    /** For the shared-memory destination, {@code mbar} is the mbarrier address; null for .bulk_group. */
    public CpAsyncBulkOp(boolean toGlobal, Src dst, Src src, int srcSpace, Src size, Src mbar, Src ctaMask) {
        this(toGlobal, dst, src, srcSpace, size, mbar, ctaMask, -1, null);
    }

    /** A reduction: {@code redOp} a {@link BulkReduction} op on elements of {@code type}. */
    public CpAsyncBulkOp(boolean toGlobal, Src dst, Src src, int srcSpace, Src size, Src mbar, Src ctaMask, int redOp,
                         io.barrierscope.ptx.ScalarType type) {
        super(mbar, true);
        this.redOp = redOp;
        this.type = type;
        this.toGlobal = toGlobal;
        this.dst = dst;
        this.src = src;
        this.srcSpace = srcSpace;
        this.size = size;
        this.ctaMask = ctaMask;
    }

    /** The global to .shared::cta form: the destination must be the issuing CTA's own shared memory. */
    private boolean ownCtaDestination;

    /** This copy, as the {@code .shared::cta} destination form (set once, while compiling). */
    CpAsyncBulkOp toOwnCta() {
        ownCtaDestination = true;
        return this;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        long n = size.get(m, s) & 0xFFFFFFFFL;
        long d = dst.get(m, s);
        long sa = src.get(m, s);
        if (n == 0 || n % 16 != 0 || (d & 15) != 0 || (sa & 15) != 0) {
            x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " needs a size that is a non-zero multiple of 16 and 16-byte aligned addresses (size " + n + ", dst 0x"
                    + Long.toHexString(d) + ", src 0x" + Long.toHexString(sa) + ")", new int[] {pc}, new int[] {s}, null);
            return false;
        }
        if (n > Integer.MAX_VALUE) {
            // size is .u32; no CTA's shared memory (source or destination here) holds 2^31 bytes.
            x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc) + " copies "
                    + n + " bytes, more than any CTA's shared memory holds", new int[] {pc}, new int[] {s}, null);
            return false;
        }
        if (srcSpace == Space.SHARED && sa > Space.CTA_OFFSET_MASK && (sa >>> Space.CLUSTER_RANK_SHIFT) - 1 != m.rankOf(m.ctaOfSlot(s))) {
            // srcMem is in .shared::cta: the issuer's own window. Another CTA's shared::cluster address is outside it.
            x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " reads its source at shared::cluster address 0x" + Long.toHexString(sa) + " of cluster rank "
                    + ((sa >>> Space.CLUSTER_RANK_SHIFT) - 1) + "; the source must be in the issuing CTA's .shared::cta window "
                    + "(PTX ISA 9.7.9.25.4.1)", new int[] {pc}, new int[] {s}, null);
            return false;
        }
        long ready = m.cycles + x.policy().asyncLatency();
        if (toGlobal) {
            ready = m.async.readyAfterOlderGroups(s, AsyncOperation.Kind.BULK_TO_GLOBAL, m.async.bulkGroup[s], ready);
            AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.BULK_TO_GLOBAL, s, pc, m.async.bulkGroup[s],
                    Space.SHARED, sa, new int[] {m.ctaOfSlot(s)}, d, (int) n, -1, redOp < 0 ? 0 : type.ordinal(), redOp, null));
            return true;
        }
        if (ownCtaDestination && d > Space.CTA_OFFSET_MASK && m.memory.peer(m.ctaOfSlot(s), d) != m.ctaOfSlot(s)) {
            x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " writes to shared::cluster address 0x" + Long.toHexString(d) + " of cluster rank " + ((d >>> Space.CLUSTER_RANK_SHIFT) - 1)
                    + "; \"When the destination of the copy is .shared::cta the destination address has to be in the shared memory of the "
                    + "executing CTA\" (PTX ISA 9.7.9.25.4.1)", new int[] {pc}, new int[] {s}, null);
            return false;
        }
        long key = locate(x, m, s);
        if (key < 0) return false;
        int mbarCta = (int) (key >>> 32);
        int mbarOffset = (int) key;
        int own = m.ctaOfSlot(s);
        int dstCta = d > Space.CTA_OFFSET_MASK ? m.memory.peer(own, d) : own;
        int[] ctas;
        if (ctaMask != null) {
            ctas = multicastCtas(x, m, s, (int) (ctaMask.get(m, s) & 0xFFFF));
            if (ctas == null) return false;
        } else {
            if (dstCta != mbarCta) {
                x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                        + " writes to cluster rank " + m.rankOf(dstCta) + " but signals an mbarrier of rank " + m.rankOf(mbarCta)
                        + "; they must be in the same CTA", new int[] {pc}, new int[] {s}, null);
                return false;
            }
            ctas = new int[] {dstCta};
        }
        AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.BULK_TO_SHARED, s, pc, -1, srcSpace, sa, ctas,
                d & Space.CTA_OFFSET_MASK, (int) n, mbarOffset, redOp < 0 ? 0 : type.ordinal(), redOp, null));
        return true;
    }
}
