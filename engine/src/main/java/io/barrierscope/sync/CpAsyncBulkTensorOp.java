package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.bulk.tensor.Nd.shared::cluster.global{.tile|.im2col}.mbarrier::complete_tx::bytes
 * {.multicast::cluster} [dst], [tensorMap, {c0, ...}], [mbar]{, {o0, ...}}{, ctaMask}} (PTX ISA
 * 9.7.9.25.5, the TMA load of real kernels): copies one box of the tensor, dimension 0 fastest,
 * filling out-of-bounds elements, then complete-tx of the whole box's bytes. In im2col mode the
 * box is pixelsPerColumn pixels of channelsPerPixel channels (5.5.4, {@link TensorBox#im2col}).
 */
public final class CpAsyncBulkTensorOp extends MbarrierOp {
    private final int rank;
    private final Src dst;
    private final Src map;
    private final Src[] coords;
    private final Src ctaMask;
    private final Src[] offsets;

    /** A tile-mode copy. */
    public CpAsyncBulkTensorOp(int rank, Src dst, Src map, Src[] coords, Src mbar, Src ctaMask) {
        this(rank, dst, map, coords, mbar, ctaMask, null);
    }

    /** A copy; {@code offsets} (the im2col offsets, W first) non-null for im2col mode. */
    public CpAsyncBulkTensorOp(int rank, Src dst, Src map, Src[] coords, Src mbar, Src ctaMask, Src[] offsets) {
        super(mbar, true);
        this.rank = rank;
        this.dst = dst;
        this.map = map;
        this.coords = coords;
        this.ctaMask = ctaMask;
        this.offsets = offsets;
    }

    @Override
    protected boolean remoteAllowed() { return true; }

    /** The tensor map at the address {@code map} holds for thread {@code s}, or null having reported why it is none of rank {@code rank}. */
    static TensorMap readMap(Interpreter x, Machine m, int s, io.barrierscope.exec.Op op, Src map, int rank) {
        return readMap(x, m, s, op, map, rank, false);
    }

    /**
     * As {@link #readMap(Interpreter, Machine, int, io.barrierscope.exec.Op, Src, int)}, the map's
     * mode also having to be the instruction's (im2col or tile): the ISA gives a copy through a map
     * of the other mode no meaning.
     */
    static TensorMap readMap(Interpreter x, Machine m, int s, io.barrierscope.exec.Op op, Src map, int rank, boolean im2col) {
        long mapAddr = map.get(m, s);
        byte[] raw = new byte[TensorMap.BYTES];
        for (int i = 0; i < TensorMap.BYTES; i += 8) {
            long v = m.memory.load(Space.GENERIC, mapAddr + i, 8, s);
            for (int k = 0; k < 8; k++) raw[i + k] = (byte) (v >>> (8 * k));
        }
        TensorMap tm = TensorMap.decode(raw);
        if (tm == null || tm.rank() != rank || (tm.im2col() != null) != im2col) {
            String what = tm == null ? " are not a tensor map described by the launch file"
                    : tm.rank() != rank ? " hold a " + tm.rank() + "-d tensor map, not " + rank + "-d"
                    : " hold " + (im2col ? "a tile-mode" : "an im2col") + " tensor map, not the " + (im2col ? "im2col" : "tile-mode")
                    + " map the instruction's mode needs";
            x.report(DiagnosticCode.TENSOR_MAP_INVALID, m.threadName(s) + ": " + op.insn.mnemonic() + " at " + x.where(op.pc)
                    + ": the 128 bytes at 0x" + Long.toHexString(mapAddr) + what, new int[] {op.pc}, new int[] {s}, null);
            return null;
        }
        return tm;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        TensorMap tm = readMap(x, m, s, this, map, rank, offsets != null);
        if (tm == null) return false;
        long[] c = new long[rank];
        for (int i = 0; i < rank; i++) c[i] = (int) coords[i].get(m, s);
        int[] off = null;
        if (offsets != null) {
            off = im2colOffsets(x, m, s, this, tm, c, offsets);
            if (off == null) return false;
        }
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
                new TensorCopy(tm, c, off)));
        return true;
    }

    /**
     * The im2col offsets of thread {@code s}, or null having reported why the copy has no meaning
     * (PTX ISA 5.5.4.1): an offset beyond its range (3D 16 bits, 4D 8, 5D 5, unsigned), or a filter
     * base (the spatial coordinates) outside the bounding box. {@code offsets} null: the
     * {@code .im2col_no_offs} forms, whose offsets are all 0.
     */
    static int[] im2colOffsets(Interpreter x, Machine m, int s, io.barrierscope.exec.Op op, TensorMap tm, long[] c, Src[] offsets) {
        int rank = tm.rank();
        int sp = rank - 2;
        int bits = TensorMap.Im2col.offsetBits(rank);
        int[] off = new int[sp];
        String bad = null;
        for (int j = 0; j < sp && bad == null; j++) {
            off[j] = offsets == null ? 0 : (int) (offsets[j].get(m, s) & 0xFFFF);
            if (off[j] >= 1 << bits) {
                bad = "im2col offset " + j + " is " + off[j] + ", beyond the " + bits + " bits a " + rank + "d copy's offsets have";
            }
        }
        for (int j = 0; j < sp && bad == null; j++) {
            int lo = tm.im2col().lower()[j];
            long hi = tm.boxUpper(j);
            if (c[j + 1] < lo || c[j + 1] > hi) {
                bad = "the filter base's coordinate " + (j + 1) + " is " + c[j + 1] + ", outside the bounding box [" + lo + ", " + hi + "]";
            }
        }
        if (bad == null) return off;
        x.report(DiagnosticCode.TENSOR_IM2COL_RANGE, m.threadName(s) + ": " + op.insn.mnemonic() + " at " + x.where(op.pc) + ": " + bad
                + " (PTX ISA 5.5.4.1)", new int[] {op.pc}, new int[] {s}, null);
        return null;
    }
}
