package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The wgmma-groups of every warp (PTX ISA 9.7.15.7.1-3): the {@code wgmma.mma_async}
 * operations a warp has issued, which group each was committed to, and when each lands.
 *
 * <p>An operation is formed when all four warps of its warpgroup have issued it (its operands
 * are read then). Its result lands in a warp's accumulator registers when that warp's
 * {@code wgmma.wait_group N} covers its group: the latest point the ISA allows. Copies get a
 * drawn latency (semantics.md, the async latency model) because mbarriers and wait_group both
 * observe them; a wgmma has no other completion mechanism than wait_group, so landing it there
 * is indistinguishable from any earlier time for a correct kernel, and makes a kernel that reads
 * the accumulators too early see the old values every time. Until then its accumulator and A
 * registers are in flight: any other instruction of the warp naming one is
 * {@code wgmma-accumulator-in-flight}. Its shared-memory operands are read back when it lands;
 * bytes that changed are {@code wgmma-operand-overwritten}.
 */
public final class WgmmaGroups {
    /** {@link Machine#waitArg2} of a thread waiting in wgmma.wait_group (its waitArg holds N). */
    public static final int WAITING = 2;

    /**
     * One warp's share of an operation, read when the warp issued it; the accumulator registers
     * ({@link WgmmaIssue#dIn}) are read in {@link #join}. {@code meta}: a sparse wgmma's metadata
     * register per lane (null for a dense one).
     */
    record Part(long[] aIn, int scaleD, long descA, long descB, int[] meta) {}

    /** The shared-memory words (8 bytes each) an operation read: checked again when it lands. */
    static final class Reads {
        /** Addresses (a shared-memory address that loaded fits an int). */
        private int[] addr;
        private long[] value;
        private int count;
        /** The CTA whose shared memory is read, found at the first read. */
        private int cta = -1;
        /** {@link Memory#writes} once every read was made: while it stays so, nothing can have changed them. */
        long writesAfter = -1;

        /** For about {@code expected} loads (more grow the arrays). */
        Reads(int expected) {
            int c = Math.max(expected, 8);
            addr = new int[c];
            value = new long[c];
        }

        /** The aligned 8-byte word at shared address {@code a}, as thread {@code slot} reads it. */
        long load8(Machine m, long a, int slot) {
            if (cta < 0) cta = m.ctaOfSlot(slot);
            long v = m.memory.loadShared(cta, a, 8, slot);
            if (count == addr.length) {
                addr = java.util.Arrays.copyOf(addr, 2 * count);
                value = java.util.Arrays.copyOf(value, 2 * count);
            }
            addr[count] = (int) a;
            value[count++] = v;
            return v;
        }

        /**
         * The first address whose bytes differ now, or -1. This is the engine checking, not the
         * program reading: the race detector is not told.
         */
        long changed(Machine m, int slot) {
            // Every write to memory (stores, atomics, copies landing) counts in Memory.writes.
            if (m.memory.writes == writesAfter) return -1;
            MemoryModelHook race = m.memory.race;
            m.memory.race = null;
            try {
                int cta = m.ctaOfSlot(slot);
                for (int i = 0; i < count; i++) if (m.memory.loadShared(cta, addr[i], 8, slot) != value[i]) return addr[i];
                return -1;
            } finally {
                m.memory.race = race;
            }
        }
    }

    private final int warpsPerCta;
    private final List<List<WgmmaIssue>> inflight;
    private final long[] commits;
    private final int[] issued;
    private final BitSet[] busy;
    /** Operations in flight over all warps, so the per-step check costs nothing without wgmma. */
    private int total;
    /** Multiply-adds of every operation formed so far (64 x N x K each): a statistic for benchmarks. */
    public long multiplyAdds;
    /** Per pc, the absolute registers an instruction names: the program's, shared by its runs. */
    private final int[][] named;

    /** True when the program has a wgmma.mma_async: only then are instructions checked and tracked. */
    final boolean tracking;
    private final WgmmaFence fence;

    WgmmaGroups(int warps, int warpsPerCta, Program program) {
        this.warpsPerCta = warpsPerCta;
        boolean any = false;
        for (Op op : program.code) any |= op instanceof WgmmaOp;
        tracking = any;
        named = any ? program.analysis(WgmmaNamedRegisters.class, WgmmaNamedRegisters::new).byPc : null;
        fence = new WgmmaFence(any ? warps : 0, program.regsPerThread);
        inflight = new ArrayList<>(warps);
        for (int i = 0; i < warps; i++) inflight.add(new ArrayList<>());
        commits = new long[warps];
        issued = new int[warps];
        busy = new BitSet[warps];
    }

