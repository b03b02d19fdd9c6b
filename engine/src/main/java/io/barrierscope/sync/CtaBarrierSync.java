package io.barrierscope.sync;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;

/**
 * The arrival and completion rules of CTA barriers (semantics.md section 3): warp-granular
 * arrival once every non-exited thread of the warp is at a barrier instruction, completion
 * when the count is reached (or, without a count, when every warp with a live thread arrived),
 * re-checked whenever threads exit.
 */
public final class CtaBarrierSync {
    private CtaBarrierSync() {}

    /** Arrives the warp if all its live lanes are gathered at a CTA barrier. */
    static void tryGather(Interpreter x, int warp) {
        Machine m = x.machine();
        int base = warp << 5;
        int live = m.liveMask[warp];
        int gathered = 0;
        for (int l = live; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (m.status[base + lane] == ThreadStatus.BAR_GATHER) gathered |= 1 << lane;
        }
        if (gathered == 0 || gathered != live) return;
        int first = base + Integer.numberOfTrailingZeros(gathered);
        int id = m.waitArg[first];
        int cnt = m.waitArg2[first];
        int pc0 = m.pc[first];
        BarrierOp op0 = (BarrierOp) x.op(pc0);
        boolean red0 = op0.form == CtaBarrier.Form.RED;
        for (int g = gathered & (gathered - 1); g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            BarrierOp op = (BarrierOp) x.op(m.pc[s]);
            if (m.waitArg[s] != id) {
                x.report(DiagnosticCode.BARRIER_DIVERGENCE, m.warpName(warp) + " is split between barrier " + id + " at "
                        + x.where(pc0) + " and barrier " + m.waitArg[s] + " at " + x.where(m.pc[s])
                        + "; a warp arrives on one barrier at a time", new int[] {pc0, m.pc[s]}, new int[] {first, s},
                        gatherRef(m, warp, id));
                return;
            }
            // Whatever the forms: the producer/consumer exception is for different warps, not lanes of one warp.
            if (m.pc[s] != pc0 && (op.aligned || op0.aligned)) {
                x.report(DiagnosticCode.BARRIER_DIVERGENCE, "threads of " + m.warpName(warp) + " reached aligned barrier " + id
                        + " through different instructions, at " + x.where(pc0) + " and at " + x.where(m.pc[s])
                        + "; .aligned requires every thread to execute the same barrier instruction (PTX ISA 9.7.13.1)",
                        new int[] {pc0, m.pc[s]}, new int[] {first, s},
                        gatherRef(m, warp, id));
                return;
            }
            if ((op.form == CtaBarrier.Form.RED) != red0) {
                int redPc = red0 ? pc0 : m.pc[s];
                int otherPc = red0 ? m.pc[s] : pc0;
                x.report(DiagnosticCode.BARRIER_MIXED_RED, "threads of " + m.warpName(warp) + " arrive on barrier " + id
                        + " through barrier.red (" + x.where(redPc) + ") and barrier.sync/arrive (" + x.where(otherPc)
                        + "); .red mixed with other forms is unpredictable (PTX ISA 9.7.13.1)",
                        new int[] {redPc, otherPc}, new int[] {first, s},
                        gatherRef(m, warp, id));
                return;
            }
            if (m.waitArg2[s] != cnt && !sameThreadCount(m, m.waitArg2[s], cnt)) {
                x.report(DiagnosticCode.BARRIER_COUNT_MISMATCH, "threads of " + m.warpName(warp) + " arrive on barrier " + id
                        + " with different thread counts " + countText(cnt) + " and " + countText(m.waitArg2[s]),
                        new int[] {pc0, m.pc[s]}, new int[] {first, s},
                        gatherRef(m, warp, id));
                return;
            }
        }
        for (int g = gathered; g != 0; g &= g - 1) {
            if (m.waitArg2[base + Integer.numberOfTrailingZeros(g)] == -1) cnt = -1; // see arriveWarp
        }
        arriveWarp(x, warp, gathered, id, cnt, pc0, op0, false);
    }

    /**
     * Whether two stored counts name the same thread count (PTX ISA 9.7.13.1: forms may be mixed
     * "using the same barrier name and thread count"): equal, or one without a count ("all threads
     * in the CTA participate") and the other exactly the CTA's number of threads, as a producer's
     * {@code bar.arrive a, blockDim} (arrive needs a count) beside consumers' {@code bar.sync a}.
     */
    static boolean sameThreadCount(Machine m, int a, int b) {
        if (a == b) return true;
        int explicit = a == -1 ? b : b == -1 ? a : -2;
        return explicit != -2 && Integer.toUnsignedLong(explicit) == m.threadsPerCta;
    }

    /** A stored count (see {@link CtaBarrier#count}) as the program wrote it. */
    private static String countText(int c) { return c == -1 ? "(all threads)" : String.valueOf(Integer.toUnsignedLong(c)); }

