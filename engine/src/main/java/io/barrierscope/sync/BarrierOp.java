package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.ThreadStatus;

/**
 * {@code bar}/{@code barrier{.cta}} .sync, .arrive and .red (PTX ISA 9.7.13.1). Each executing
 * thread first waits for the non-exited threads of its warp; the warp's arrival is then counted
 * by {@link CtaBarrierSync}.
 */
public final class BarrierOp extends Op {
    public enum RedOp { POPC, AND, OR }

    public final CtaBarrier.Form form;
    public final boolean aligned;
    private final Src id;
    private final Src count;
    private final RedOp redOp;
    private final Src redPred;
    /** Destination register of .red, or -1. */
    public final int dst;
    /** Id and count are immediates: the same for every lane, checked once per warp. */
    boolean constantOperands;

    public BarrierOp(CtaBarrier.Form form, boolean aligned, Src id, Src count, RedOp redOp, Src redPred, int dst) {
        this.form = form;
        this.aligned = aligned;
        this.id = id;
        this.count = count;
        this.redOp = redOp;
        this.redPred = redPred;
        this.dst = dst;
    }

    public RedOp redOp() { return redOp; }

    /** The barrier id when the instruction names it as an immediate (as with its count), else -1. */
    public long constantId() { return constantOperands ? id.get(null, 0) & 0xFFFFFFFFL : -1; }


    @Override
    public boolean isSynchronizing() { return true; }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        advance(m, warp, group & ~active);
        int base = warp << 5;
        if (constantOperands && active != 0 && active == m.liveMask[warp] && arriveWholeWarp(x, m, warp, active, base)) {
            return;
        }
        int firstId = -1;
        int firstCnt = 0;
        boolean uniform = true;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            long bid = id.get(m, s) & 0xFFFFFFFFL;
            if (bid > 15) {
                x.report(DiagnosticCode.BARRIER_BAD_ID, "barrier id " + bid + " is outside 0..15 (PTX ISA 9.7.13.1)",
                        new int[] {pc}, new int[] {s}, BarrierRefs.ctaBarrier(m, m.ctaOfSlot(s), bid, "barrier " + bid));
                return;
            }
            int cnt = -1;
            if (count != null) {
                long c = count.get(m, s) & 0xFFFFFFFFL;
                if (c == 0 || c % 32 != 0) {
                    x.report(DiagnosticCode.BARRIER_BAD_COUNT, "barrier " + bid + " thread count " + c
                            + " is not a non-zero multiple of the warp size 32 (PTX ISA 9.7.13.1)",
                            new int[] {pc}, new int[] {s}, BarrierRefs.ctaBarrier(m, m.ctaOfSlot(s), bid, "barrier " + bid));
                    return;
                }
                cnt = storedCount(c);
            }
            if (firstId < 0) {
                firstId = (int) bid;
                firstCnt = cnt;
            } else {
                uniform &= firstId == bid && firstCnt == cnt;
            }
            m.waitArg[s] = (int) bid;
            m.waitArg2[s] = cnt;
            m.waitValue[s] = redPred == null ? 0 : redPred.get(m, s) & 1;
            m.setStatus(s, ThreadStatus.BAR_GATHER);
        }
        if (uniform && active != 0 && active == m.liveMask[warp]) {
            // The whole warp arrived together through this one instruction: nothing to gather or compare.
            CtaBarrierSync.arriveWarp(x, warp, active, firstId, firstCnt, pc, this, true);
        } else {
            CtaBarrierSync.tryGather(x, warp);
        }
    }

    /**
     * b is a .u32 thread count (PTX ISA 9.7.13.1): every non-zero multiple of 32 is valid, and one
     * above any CTA's size simply never completes. Kept as written (its 32 bits in an int, see
     * {@link CtaBarrier#count}), so two different counts past 2^31 still differ.
     */
    static int storedCount(long c) {
        return (int) c;
    }

    /**
     * The common case: every live lane of the warp executes this instruction together with
     * immediate operands, so there is nothing to gather; validate once and arrive the warp.
     */
    private boolean arriveWholeWarp(Interpreter x, Machine m, int warp, int active, int base) {
        int s0 = base + Integer.numberOfTrailingZeros(active);
        long bid = id.get(m, s0) & 0xFFFFFFFFL;
        long c = count == null ? -1 : count.get(m, s0) & 0xFFFFFFFFL;
        if (bid > 15 || (count != null && (c == 0 || c % 32 != 0))) {
            return false; // the per-lane path reports it
        }
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            m.waitArg[s] = (int) bid;
            m.waitArg2[s] = c < 0 ? -1 : storedCount(c);
            m.waitValue[s] = redPred == null ? 0 : redPred.get(m, s) & 1;
        }
        CtaBarrierSync.arriveWarp(x, warp, active, (int) bid, c < 0 ? -1 : storedCount(c), pc, this, true);
        return true;
    }
}