    /** Whether any operation is in flight anywhere. */
    public boolean any() { return total > 0; }

    /** wgmma.fence by warp {@code warp}. */
    void fence(int warp) {
        if (tracking) fence.fence(warp);
    }

    /** Warp {@code warp} issued {@code op}. */
    void join(Interpreter x, WgmmaOp op, int warp, Part part) {
        Machine m = x.machine();
        int unfenced = fence.unfenced(warp, op);
        if (unfenced >= 0) {
            int at = fence.lastPc(warp, unfenced);
            x.report(DiagnosticCode.WGMMA_MISSING_FENCE, m.warpName(warp) + " issues " + op.insn.mnemonic() + " at " + x.where(op.pc)
                    + " on " + name(op, unfenced) + ", which the instruction at " + x.where(at) + " accessed after the warp's last"
                    + " wgmma.fence (or with none before it); a wgmma.fence must separate them (PTX ISA 9.7.15.7.1)",
                    new int[] {op.pc, at}, new int[] {warp << 5}, null);
            return;
        }
        int cta = warp / warpsPerCta;
        int local = warp % warpsPerCta;
        int first = cta * warpsPerCta + (local & ~3);
        int r = local & 3;
        if ((local & ~3) + 4 > warpsPerCta) {
            x.report(DiagnosticCode.WARPGROUP_COLLECTIVE_PARTIAL, op.insn.mnemonic() + " at " + x.where(op.pc) + " in " + m.warpName(warp)
                    + ": its warpgroup (warps " + (local & ~3) + ".." + ((local & ~3) + 3) + " of the CTA) has only " + (warpsPerCta - (local & ~3))
                    + " warp(s); wgmma needs all four warps of a warpgroup (PTX ISA 9.7.15.5)", new int[] {op.pc}, new int[] {warp << 5}, null);
            return;
        }
        int seq = issued[warp]++;
        WgmmaIssue is = null;
        for (int w = first; w < first + 4 && is == null; w++) {
            for (WgmmaIssue e : inflight.get(w)) if (e.seq == seq && e.first == first && (e.joined & (1 << r)) == 0) is = e;
        }
        if (is == null) {
            is = new WgmmaIssue(op, first, seq);
        } else if (is.op != op) {
            int other = Integer.numberOfTrailingZeros(is.joined);
            x.report(DiagnosticCode.WARPGROUP_COLLECTIVE_PARTIAL, m.warpName(warp) + " issues " + op.insn.mnemonic() + " at " + x.where(op.pc)
                    + " where " + m.warpName(first + other) + " of its warpgroup issued the one at " + x.where(is.op.pc)
                    + "; .aligned requires all four warps to execute the same wgmma instruction (PTX ISA 9.7.15.5)",
                    new int[] {op.pc, is.op.pc}, new int[] {warp << 5, (first + other) << 5}, null);
            return;
        } else {
            Part p0 = is.parts[Integer.numberOfTrailingZeros(is.joined)];
            if (p0.descA() != part.descA() || p0.descB() != part.descB()) {
                x.report(DiagnosticCode.WGMMA_BAD_DESCRIPTOR, "the warps of a warpgroup pass different matrix descriptors to "
                        + op.insn.mnemonic() + " at " + x.where(op.pc) + " (" + m.warpName(warp) + "); a descriptor describes one"
                        + " matrix for the whole warpgroup (PTX ISA 9.7.15.5.1)", new int[] {op.pc}, new int[] {warp << 5}, null);
                return;
            }
        }
        is.parts[r] = part;
        is.joined |= 1 << r;
        if (x.observed()) x.emit(SyncEvent.WGMMA_ISSUE, warp << 5, seq, op.pc, first);
        // Operations on the same accumulators are ordered (PTX ISA 9.7.15.5.2): an earlier one of
        // this warp still in flight feeds this one, whenever either lands.
        int len = op.d.length;
        WgmmaIssue[] from = new WgmmaIssue[len];
        int[] fromIdx = new int[len];
        for (WgmmaIssue e : inflight.get(warp)) {
            int[] ed = e.op.d;
            if (java.util.Arrays.equals(ed, op.d)) {
                // The usual chain (the same accumulators, e.g. successive K steps): register p feeds register p.
                java.util.Arrays.fill(from, e);
                System.arraycopy(op.lastSame(), 0, fromIdx, 0, len);
                continue;
            }
            for (int j = 0; j < ed.length; j++) {
                for (int p = 0; p < len; p++) {
                    if (op.d[p] == ed[j]) {
                        from[p] = e;
                        fromIdx[p] = j;
                    }
                }
            }
        }
        is.from[r] = from;
        is.fromIdx[r] = fromIdx;
        // With scale-d false in every lane the accumulators are not inputs at all.
        is.dIn[r] = part.scaleD() == 0 ? null : op.readAccumulators(m, warp << 5, from);
        inflight.get(warp).add(is);
        total++;
        markBusy(warp);
        if (is.joined == 15) {
            form(x, is);
            if (x.finished()) return;
            for (int w = first; w < first + 4; w++) release(x, w);
        }
    }

