package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * A plain scalar {@code st.global} at {@code [reg+imm]} (or {@code [imm]}) of a register or an
 * immediate: the stores of a kernel's epilogue (a GEMM writes its C tile this way, one
 * instruction per accumulator register), compiled to one loop over the warp's lanes with the
 * register indices resolved once per warp instead of three per-lane lambdas (the op's, the
 * address's and the value's), and, with no memory-model analysis listening, the bounds of the
 * segment the lanes write found once per warp. Lanes store in lane order, each as
 * {@link Memory#storeGlobal} would (anything unusual goes through it), so the results, faults,
 * write counts and race-detector calls are those of the general {@code CheckedOp} form in
 * {@link MemoryOps}; strong (ordered) stores and vectors keep that form.
 */
final class GlobalStoreOp extends Op {
    /** Absolute register of the address base, or -1 for an absolute address. */
    private final int addrReg;
    private final long offset;
    private final int size;
    /** Absolute register of the value, or -1 for the immediate {@link #imm}. */
    private final int reg;
    private final long imm;

    private GlobalStoreOp(int addrReg, long offset, int size, int reg, long imm) {
        this.addrReg = addrReg;
        this.offset = offset;
        this.size = size;
        this.reg = reg;
        this.imm = imm;
    }

    /** The warp-wide form of a plain scalar global store of type {@code t}, or null when it needs the general one. */
    static Op of(CompileContext c, ScalarType t) {
        if (!(c.operand(0) instanceof Operand.Address a)) return null;
        int addrReg;
        if (a.base() == null) addrReg = -1;
        else if (a.base() instanceof Operand.Reg r && !r.negated()) addrReg = c.regBase + r.reg().index();
        else return null; // symbols keep the general form
        Operand v = c.operand(1);
        if (v instanceof Operand.Reg r && !r.negated()) return new GlobalStoreOp(addrReg, a.offset(), t.bytes(), c.regBase + r.reg().index(), 0);
        // An immediate is stored as CompileContext.src would give it: converted to the type's bit pattern.
        if (v instanceof Operand.Imm im) return new GlobalStoreOp(addrReg, a.offset(), t.bytes(), -1, c.immBits(im, t));
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
        if (mem.race == null) {
            inline(x, m, mem, r, ai, vi, warp, group, active);
            return;
        }
        if (size == 4 && checkedWords(m, mem, r, ai, vi, warp, group, active)) return;
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            int s = base + l;
            long addr = (addrReg >= 0 ? r[ai + l] : 0) + offset;
            try {
                mem.storeGlobal(addr, size, reg >= 0 ? r[vi + l] : imm, s);
            } catch (MemoryFault f) {
                reportLaneFault(x, s, f);
                return;
            }
        }
        advance(m, warp, group);
    }

    /**
     * With a memory-model analysis, the usual epilogue store: every lane's aligned word in the
     * segment the last access found (writable, no write watch). The lanes' accesses go to the hook
     * as one {@link MemoryModelHook#accessWords} call (which means each lane's access in lane order,
     * as storeGlobal makes them) and are written here; false, having done nothing, for any other
     * store, which then goes lane by lane.
     */
    private boolean checkedWords(Machine m, Memory mem, long[] r, int ai, int vi, int warp, int group, int active) {
        GlobalMemory.Segment seg = mem.global.lastWritable();
        if (seg == null) return false;
        long lo = seg.base();
        long hi = seg.end() - 4;
        int[] offs = mem.laneOffsets;
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            long addr = (addrReg >= 0 ? r[ai + l] : 0) + offset;
            if ((addr & 3) != 0 || addr < lo || addr > hi) return false;
            offs[l] = (int) (addr - lo);
        }
        mem.race.accessWords(mem.shared.length + mem.global.lastIndex(), offs, active, warp, true);
        byte[] data = seg.data();
        long[] effects = mem.effects;
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            effects[base + l]++;
            mem.writes++;
            Memory.write(data, offs[l], 4, reg >= 0 ? r[vi + l] : imm);
        }
        advance(m, warp, group);
        return true;
    }

    /**
     * Without a memory-model analysis: a lane whose aligned store lies in the segment the last
     * access found (writable, no write watch) is written here, as {@link Memory#storeGlobal} would
     * write it, with the segment's bounds found once rather than per lane; any other lane goes
     * through storeGlobal (which may find another segment, so the bounds are found again after it).
     */
    private void inline(Interpreter x, Machine m, Memory mem, long[] r, int ai, int vi, int warp, int group, int active) {
        int base = warp << 5;
        GlobalMemory.Segment seg = mem.global.lastWritable();
        byte[] data = seg == null ? null : seg.data();
        long lo = seg == null ? 1 : seg.base();
        long hi = seg == null ? 0 : seg.end() - size;
        long[] effects = mem.effects;
        for (int a = active; a != 0; a &= a - 1) {
            int l = Integer.numberOfTrailingZeros(a);
            int s = base + l;
            long addr = (addrReg >= 0 ? r[ai + l] : 0) + offset;
            long v = reg >= 0 ? r[vi + l] : imm;
            if ((addr & (size - 1)) == 0 && addr >= lo && addr <= hi) {
                effects[s]++;
                mem.writes++;
                Memory.write(data, (int) (addr - lo), size, v);
                continue;
            }
            try {
                mem.storeGlobal(addr, size, v, s);
            } catch (MemoryFault f) {
                reportLaneFault(x, s, f);
                return;
            }
            seg = mem.global.lastWritable();
            data = seg == null ? null : seg.data();
            lo = seg == null ? 1 : seg.base();
            hi = seg == null ? 0 : seg.end() - size;
        }
        advance(m, warp, group);
    }
}
