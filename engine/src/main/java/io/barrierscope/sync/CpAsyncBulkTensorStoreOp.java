package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [tensorMap, {c0, ...}], [src]}
 * (PTX ISA 9.7.9.25.5.2, the TMA store) and {@code cp.reduce.async.bulk.tensor.Nd.global.shared::cta
 * .redOp{.tile}.bulk_group} (9.7.9.25.5.3): one box read from shared memory (through the map's
 * swizzle, dimension 0 fastest) is written to, or reduced into, the tensor in global memory;
 * elements whose coordinates fall outside the tensor are not written. Completion is tracked by
 * the issuing thread's bulk async-groups, like {@code cp.async.bulk.global.shared::cta.bulk_group}.
 * In {@code .im2col_no_offs} mode the box is an im2col box (PTX ISA 5.5.4) with offsets 0.
 */
public final class CpAsyncBulkTensorStoreOp extends MbarrierOp {
    private final int rank;
    private final Src map;
    private final Src[] coords;
    private final Src src;
    private final int redOp;
    private final boolean im2col;

    /** A tile-mode store; {@code redOp} is a {@link BulkReduction} op, or -1 for a plain store. */
    public CpAsyncBulkTensorStoreOp(int rank, Src map, Src[] coords, Src src, int redOp) {
        this(rank, map, coords, src, redOp, false);
    }

    /** A store or reduction, in {@code .im2col_no_offs} mode when {@code im2col}. */
    public CpAsyncBulkTensorStoreOp(int rank, Src map, Src[] coords, Src src, int redOp, boolean im2col) {
        super(null, true);
        this.rank = rank;
        this.map = map;
        this.coords = coords;
        this.src = src;
        this.redOp = redOp;
        this.im2col = im2col;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        TensorMap tm = CpAsyncBulkTensorOp.readMap(x, m, s, this, map, rank, im2col);
        if (tm == null) return false;
        io.barrierscope.ptx.ScalarType type = tm.type() != null ? tm.type() : m.memory.global.elementTypeAt(tm.base());
        if (redOp >= 0 && (type == null || !BulkReduction.tensorTypeListed(redOp, type))) {
            x.report(DiagnosticCode.TENSOR_MAP_INVALID, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc) + ": "
                    + (type == null ? "the tensor map has no element type, which a reduction needs"
                    : "PTX ISA 9.7.9.25.5.3 lists no " + BulkReduction.OPS[redOp] + " for a tensor of ." + type.ptxName()
                    + " (this engine does add .u32 .s32 .u64 .f32, min/max .u32 .s32 .s64, inc/dec .u32, and/or/xor .u32 .s32 .u64 .s64)"),
                    new int[] {pc}, new int[] {s}, null);
            return false;
        }
        long[] c = new long[rank];
        for (int i = 0; i < rank; i++) c[i] = (int) coords[i].get(m, s);
        int[] off = im2col ? CpAsyncBulkTensorOp.im2colOffsets(x, m, s, this, tm, c, null) : null;
        if (im2col && off == null) return false;
        long sa = src.get(m, s);
        if ((sa & 127) != 0) {
            x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + ": the shared source 0x" + Long.toHexString(sa) + " of a tensor copy must be 128-byte aligned",
                    new int[] {pc}, new int[] {s}, null);
            return false;
        }
        long ready = m.async.readyAfterOlderGroups(s, AsyncOperation.Kind.BULK_TO_GLOBAL, m.async.bulkGroup[s], m.cycles + x.policy().asyncLatency());
        AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.BULK_TO_GLOBAL,
                s, pc, m.async.bulkGroup[s], Space.SHARED, sa, new int[] {m.ctaOfSlot(s)}, tm.base(), (int) tm.boxBytes(), -1,
                redOp >= 0 ? type.ordinal() : 0, redOp, new TensorCopy(tm, c, off)));
        return true;
    }
}