    /**
     * Warp {@code r}'s accumulator input of {@code is}: the registers read at issue, with those an
     * earlier operation in flight feeds taken from its result (shared, not copied, when that
     * operation feeds every register in order: the usual chain over K; nothing changes them).
     */
    private static int[] input(WgmmaIssue is, int r, int len) {
        if (is.parts[r].scaleD() == 0) return null; // D = A B: no input read
        WgmmaIssue[] from = is.from[r];
        int[] idx = is.fromIdx[r];
        WgmmaIssue e0 = from[0];
        boolean whole = e0 != null && e0.op.d.length == len;
        for (int p = 0; p < len && whole; p++) whole = from[p] == e0 && idx[p] == p;
        if (whole) {
            e0.materialize();
            return e0.result[r];
        }
        int[] d = null;
        for (int p = 0; p < len; p++) {
            WgmmaIssue e = from[p];
            if (e == null) continue;
            e.materialize();
            // Read at issue: never changed in place (checkpoints share it); null when every register is fed.
            if (d == null) d = is.dIn[r] == null ? new int[32 * len] : is.dIn[r].clone();
            System.arraycopy(e.result[r], idx[p] << 5, d, p << 5, 32);
        }
        return d == null ? is.dIn[r] : d;
    }

    /**
     * The unrounded sums that feed {@code is} as a whole, or null: an f32 operation whose every
     * warp, scale-d true in every lane, takes all its accumulators, in order, from one earlier
     * operation of the same N whose result is still kept as sums (the usual chain over K).
     */
    private static double[] chainFeed(WgmmaIssue is, int len) {
        if (is.op.td != io.barrierscope.exec.MmaOp.Elem.F32) return null;
        WgmmaIssue e0 = is.from[0] == null ? null : is.from[0][0];
        if (e0 == null || e0.sums == null || e0.op.n != is.op.n || e0.op.d.length != len) return null;
        for (int r = 0; r < 4; r++) {
            if (is.parts[r].scaleD() != -1) return null;
            WgmmaIssue[] from = is.from[r];
            int[] idx = is.fromIdx[r];
            for (int p = 0; p < len; p++) if (from[p] != e0 || idx[p] != p) return null;
        }
        return e0.sums;
    }

    /** Forms the product of an operation all four warps have issued. */
    private void form(Interpreter x, WgmmaIssue is) {
        Machine m = x.machine();
        int[][] dIn = new int[4][];
        int len = is.op.d.length;
        double[] feed = chainFeed(is, len);
        for (int r = 0; r < 4; r++) {
            dIn[r] = feed != null ? null : input(is, r, len);
            is.from[r] = null; // formed: the inputs are no longer needed
            is.dIn[r] = null;
        }
        Reads reads = new Reads(is.op.operandWords());
        // Descriptor operands are read through the async proxy (PTX ISA 9.7.15.4): the race detector checks the writers' proxy fences.
        MemoryModelHook race = m.memory.race;
        if (race != null) race.beginAsyncProxyRead(is.first << 5, is.op.pc);
        WgmmaOp.Scratch scratch = WgmmaOp.Scratch.MINE.get();
        scratch.feed = feed;
        try {
            int[][] res = is.op.compute(m, is.first << 5, is.parts, dIn, reads);
            if (res == WgmmaOp.PENDING) {
                is.sums = scratch.pending;
                scratch.pending = null;
            } else {
                is.result = res;
            }
            reads.writesAfter = m.memory.writes;
            is.reads = reads;
            multiplyAdds += 64L * is.op.n * is.op.k;
        } catch (MemoryFault f) {
            x.report(f.code(), f.getMessage() + " in " + is.op.insn.mnemonic() + " at " + x.where(is.op.pc) + " (the warpgroup of "
                    + m.warpName(is.first) + ")", new int[] {is.op.pc}, new int[] {is.first << 5}, null);
        } finally {
            if (race != null) race.endAsyncProxyRead();
        }
    }

