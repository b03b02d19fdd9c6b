package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code mapa{.shared::cluster}.{u32,u64} d, a, rank} (the address of the same variable in the
 * CTA of {@code rank} in the cluster) and {@code getctarank{.shared::cluster}.{u32,u64} d, a}
 * (the rank of the CTA an address belongs to). PTX ISA 9.7.9.23, 9.7.9.24.
 */
final class MapaOp extends LaneOp {
    private final boolean getRank;
    private final boolean generic;
    private final int d;
    private final Src a;
    private final Src rank;
    private final int bits;

    private MapaOp(boolean getRank, boolean generic, int d, Src a, Src rank, int bits) {
        this.getRank = getRank;
        this.generic = generic;
        this.d = d;
        this.a = a;
        this.rank = rank;
        this.bits = bits;
    }

    static MapaOp compile(CompileContext c, boolean getRank) {
        ScalarType t = c.type();
        c.expectOperands(getRank ? 2 : 3, getRank ? 2 : 3);
        boolean generic = !c.has(".shared::cluster");
        if (!generic && !c.has(".u32") && !c.has(".u64")) throw c.error(c.insn().mnemonic() + " needs .u32 or .u64");
        return new MapaOp(getRank, generic, c.dst(0), c.src(1, t), getRank ? null : c.src(2, ScalarType.U32), t.bits());
    }

    @Override
    protected void lane(Machine m, int t) {
        long addr = a.get(m, t) & (bits == 32 ? 0xFFFFFFFFL : -1L);
        long off = addr;
        if (generic) {
            if (addr < Space.SHARED_WINDOW || addr >= Space.SHARED_WINDOW + Space.WINDOW_SIZE) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, "generic address 0x" + Long.toHexString(addr)
                        + " is not a shared-memory address; mapa and getctarank need one");
            }
            off = addr - Space.SHARED_WINDOW;
        }
        int cta = m.ctaOfSlot(t);
        int size = m.memory.clusterMembers[cta].length;
        long ownRank = off > Space.CTA_OFFSET_MASK ? (off >>> Space.CLUSTER_RANK_SHIFT) - 1 : m.rankOf(cta);
        if (getRank) {
            if (d >= 0) m.setReg(t, d, ownRank);
            return;
        }
        long r = rank.get(m, t) & 0xFFFFFFFFL;
        if (r >= size) {
            throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, "mapa to CTA rank " + r + ", but the cluster has " + size + " CTAs");
        }
        long mapped = ((r + 1) << Space.CLUSTER_RANK_SHIFT) | (off & Space.CTA_OFFSET_MASK);
        if (generic) mapped += Space.SHARED_WINDOW;
        if (d >= 0) m.setReg(t, d, Values.trunc(mapped, bits));
    }
}