    static void arriveWarp(Interpreter x, int warp, int lanes, int id, int cnt, int pc, BarrierOp op, boolean onePc) {
        Machine m = x.machine();
        int cta = m.ctaOfWarp(warp);
        CtaBarrier b = m.ctaBarriers[cta].get(id);
        int wbit = 1 << m.warpInCta(warp);
        if ((b.arrivedWarps & wbit) != 0) {
            String bname = barrierName(m, id, cta);
            x.report(DiagnosticCode.BARRIER_OVER_ARRIVAL, m.warpName(warp) + " arrived twice on " + bname + " in generation "
                    + b.generation + " (again at " + x.where(pc) + ") before it completed; keep a warp from executing more "
                    + "barrier instructions than intended before the reset (PTX ISA 9.7.13.1)",
                    new int[] {pc}, new int[] {(warp << 5) + Integer.numberOfTrailingZeros(lanes)},
                    BarrierRefs.ctaBarrier(m, cta, id, bname));
            return;
        }
        if (b.active()) {
            if (b.count != cnt && !sameThreadCount(m, b.count, cnt)) {
                String bname = barrierName(m, id, cta);
                x.report(DiagnosticCode.BARRIER_COUNT_MISMATCH, m.warpName(warp) + " arrives on " + bname + " with thread count "
                        + countText(cnt) + " at " + x.where(pc) + " but the current generation was opened with "
                        + countText(b.count), new int[] {pc}, new int[] {warp << 5}, BarrierRefs.ctaBarrier(m, cta, id, bname));
                return;
            }
        }
        if (!admit(x, b, warp, cta, pc, op)) return;
        if (!onePc) {
            // A split warp (non-aligned instructions only, tryGather made sure) brings every one of its forms.
            for (int l = lanes; l != 0; l &= l - 1) {
                int lpc = m.pc[(warp << 5) + Integer.numberOfTrailingZeros(l)];
                if (lpc != pc && !admit(x, b, warp, cta, lpc, (BarrierOp) x.op(lpc))) return;
            }
        }
        // A count-less arrival joining a count of the CTA's size makes it "all threads": completion then
        // waits for the non-exited warps whichever form came first, so the order of arrival never matters.
        if (!b.active() || cnt == -1) b.count = cnt;
        b.arrivedWarps |= wbit;
        if (m.race != null) m.race.barArrive(cta, id, warp, lanes);
        int base = warp << 5;
        int going = 0;
        int waiting = 0;
        if (onePc && op.form == CtaBarrier.Form.SYNC) {
            waiting = lanes; // every lane executes this bar.sync: all wait, nothing to sort
        } else for (int l = lanes; l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            BarrierOp lop = m.pc[s] == pc ? op : (BarrierOp) x.op(m.pc[s]);
            if (lop.form == CtaBarrier.Form.RED) {
                boolean p = m.waitValue[s] != 0;
                if (p) b.redPopc++;
                b.redAnd &= p;
                b.redOr |= p;
            }
            if (lop.form == CtaBarrier.Form.ARRIVE) {
                m.pc[s]++;
                m.uniform[s >> 5] = false;
                going |= l & -l;
            } else {
                waiting |= l & -l;
            }
        }
        m.setStatusLanes(warp, going, ThreadStatus.RUNNABLE);
        // All arriving lanes go from running to waiting (the usual case): the status change and the arrival are one event.
        boolean pair = going == 0 && x.observed() && m.status[base + Integer.numberOfTrailingZeros(waiting)] == ThreadStatus.RUNNABLE;
        if (m.setStatusLanes(warp, waiting, ThreadStatus.BAR_WAIT, !pair) && pair) {
            x.emitArriveWait(warp, lanes, ((long) cta << 32) | id, b.generation);
        } else if (x.observed()) {
            x.emit(SyncEvent.BAR_ARRIVE, base + Integer.numberOfTrailingZeros(lanes), ((long) cta << 32) | id, b.generation, lanes);
        }
        checkComplete(x, cta, b);
    }

    /**
     * Checks an arrival through the instruction at {@code pc} against the generation's earlier
     * ones (no .red beside other forms; one aligned instruction per form) and records its form.
     */
    private static boolean admit(Interpreter x, CtaBarrier b, int warp, int cta, int pc, BarrierOp op) {
        Machine m = x.machine();
        int form = op.form.ordinal();
        boolean red = op.form == CtaBarrier.Form.RED;
        int other = red ? Math.max(b.firstPc[0], b.firstPc[1]) : b.firstPc[2];
        if (other >= 0) {
            String bname = barrierName(m, b.id, cta);
            x.report(DiagnosticCode.BARRIER_MIXED_RED, bname + " mixes bar.red (" + x.where(red ? pc : other)
                    + ") with bar.sync/bar.arrive (" + x.where(red ? other : pc) + ") in one generation; "
                    + "execution is unpredictable (PTX ISA 9.7.13.1)", new int[] {other, pc}, new int[] {warp << 5},
                    BarrierRefs.ctaBarrier(m, cta, b.id, bname));
            return false;
        }
        int prev = b.firstPc[form];
        if (prev >= 0 && prev != pc && (op.aligned || b.firstAligned[form])) {
            String bname = barrierName(m, b.id, cta);
            x.report(DiagnosticCode.BARRIER_DIVERGENCE, bname + " was reached through two different aligned "
                    + "instructions in one generation, at " + x.where(prev) + " and, by " + m.warpName(warp) + ", at "
                    + x.where(pc) + "; .aligned requires all threads to execute the same barrier instruction "
                    + "(PTX ISA 9.7.13.1)", new int[] {prev, pc}, new int[] {warp << 5}, BarrierRefs.ctaBarrier(m, cta, b.id, bname));
            return false;
        }
        if (prev < 0) {
            b.firstPc[form] = pc;
            b.firstAligned[form] = op.aligned;
        }
        return true;
    }