    /** wgmma.commit_group by warp {@code warp}: its open operations become one group (an empty one if none). */
    void commit(Interpreter x, int warp) {
        int ops = 0;
        for (WgmmaIssue is : inflight.get(warp)) {
            int r = warp - is.first;
            if (is.group[r] < 0) {
                is.group[r] = commits[warp];
                ops++;
            }
        }
        if (x.observed()) x.emit(SyncEvent.WGMMA_COMMIT, warp << 5, commits[warp], ops, 0);
        commits[warp]++;
    }

    /**
     * wgmma.wait_group {@code allowed} by warp {@code warp}: lands every operation of its groups
     * but the newest {@code allowed} and returns true, or returns false (changing nothing) when one
     * of them is not formed yet because a warp of the warpgroup has not issued it.
     */
    boolean tryWait(Interpreter x, int warp, int allowed) {
        Machine m = x.machine();
        long limit = commits[warp] - allowed;
        List<WgmmaIssue> list = inflight.get(warp);
        for (WgmmaIssue is : list) {
            int r = warp - is.first;
            if (is.group[r] < 0 || is.group[r] >= limit || is.formed()) continue;
            for (int w = 0; w < 4; w++) {
                int other = is.first + w;
                if ((is.joined & (1 << w)) == 0 && m.liveMask[other] == 0) {
                    x.report(DiagnosticCode.WARPGROUP_COLLECTIVE_PARTIAL, m.warpName(warp) + " waits at " + x.where(m.pc[warp << 5])
                            + " for the " + is.op.insn.mnemonic() + " at " + x.where(is.op.pc) + ", which " + m.warpName(other)
                            + " of its warpgroup exited without issuing; all four warps must execute it (PTX ISA 9.7.15.5)",
                            new int[] {is.op.pc}, new int[] {warp << 5, other << 5}, null);
                    return false;
                }
            }
            return false;
        }
        for (int i = 0; i < list.size(); i++) {
            WgmmaIssue is = list.get(i);
            int r = warp - is.first;
            if (is.group[r] < 0 || is.group[r] >= limit) continue;
            if (x.observed()) x.emit(SyncEvent.WGMMA_RETIRE, warp << 5, is.seq, is.group[r], 0);
            // A later operation landing here on the same registers overwrites them all; unobserved,
            // nothing sees them in between, so this one's are written only if the run stops first.
            boolean superseded = !x.observed() && supersededAfter(list, i, warp, limit);
            land(x, warp, is, superseded);
            list.remove(i--);
            total--;
            if (x.finished()) {
                if (superseded) write(m, warp, is);
                break;
            }
            if (is.landed == 15 && is.sums != null) {
                // Every warp landed it under a later result: its bits are never needed (a checkpoint would have made them).
                WgmmaOp.Scratch.MINE.get().release(is.sums);
                is.sums = null;
            }
        }
        markBusy(warp);
        return true;
    }

    /** Whether an operation after {@code list[i]} that {@code wgmma.wait_group} lands now in {@code warp} has the same accumulators. */
    private static boolean supersededAfter(List<WgmmaIssue> list, int i, int warp, long limit) {
        int[] d = list.get(i).op.d;
        for (int j = i + 1; j < list.size(); j++) {
            WgmmaIssue e = list.get(j);
            int r = warp - e.first;
            if (e.group[r] >= 0 && e.group[r] < limit && java.util.Arrays.equals(e.op.d, d)) return true;
        }
        return false;
    }

    /** Writes {@code is}'s result into warp {@code warp}'s accumulator registers. */
    private static void write(Machine m, int warp, WgmmaIssue is) {
        is.materialize();
        // The result is register-major, as Machine.regs keeps a register's 32 lanes side by side.
        int regRow = (warp << 5) * m.regsPerThread;
        int[] res = is.result[warp - is.first];
        int[] d = is.op.d;
        long[] regs = m.regs;
        for (int j = 0; j < d.length; j++) {
            int to = regRow + (d[j] << 5);
            for (int l = 0; l < 32; l++) regs[to + l] = res[(j << 5) + l] & 0xFFFFFFFFL;
        }
    }

