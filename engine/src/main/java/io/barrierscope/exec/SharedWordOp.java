package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * A plain 4-byte {@code ld.shared}/{@code st.shared} at {@code [reg+imm]} (or {@code [imm]}) with a
 * register or immediate value: the shared accesses of nearly every kernel loop, compiled to one
 * loop over the warp's lanes with register indices resolved once per warp instead of a chain of
 * per-lane lambdas. Same results, faults and race-detector calls as the general {@code CheckedOp}
 * form in {@link MemoryOps}; strong (ordered) accesses and vectors keep the general form.
 */
final class SharedWordOp extends Op {
    private static final java.lang.invoke.VarHandle I32 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private final boolean store;
    /** Absolute register of the address base, or -1 for an absolute address. */
    private final int addrReg;
    private final long offset;
    /** Load: destination register (-1 for the sink). Store: source register (-1: {@link #imm}). */
    private final int reg;
    private final long imm;
    private final boolean signExtend;
    private final long outMask;
    /** .shared / .shared::cta (not ::cluster): a peer's address faults ({@link Memory#inCtaWindow}). */
    private boolean ctaWindow;

    private SharedWordOp(boolean store, int addrReg, long offset, int reg, long imm, boolean signExtend, int outBits) {
        this.store = store;
        this.addrReg = addrReg;
        this.offset = offset;
        this.reg = reg;
        this.imm = imm;
        this.signExtend = signExtend;
        this.outMask = outBits >= 64 ? -1L : (1L << outBits) - 1;
    }

    /** The fast form of a scalar 4-byte shared load, or null when it needs the general one. */
    static Op load(CompileContext c, ScalarType t, int outBits) {
        int[] base = addressBase(c, c.operand(1));
        if (base == null || !(c.operand(0) instanceof Operand.Reg)) return null;
        return new SharedWordOp(false, base[0], ((Operand.Address) c.operand(1)).offset(), c.dst(c.operand(0)), 0,
                t == ScalarType.S32, outBits).window(c);
    }

    /** The fast form of a scalar 4-byte shared store, or null when it needs the general one. */
    static Op store(CompileContext c) {
        int[] base = addressBase(c, c.operand(0));
        if (base == null) return null;
        Operand v = c.operand(1);
        long offset = ((Operand.Address) c.operand(0)).offset();
        if (v instanceof Operand.Reg r && !r.negated()) return new SharedWordOp(true, base[0], offset, c.regBase + r.reg().index(), 0, false, 64).window(c);
        if (v instanceof Operand.Imm im && im.kind() == Operand.ImmKind.INT) return new SharedWordOp(true, base[0], offset, -1, im.value(), false, 64).window(c);
        return null;
    }

    private SharedWordOp window(CompileContext c) {
        ctaWindow = !c.has(".shared::cluster");
        return this;
    }

    /** {-1} for an absolute address, {register} for [reg+imm], null for anything else (symbols keep the general form). */
    private static int[] addressBase(CompileContext c, Operand o) {
        if (!(o instanceof Operand.Address a)) return null;
        if (a.base() == null) return new int[] {-1};
        if (a.base() instanceof Operand.Reg r && !r.negated()) return new int[] {c.regBase + r.reg().index()};
        return null;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        Memory mem = m.memory;
        long[] r = m.regs;
        int base = warp << 5;
        int wb = base * m.regsPerThread;
        int ai = wb + (addrReg << 5);
        int vi = wb + (reg << 5);
        // Every lane of a warp is in one CTA: its shared array is found once, not per lane.
        int cta = m.ctaOfWarp(warp);
        byte[] sh = mem.shared[cta];
        long last = sh.length - 4;
        // Valid mbarrier objects (8-byte words marked in mbarrierWords) are separate objects: a plain
        // access to one is the general path's diagnostic, but every other word of the window stays inline.
        byte[] mbw = mem.validMbarriers == 0 ? null : mem.mbarrierWords[cta];
        // Memory.storeShared32 counts a store twice while any mbarrier is valid (its general path counts
        // again); state hashes include the counts, so the inline stores count as it does.
        int counts = mem.validMbarriers == 0 ? 1 : 2;
        MemoryModelHook race = mem.race;
        if (race != null && wholeWords(r, ai, active, last, mbw, mem.laneOffsets)) {
            // Every lane takes the inline path: the analysis hears of the warp's accesses in one call,
            // and the lanes' offsets, found once, serve the accesses too.
            race.accessWords(cta, mem.laneOffsets, active, warp, store);
            inline(mem, sh, r, vi, base, active, mem.laneOffsets, counts);
            advance(m, warp, group);
            return;
        }
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            int s = base + l;
            long addr = (addrReg >= 0 ? r[ai + l] : 0) + offset;
            if ((addr & 3) == 0 && addr >= 0 && addr <= last && (mbw == null || mbw[(int) (addr >> 3)] == 0)) {
                // Memory.loadShared32/storeShared32's in-bounds aligned word, inline: per lane, the call
                // costs ~15% of a barrier-heavy kernel's run (measured); anything else goes through them.
                if (race != null) race.access(cta, (int) addr, 4, s, store);
                word(mem, sh, r, vi, s, l, (int) addr, counts);
                continue;
            }
            try {
                if (ctaWindow) addr = mem.inCtaWindow(addr, s);
                if (store) {
                    mem.storeShared32(cta, addr, reg >= 0 ? r[vi + l] : imm, s);
                } else {
                    long v = mem.loadShared32(cta, addr, s);
                    if (signExtend) v = (int) v;
                    if (reg >= 0) r[vi + l] = v & outMask;
                }
            } catch (MemoryFault f) {
                reportLaneFault(x, s, f);
                return;
            }
        }
        advance(m, warp, group);
    }

    /** The inline loads or stores of the lanes at {@code offs}, all checked already (aligned, in bounds, no mbarrier). */
    private void inline(Memory mem, byte[] sh, long[] r, int vi, int base, int active, int[] offs, int counts) {
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            word(mem, sh, r, vi, base + l, l, offs[l], counts);
        }
    }

    /** Lane {@code l}'s (thread {@code s}) load or store of the checked word at {@code off}. */
    private void word(Memory mem, byte[] sh, long[] r, int vi, int s, int l, int off, int counts) {
        if (store) {
            mem.effects[s] += counts;
            mem.writes += counts;
            I32.set(sh, off, (int) (reg >= 0 ? r[vi + l] : imm));
        } else {
            long v = ((int) I32.get(sh, off)) & 0xFFFFFFFFL;
            if (signExtend) v = (int) v;
            if (reg >= 0) r[vi + l] = v & outMask;
        }
    }

    /**
     * Whether every lane's address is an aligned in-bounds word clear of valid mbarriers
     * ({@code mbw}, null when there are none: the inline path), each written to {@code offs}.
     */
    private boolean wholeWords(long[] r, int ai, int active, long last, byte[] mbw, int[] offs) {
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            long addr = (addrReg >= 0 ? r[ai + l] : 0) + offset;
            if ((addr & 3) != 0 || addr < 0 || addr > last || (mbw != null && mbw[(int) (addr >> 3)] != 0)) return false;
            offs[l] = (int) addr;
        }
        return true;
    }
}
