package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Directives;

/**
 * The per-CTA register pool of {@code setmaxnreg} (PTX ISA 9.7.19.5) and the warpgroup rules
 * around it (semantics.md section 11).
 *
 * <p>Each warp owns a per-thread maximum register count. At entry it is the kernel's budget:
 * {@code .maxnreg N}, or, with launch bounds only ({@code .maxntid}/{@code .reqntid}, optionally
 * {@code .minnctapersm}), the most a thread can have when that many threads share an SM's 64K
 * registers (at most 255, rounded down to a multiple of 8, the allocation unit). Without either
 * the ISA says setmaxnreg "may have no effect": the count is unknown, and neither the direction
 * rule nor the pool is checked. The pool of a CTA starts empty: a {@code .dec} puts a warp's
 * released registers in it and a {@code .inc} blocks until it holds what the warp asks for.
 * Registers of exited warps are not given back (the ISA does not say they are).
 */
public final class RegisterPool {
    /** {@link Machine#waitArg2} of a lane waiting at setmaxnreg (for its warp, or for registers). */
    public static final int REGISTERS = 3;

    private final int warpsPerCta;
    private final int groupsPerCta;
    /** Per-thread count of every warp at entry, 0 when the kernel gives no budget. */
    public final int initial;
    private final int[] count;
    private final int[] executed;
    /** Per warp: its setmaxnreg passed the rules and waits for registers. */
    private final boolean[] pending;
    /** Per CTA: registers (per-thread count times 32 per warp) in its pool. */
    private final long[] pool;
    /** Per warpgroup: the fewest setmaxnregs any of its warps had executed at its last explicit synchronization. */
    private final int[] syncedAfter;
    /** Per warpgroup: the PC of its k-th setmaxnreg, as the first warp to execute it did. */
    private final int[][] pcs;
    private boolean used;

    RegisterPool(int warps, int warpsPerCta, int threadsPerCta, Directives d) {
        this.warpsPerCta = warpsPerCta;
        this.groupsPerCta = (warpsPerCta + 3) / 4;
        int ctas = warps / Math.max(1, warpsPerCta);
        this.initial = budget(d, threadsPerCta);
        count = new int[warps];
        java.util.Arrays.fill(count, initial);
        executed = new int[warps];
        pending = new boolean[warps];
        pool = new long[ctas];
        syncedAfter = new int[ctas * groupsPerCta];
        pcs = new int[ctas * groupsPerCta][];
    }

    /** The per-thread register count at entry (see the class comment), 0 when unknown. */
    static int budget(Directives d, int threadsPerCta) {
        if (d == null) return 0;
        if (d.maxnreg() > 0) return d.maxnreg();
        int[] ntid = d.reqntid() != null ? d.reqntid() : d.maxntid();
        if (ntid == null) return 0;
        long threads = 1;
        for (int v : ntid) threads *= Math.max(1, v);
        threads = (threads + 31) / 32 * 32;
        long perThread = 65536 / (threads * Math.max(1, d.minnctapersm()));
        return (int) (Math.min(255, perThread) / 8 * 8);
    }

    int group(Machine m, int warp) { return m.ctaOfWarp(warp) * groupsPerCta + m.warpInCta(warp) / 4; }

    public int count(int warp) { return count[warp]; }

    boolean pending(int warp) { return pending[warp]; }

    /**
     * Checks the warp's next setmaxnreg against the ISA's rules; false (a diagnostic reported)
     * when one is broken. Called once per execution, when the whole warp has met.
     */
    boolean admit(Interpreter x, Machine m, int warp, SetmaxnregOp op) {
        used = true;
        int slot = warp << 5;
        String what = op.insn.mnemonic() + " " + op.regs + " at " + x.where(op.pc) + " in " + m.warpName(warp);
        if (op.regs < 24 || op.regs > 256 || op.regs % 8 != 0) {
            x.report(DiagnosticCode.SETMAXNREG_BAD_COUNT, what + ": imm-reg-count must be in the range 24 to 256 and a "
                    + "multiple of 8 (PTX ISA 9.7.19.5)", new int[] {op.pc}, new int[] {slot}, null);
            return false;
        }
        int wInCta = m.warpInCta(warp);
        int first = wInCta / 4 * 4;
        if (first + 4 > warpsPerCta) {
            x.report(DiagnosticCode.SETMAXNREG_WARPGROUP_PARTIAL, what + ": its warpgroup has only " + (warpsPerCta - first)
                    + " warps in this CTA; the same setmaxnreg must be executed by all four warps of a warpgroup "
                    + "(PTX ISA 9.7.19.5)", new int[] {op.pc}, new int[] {slot}, null);
            return false;
        }
        int g = group(m, warp);
        int k = executed[warp];
        int w0 = warp - wInCta + first;
        if (pcs[g] != null && k < pcs[g].length && pcs[g][k] >= 0 && pcs[g][k] != op.pc) {
            int other = pcs[g][k];
            x.report(DiagnosticCode.SETMAXNREG_WARPGROUP_PARTIAL, what + " is its setmaxnreg number " + (k + 1)
                    + ", but another warp of its warpgroup executed " + x.op(other).insn.text() + " at " + x.where(other)
                    + " as that one; the same setmaxnreg must be executed by all warps in a warpgroup (PTX ISA 9.7.19.5)",
                    new int[] {op.pc, other}, new int[] {slot}, null);
            return false;
        }
        for (int w = w0; w < w0 + 4; w++) {
            if (m.liveMask[w] == 0 && executed[w] <= k) {
                x.report(DiagnosticCode.SETMAXNREG_WARPGROUP_PARTIAL, what + ": " + m.warpName(w) + " of its warpgroup exited "
                        + "without executing it; the same setmaxnreg must be executed by all warps in a warpgroup "
                        + "(PTX ISA 9.7.19.5)", new int[] {op.pc}, new int[] {slot, w << 5}, null);
                return false;
            }
        }
        if (k > 0 && syncedAfter[g] < k) {
            x.report(DiagnosticCode.SETMAXNREG_MISSING_SYNC, what + " follows its setmaxnreg number " + k + " with no "
                    + "barrier in between that all four warps of the warpgroup waited at after it; \"all warps in the "
                    + "warpgroup must synchronize explicitly before executing subsequent setmaxnreg instructions\" "
                    + "(PTX ISA 9.7.19.5)", new int[] {op.pc}, new int[] {slot}, null);
            return false;
        }
        int cur = count[warp];
        if (cur > 0 && (op.inc ? op.regs < cur : op.regs > cur)) {
            x.report(DiagnosticCode.SETMAXNREG_WRONG_DIRECTION, what + ": the warp owns " + cur + " registers per thread; "
                    + (op.inc ? ".inc to fewer" : ".dec to more") + " is undefined (PTX ISA 9.7.19.5)",
                    new int[] {op.pc}, new int[] {slot}, null);
            return false;
        }
        if (pcs[g] == null) pcs[g] = new int[0];
        if (k >= pcs[g].length) {
            int n = pcs[g].length;
            pcs[g] = java.util.Arrays.copyOf(pcs[g], k + 1);
            java.util.Arrays.fill(pcs[g], n, k + 1, -1);
        }
        if (pcs[g][k] < 0) pcs[g][k] = op.pc;
        pending[warp] = true;
        return true;
    }