    private void land(Interpreter x, int warp, WgmmaIssue is, boolean superseded) {
        Machine m = x.machine();
        int base = warp << 5;
        if (!superseded) write(m, warp, is);
        is.landed |= 1 << (warp - is.first);
        if (is.checked) return;
        is.checked = true;
        long at = is.reads.changed(m, is.first << 5);
        if (at >= 0) {
            x.report(DiagnosticCode.WGMMA_OPERAND_OVERWRITTEN, "shared memory at 0x" + Long.toHexString(at) + ", an operand of the "
                    + is.op.insn.mnemonic() + " at " + x.where(is.op.pc) + " (" + m.warpName(is.first) + "'s warpgroup), changed before"
                    + " the operation completed at the wgmma.wait_group at " + x.where(m.pc[base]) + "; its operands must not be"
                    + " written while it is in flight (PTX ISA 9.7.15.5.2)", new int[] {is.op.pc, m.pc[base]}, new int[] {base}, null);
        }
    }

    /**
     * Lanes of {@code warp} exited: lanes of the same warp gathering at a wgmma fence, commit or
     * wait can never be joined by them, and warps of the warpgroup waiting for an operation the
     * warp did not issue never will be: both are diagnostics (checked now rather than left to
     * deadlock).
     */
    void onExit(Interpreter x, int warp) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int l = 0; l < 32; l++) {
            int s = base + l;
            if (m.status[s] == ThreadStatus.ASYNC_WAIT && m.waitArg2[s] == WAITING) {
                int exited = m.existMask[warp] & ~m.liveMask[warp];
                x.report(DiagnosticCode.WARP_COLLECTIVE_PARTIAL, "lanes 0x" + Integer.toHexString(exited) + " of " + m.warpName(warp)
                        + " exited while lane " + l + " waits for them at " + op(m, s) + " at " + x.where(m.pc[s])
                        + "; a .sync.aligned wgmma instruction needs the whole warp (PTX ISA 9.7.15)", new int[] {m.pc[s]},
                        new int[] {s}, null);
                return;
            }
        }
        int cta = warp / warpsPerCta;
        int local = warp % warpsPerCta;
        if ((local & ~3) + 4 > warpsPerCta || m.liveMask[warp] != 0) return;
        int first = cta * warpsPerCta + (local & ~3);
        for (int w = first; w < first + 4 && !x.finished(); w++) if (w != warp) release(x, w);
    }

    private static String op(Machine m, int s) { return m.program.code[m.pc[s]].insn.mnemonic(); }

    /** Releases warp {@code warp}'s threads waiting in wgmma.wait_group if their groups can land now. */
    private void release(Interpreter x, int warp) {
        Machine m = x.machine();
        int base = warp << 5;
        int lanes = 0;
        for (int l = 0; l < 32; l++) {
            if (m.status[base + l] == ThreadStatus.ASYNC_WAIT && m.waitArg2[base + l] == WAITING) lanes |= 1 << l;
        }
        // Only a whole warp gathered at a wait (not one still gathering, nor a fence or commit) can go on.
        if (lanes == 0 || lanes != m.existMask[warp] || m.waitArg[base + Integer.numberOfTrailingZeros(lanes)] < 0) return;
        if (!tryWait(x, warp, m.waitArg[base + Integer.numberOfTrailingZeros(lanes)])) return;
        for (int g = lanes; g != 0; g &= g - 1) m.pc[base + Integer.numberOfTrailingZeros(g)]++;
        m.uniform[warp] = false;
        m.setStatusLanes(warp, lanes, ThreadStatus.RUNNABLE);
    }

    private void markBusy(int warp) {
        List<WgmmaIssue> list = inflight.get(warp);
        if (list.isEmpty()) {
            busy[warp] = null;
            return;
        }
        if (list.size() == 1) {
            busy[warp] = list.get(0).op.registerSet(); // shared: never changed once made
            return;
        }
        BitSet b = new BitSet();
        for (WgmmaIssue is : list) {
            for (int r : is.op.d) b.set(r);
            if (is.op.aIdx != null) for (int r : is.op.aIdx) if (r >= 0) b.set(r);
        }
        busy[warp] = b;
    }

    /**
     * Before warp {@code warp} executes {@code op} (programs with wgmma only): an instruction
     * other than wgmma's own that names a register of an operation in flight is a diagnostic;
     * the registers it names are remembered for the next wgmma.fence check.
     */
    void beforeOp(Interpreter x, int warp, Op op) {
        if (op instanceof WgmmaOp || op instanceof WgmmaGroupOp) return;
        Machine m = x.machine();
        int[] regs = named[op.pc];
        fence.touch(warp, regs, op.pc);
        BitSet b = busy[warp];
        if (b == null) return;
        for (int i = 0; i < regs.length; i++) {
            if (!b.get(regs[i])) continue;
            String name = found(op).get(i).reg().name();
            WgmmaIssue owner = null;
            for (WgmmaIssue is : inflight.get(warp)) {
                for (int r : is.op.d) if (r == regs[i] && owner == null) owner = is;
                if (is.op.aIdx != null) for (int r : is.op.aIdx) if (r == regs[i] && owner == null) owner = is;
            }
            x.report(DiagnosticCode.WGMMA_ACCUMULATOR_IN_FLIGHT, m.warpName(warp) + " accesses " + name + " at " + x.where(op.pc)
                    + ", a register of the " + owner.op.insn.mnemonic() + " at " + x.where(owner.op.pc) + " still in flight: no"
                    + " wgmma.wait_group has covered its group yet (PTX ISA 9.7.15.5.2)", new int[] {op.pc, owner.op.pc},
                    new int[] {warp << 5}, null);
            return;
        }
    }

    private static List<Operand.Reg> found(Op op) {
        List<Operand.Reg> found = new ArrayList<>();
        registers(op.insn.operands(), found);
        if (op.insn.guard() != null) found.add(op.insn.guard());
        return found;
    }

    /** The PTX name of absolute register {@code reg} among {@code op}'s operands. */
    private static String name(Op op, int reg) {
        for (Operand.Reg r : found(op)) if (op.regBase + r.reg().index() == reg) return r.reg().name();
        return "register " + reg;
    }

    private static void registers(List<Operand> ops, List<Operand.Reg> out) {
        for (Operand o : ops) {
            if (o instanceof Operand.Reg r) out.add(r);
            else if (o instanceof Operand.Video v) out.add(v.reg());
            else if (o instanceof Operand.Vector v) registers(v.elements(), out);
            else if (o instanceof Operand.ParenList p) registers(p.elements(), out);
            else if (o instanceof Operand.Pair p) registers(List.of(p.first(), p.second()), out);
            else if (o instanceof Operand.Address a) registers(List.of(a.base()), out);
        }
    }

    /** A copy of the state (for checkpoints). */
    public Saved save() { return new Saved(this); }

    /** Puts the state of {@link #save} back. */
    public void restore(Saved s) {
        IdentityHashMap<WgmmaIssue, WgmmaIssue> copies = new IdentityHashMap<>();
        for (int w = 0; w < inflight.size(); w++) {
            List<WgmmaIssue> list = inflight.get(w);
            list.clear();
            for (WgmmaIssue is : s.inflight.get(w)) list.add(copies.computeIfAbsent(is, WgmmaIssue::copy));
            busy[w] = s.busy[w];
        }
        for (List<WgmmaIssue> list : inflight) for (WgmmaIssue is : list) is.remap(copies);
        System.arraycopy(s.commits, 0, commits, 0, commits.length);
        System.arraycopy(s.issued, 0, issued, 0, issued.length);
        total = s.total;
        multiplyAdds = s.multiplyAdds;
        fence.copyFrom(s.fence);
    }

    /** A checkpoint of every warp's groups. */
    public static final class Saved {
        private final List<List<WgmmaIssue>> inflight = new ArrayList<>();
        private final long[] commits;
        private final int[] issued;
        private final BitSet[] busy;
        private final int total;
        private final long multiplyAdds;
        private final WgmmaFence fence;

        private Saved(WgmmaGroups g) {
            fence = g.fence.copy();
            IdentityHashMap<WgmmaIssue, WgmmaIssue> copies = new IdentityHashMap<>();
            for (List<WgmmaIssue> list : g.inflight) {
                List<WgmmaIssue> c = new ArrayList<>(list.size());
                for (WgmmaIssue is : list) c.add(copies.computeIfAbsent(is, WgmmaIssue::copy));
                inflight.add(c);
            }
            for (List<WgmmaIssue> list : inflight) for (WgmmaIssue is : list) is.remap(copies);
            commits = g.commits.clone();
            issued = g.issued.clone();
            busy = g.busy.clone();
            total = g.total;
            multiplyAdds = g.multiplyAdds;
        }

        public long bytes() { return 64 + 12L * commits.length + 32L * total; }
    }
}
