package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.bulk.tensor.Nd.shared::cluster.global{.tile}.mbarrier::complete_tx::bytes
 * {.multicast::cluster} [dst], [tensorMap, {c0, ...}], [mbar]{, ctaMask}} (PTX ISA 9.7.9.25.5,
 * the TMA load of real kernels): copies one box of the tensor, dimension 0 fastest, filling
 * out-of-bounds elements with zero, then complete-tx of the whole box's bytes.
 */
public final class CpAsyncBulkTensorOp extends MbarrierOp {
    private final int rank;
    private final Src dst;
    private final Src map;
    private final Src[] coords;
    private final Src ctaMask;

    public CpAsyncBulkTensorOp(int rank, Src dst, Src map, Src[] coords, Src mbar, Src ctaMask) {
        super(mbar, true);
        this.rank = rank;
        this.dst = dst;
        this.map = map;
        this.coords = coords;
        this.ctaMask = ctaMask;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    /** The tensor map at the address {@code map} holds for thread {@code s}, or null having reported why it is none of rank {@code rank}. */
    static TensorMap readMap(Interpreter x, Machine m, int s, io.barrierscope.exec.Op op, Src map, int rank) {
        long mapAddr = map.get(m, s);
        byte[] raw = new byte[TensorMap.BYTES];
        for (int i = 0; i < TensorMap.BYTES; i += 8) {
            long v = m.memory.load(Space.GENERIC, mapAddr + i, 8, s);
            for (int k = 0; k < 8; k++) raw[i + k] = (byte) (v >>> (8 * k));
        }
        TensorMap tm = TensorMap.decode(raw);
        if (tm == null || tm.rank() != rank) {
            x.report(DiagnosticCode.TENSOR_MAP_INVALID, m.threadName(s) + ": " + op.insn.mnemonic() + " at " + x.where(op.pc)
                    + ": the 128 bytes at 0x" + Long.toHexString(mapAddr) + (tm == null ? " are not a tensor map described by the launch file"
                    : " hold a " + tm.rank() + "-d tensor map, not " + rank + "-d"), new int[] {op.pc}, new int[] {s}, null);
            return null;
        }
        return tm;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        TensorMap tm = readMap(x, m, s, this, map, rank);
        if (tm == null) return false;
        long[] c = new long[rank];
        for (int i = 0; i < rank; i++) c[i] = (int) coords[i].get(m, s);
        long d = dst.get(m, s);
        if ((d & 127) != 0) {
            x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + ": the shared destination 0x" + Long.toHexString(d) + " of a tensor copy must be 128-byte aligned",
                    new int[] {pc}, new int[] {s}, null);
            return false;
        }
        long key = locate(x, m, s);
        if (key < 0) return false;
        int own = m.ctaOfSlot(s);
        int[] ctas;
        if (ctaMask != null) {
            ctas = multicastCtas(x, m, s, (int) (ctaMask.get(m, s) & 0xFFFF));
            if (ctas == null) return false;
        } else {
            ctas = new int[] {d > Space.CTA_OFFSET_MASK ? m.memory.peer(own, d) : own};
        }
        AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), m.cycles + x.policy().asyncLatency(), AsyncOperation.Kind.TENSOR_TO_SHARED,
                s, pc, -1, Space.GLOBAL, tm.base(), ctas, d & Space.CTA_OFFSET_MASK, (int) tm.boxBytes(), (int) key, 0, -1,
                new TensorCopy(tm, c)));
        return true;
    }
}