    /** Gives an admitted warp its new count if the pool allows; false while a .inc must wait. */
    boolean tryGrant(Machine m, int warp, SetmaxnregOp op) {
        int cur = count[warp];
        int cta = m.ctaOfWarp(warp);
        if (cur > 0) {
            long delta = 32L * (op.regs - cur);
            if (delta > pool[cta]) return false;
            pool[cta] -= delta;
            count[warp] = op.regs;
        }
        pending[warp] = false;
        executed[warp]++;
        return true;
    }

    /** Registers a CTA's pool holds now. */
    public long pool(int cta) { return pool[cta]; }

    /**
     * A CTA barrier completed releasing the warps of {@code released} (bits by warp in CTA): a
     * warpgroup all of whose warps waited there has synchronized explicitly after the setmaxnregs
     * each had executed.
     */
    public void barrierCompleted(Machine m, int cta, long released) {
        if (!used) return;
        for (int q = 0; q < groupsPerCta; q++) {
            if (4 * q + 4 > warpsPerCta || ((released >>> (4 * q)) & 0xF) != 0xF) continue;
            int w0 = m.firstWarpOfCta(cta) + 4 * q;
            int min = Integer.MAX_VALUE;
            for (int w = w0; w < w0 + 4; w++) min = Math.min(min, executed[w]);
            int g = cta * groupsPerCta + q;
            syncedAfter[g] = Math.max(syncedAfter[g], min);
        }
    }

    /** A warp exited for good: another warp of its warpgroup that executed more setmaxnregs than it is reported. */
    void onWarpExit(Interpreter x, Machine m, int warp) {
        if (!used || m.liveMask[warp] != 0) return;
        int wInCta = m.warpInCta(warp);
        int w0 = warp - wInCta + wInCta / 4 * 4;
        if (wInCta / 4 * 4 + 4 > warpsPerCta) return;
        int g = group(m, warp);
        for (int w = w0; w < w0 + 4; w++) {
            if (executed[w] > executed[warp]) {
                int pc = pcs[g][executed[warp]];
                x.report(DiagnosticCode.SETMAXNREG_WARPGROUP_PARTIAL, m.warpName(warp) + " exited without executing "
                        + x.op(pc).insn.text() + " (" + x.where(pc) + "), which " + m.warpName(w) + " of its warpgroup executed; "
                        + "the same setmaxnreg must be executed by all warps in a warpgroup (PTX ISA 9.7.19.5)",
                        new int[] {pc}, new int[] {warp << 5, w << 5}, null);
                return;
            }
        }
    }

    public Saved save() { return new Saved(this); }

    public void restore(Saved s) {
        System.arraycopy(s.count, 0, count, 0, count.length);
        System.arraycopy(s.executed, 0, executed, 0, executed.length);
        System.arraycopy(s.pending, 0, pending, 0, pending.length);
        System.arraycopy(s.pool, 0, pool, 0, pool.length);
        System.arraycopy(s.syncedAfter, 0, syncedAfter, 0, syncedAfter.length);
        for (int g = 0; g < pcs.length; g++) pcs[g] = s.pcs[g] == null ? null : s.pcs[g].clone();
        used = s.used;
    }

    /** A checkpoint of the pool. */
    public static final class Saved {
        private final int[] count;
        private final int[] executed;
        private final boolean[] pending;
        private final long[] pool;
        private final int[] syncedAfter;
        private final int[][] pcs;
        private final boolean used;

        private Saved(RegisterPool p) {
            count = p.count.clone();
            executed = p.executed.clone();
            pending = p.pending.clone();
            pool = p.pool.clone();
            syncedAfter = p.syncedAfter.clone();
            pcs = new int[p.pcs.length][];
            for (int g = 0; g < pcs.length; g++) pcs[g] = p.pcs[g] == null ? null : p.pcs[g].clone();
            used = p.used;
        }

        public long bytes() { return 64 + 9L * count.length + 8L * pool.length + 12L * syncedAfter.length; }
    }
}