    /** The barrier a split warp's gather names in its diagnostics (built only when one is reported). */
    private static BarrierRef gatherRef(Machine m, int warp, int id) {
        return BarrierRefs.ctaBarrier(m, m.ctaOfWarp(warp), id, "barrier " + id);
    }

    /** Built only for messages: arrivals are hot and must not allocate. */
    private static String barrierName(Machine m, int id, int cta) {
        return "barrier " + id + " of CTA " + m.grid.unflatten(cta);
    }

    /** Completes the barrier if its condition holds, releasing its waiting threads. */
    static void checkComplete(Interpreter x, int cta, CtaBarrier b) {
        Machine m = x.machine();
        if (!b.complete(m.liveWarps[cta])) return;
        int w0 = m.firstWarpOfCta(cta);
        long released = 0;
        io.barrierscope.exec.MemoryModelHook.Release hb = m.race != null ? m.race.barComplete(cta, b.id) : null;
        // Whole warps released are told with the completion as one event, unless another arrived warp is not whole.
        boolean observed = x.observed();
        boolean quiet = observed;
        for (int w = w0; w < w0 + m.warpsPerCta; w++) {
            // Only warps that arrived in this generation can be waiting on it.
            if ((b.arrivedWarps & (1 << (w - w0))) == 0) continue;
            int base = w << 5;
            if (m.wholeWarpWaiting(w, ThreadStatus.BAR_WAIT, b.id)) {
                BarrierOp op = (BarrierOp) x.op(m.pc[base]);
                if (op.form != CtaBarrier.Form.RED || op.dst < 0) {
                    // A converged warp waiting at one instruction: released at once, and stays converged.
                    if (m.race != null) m.race.barAcquireWarp(w, hb);
                    for (int s = base; s < base + 32; s++) m.pc[s]++;
                    m.uniform[w] = true;
                    m.setStatusLanes(w, -1, ThreadStatus.RUNNABLE, !quiet);
                    released |= 1L << (w - w0);
                    continue;
                }
            }
            if (quiet) {
                // Not a whole warp: tell the whole ones released before it as usual, in order, and the rest as usual.
                quiet = false;
                for (long r = released; r != 0; r &= r - 1) {
                    m.statusObserver.statusChanged(w0 + Long.numberOfTrailingZeros(r), -1, ThreadStatus.BAR_WAIT, ThreadStatus.RUNNABLE);
                }
            }
            int go = 0;
            for (int l = m.existMask[w]; l != 0; l &= l - 1) {
                int s = base + Integer.numberOfTrailingZeros(l);
                if (m.status[s] != ThreadStatus.BAR_WAIT || m.waitArg[s] != b.id) continue;
                released |= 1L << (w - w0);
                go |= l & -l;
                if (m.race != null) m.race.barAcquire(s, hb);
                BarrierOp op = (BarrierOp) x.op(m.pc[s]);
                if (op.form == CtaBarrier.Form.RED && op.dst >= 0) {
                    long v = switch (op.redOp()) {
                        case POPC -> b.redPopc;
                        case AND -> b.redAnd ? 1 : 0;
                        case OR -> b.redOr ? 1 : 0;
                    };
                    m.setReg(s, op.dst, v);
                }
                m.pc[s]++;
                m.uniform[s >> 5] = false;
            }
            m.setStatusLanes(w, go, ThreadStatus.RUNNABLE);
        }
        long gen = b.generation;
        m.registers.barrierCompleted(m, cta, released);
        b.reset();
        if (quiet && released != 0) {
            x.emitCompleteRelease(w0, released, ((long) cta << 32) | b.id, gen);
        } else if (observed) {
            x.emit(SyncEvent.BAR_COMPLETE, -1, ((long) cta << 32) | b.id, gen, released);
        }
    }

    /** Threads of {@code warp} exited: their warp may now be gathered, and barriers may complete. */
    public static void onExit(Interpreter x, int warp) {
        Machine m = x.machine();
        tryGather(x, warp);
        int cta = m.ctaOfWarp(warp);
        for (CtaBarrier b : m.ctaBarriers[cta].barriers) {
            if (x.finished()) return;
            checkComplete(x, cta, b);
        }
    }
}
