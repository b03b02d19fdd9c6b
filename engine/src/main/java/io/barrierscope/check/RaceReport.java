package io.barrierscope.check;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.sync.BarrierOp;
import io.barrierscope.sync.BarrierRefs;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierArriveOp;
import io.barrierscope.sync.MbarrierSync;
import io.barrierscope.sync.MbarrierWaitOp;

/**
 * Words for a race (semantics.md section 8): both accesses (who, what, where, when) and, where
 * there is an obvious one, the synchronization that would have ordered them.
 */
final class RaceReport {
    private RaceReport() {}

    static void dataRace(RaceDetector d, int region, int off, int prevId, int prevPc, long prevStep, boolean prevWrite, boolean write) {
        Interpreter x = d.x;
        Machine m = d.m;
        int prevSlot = prevId % d.slots;
        int curSlot = d.actorSlot();
        int curPc = d.actorPcNow();
        String where = region < d.ctas() ? "shared memory of CTA " + m.grid.unflatten(region) + " at offset 0x"
                + Integer.toHexString(off) + " (" + readableNames(m.memory.describe(Space.SHARED, off, curSlot)) + ")"
                : "global memory " + m.memory.global.segments().get(region - d.ctas()).name() + " at byte offset " + off;
        String first = who(d, prevId, prevPc) + (prevWrite ? " writes" : " reads") + " it (" + x.op(prevPc).insn.mnemonic() + " at "
                + x.where(prevPc) + ", step " + prevStep + ")";
        String second = who(d, d.actorIdNow(), curPc) + (write ? " writes" : " reads") + " it (" + x.op(curPc).insn.mnemonic() + " at "
                + x.where(curPc) + ", step " + x.eventStep() + ")";
        Hint hint = hint(d, prevId, prevPc, d.actorIdNow(), curPc);
        x.report(DiagnosticCode.RACE, "data race on " + where + ": " + first + ", and " + second
                + ", with no happens-before edge between them (semantics.md section 8); " + hint.advice(),
                new int[] {prevPc, curPc}, new int[] {prevSlot, curSlot}, hint.barrier());
    }

    /**
     * A generic-proxy write by a thread, ordered before an async-proxy access of the same bytes
     * but with no covering fence.proxy.async after it in the writer's thread (semantics.md section 13).
     */
    static void proxyFenceMissing(RaceDetector d, int region, int off, int writerSlot, int writePc, long writeStep, boolean write) {
        Interpreter x = d.x;
        Machine m = d.m;
        int curSlot = d.actorSlot();
        int curPc = d.actorPcNow();
        boolean shared = region < d.ctas();
        String where = shared ? "shared memory of CTA " + m.grid.unflatten(region) + " at offset 0x" + Integer.toHexString(off)
                + " (" + readableNames(m.memory.describe(Space.SHARED, off, curSlot)) + ")"
                : "global memory " + m.memory.global.segments().get(region - d.ctas()).name() + " at byte offset " + off;
        String fence = !shared ? "fence.proxy.async.global" : region == m.ctaOfSlot(writerSlot) ? "fence.proxy.async.shared::cta"
                : "fence.proxy.async.shared::cluster";
        // A wgmma reads its descriptor operands for the whole warpgroup (PTX ISA 9.7.15.4).
        boolean wgmma = x.op(curPc).insn.mnemonic().startsWith("wgmma");
        String reader = wgmma ? "the wgmma of " + m.warpName(curSlot >> 5) + "'s warpgroup, through the async proxy,"
                : who(d, d.actorIdNow(), curPc);
        x.report(DiagnosticCode.PROXY_FENCE_MISSING, "generic-proxy write not fenced for the async proxy on " + where + ": "
                + m.threadName(writerSlot) + " writes it (" + x.op(writePc).insn.mnemonic() + " at "
                + x.where(writePc) + ", step " + writeStep + "), and " + reader
                + (write ? " overwrites" : " reads") + " it (" + x.op(curPc).insn.mnemonic() + " at "
                + x.where(curPc) + ", step " + x.eventStep() + "); the two are ordered, but accesses through different proxies "
                + "also need a proxy fence (PTX ISA 9.7.13.4, semantics.md section 13): " + m.threadName(writerSlot)
                + " must execute " + fence + (fence.endsWith("::cta") ? " (CUTLASS fence_view_async_shared / tma_store_fence)" : "")
                + " after its write and before " + (writerSlot == curSlot ? "issuing the " + (wgmma ? "wgmma" : "copy")
                        : "the synchronization that hands the data to the issuing thread"),
                new int[] {writePc, curPc}, new int[] {writerSlot, curSlot}, null);
    }

    static void initRace(RaceDetector d, Mbarrier b, long initEpoch, int initPc, int usePc, int useSlot) {
        Interpreter x = d.x;
        Machine m = d.m;
        int initSlot = (int) (initEpoch & (RaceDetector.STRONG - 1));
        String name = MbarrierSync.describe(m, b.offset);
        boolean remote = m.ctaOfSlot(useSlot) != b.cta;
        // A peer's use of an init that was never published to the cluster has its own code; a
        // published init the use is still unordered with (no cluster barrier wait) stays a race.
        if (remote && !d.initPublished(initEpoch)) {
            x.report(DiagnosticCode.MBARRIER_INIT_NOT_FENCED, "mbarrier " + name + " of CTA " + m.grid.unflatten(b.cta) + " is used by "
                    + (d.actorIsAsync() ? "the asynchronous copy issued by " : "") + m.threadName(useSlot) + " of another CTA of the cluster ("
                    + x.op(usePc).insn.mnemonic() + " at " + x.where(usePc) + "), but " + m.threadName(initSlot) + " did not publish its"
                    + " mbarrier.init at " + x.where(initPc) + " to the cluster: execute fence.mbarrier_init.release.cluster after the"
                    + " init (or arrive on barrier.cluster with release semantics) and have the peers wait on barrier.cluster before"
                    + " they arrive on it (PTX ISA 9.7.13.4, 9.7.13.15.9)",
                    new int[] {initPc, usePc}, new int[] {initSlot, useSlot}, BarrierRefs.mbarrier(m, b, name));
            return;
        }
        x.report(DiagnosticCode.RACE, "race on mbarrier " + name + " of CTA " + m.grid.unflatten(b.cta) + ": "
                + (d.actorIsAsync() ? "the asynchronous copy issued by " : "") + m.threadName(useSlot) + " uses it ("
                + x.op(usePc).insn.mnemonic() + " at " + x.where(usePc) + ") but the mbarrier.init by " + m.threadName(initSlot)
                + " at " + x.where(initPc) + " does not happen before that use; "
                + (remote ? "publish the init to the cluster with fence.mbarrier_init.release.cluster (or a release "
                        + "barrier.cluster.arrive) and a barrier.cluster.wait before peers arrive on it"
                        : "put a __syncthreads() (bar.sync 0) between the init and the other threads' use"),
                new int[] {initPc, usePc}, new int[] {initSlot, useSlot}, BarrierRefs.mbarrier(m, b, name));
    }

    private static String who(RaceDetector d, int id, int pc) {
        Machine m = d.m;
        int slot = id % d.slots;
        int kind = id / d.slots;
        if (kind == 0) return m.threadName(slot);
        String what = switch (kind) {
            case RaceDetector.AGENT_CP -> "the cp.async";
            case RaceDetector.AGENT_BULK, RaceDetector.AGENT_BULK_DST -> "the bulk copy to global memory";
            default -> "the asynchronous copy";
        };
        // Name the proxy: an async-proxy write is visible to generic code only through its completion (semantics.md section 13).
        String mn = d.x.op(pc).insn.mnemonic();
        boolean asyncProxy = mn.startsWith("cp.async.bulk") || mn.startsWith("cp.reduce.async.bulk");
        return what + " issued by " + m.threadName(slot) + (asyncProxy ? " through the async proxy" : "");
    }

    /** Advice for a race, and the barrier it names (or null). */
    private record Hint(String advice, BarrierRef barrier) {}

    /**
     * Two strong accesses of different CTAs, one scoped so narrowly that it leaves the other
     * thread out: they are not morally strong, so they race (semantics.md section 8, scopes).
     */
    private static String scopeAdvice(RaceDetector d, int pcA, int pcB, boolean sameCluster) {
        io.barrierscope.ptx.Instruction ia = d.x.op(pcA).insn;
        io.barrierscope.ptx.Instruction ib = d.x.op(pcB).insn;
        if (!strong(ia) || !strong(ib)) return null;
        for (int pc : new int[] {pcA, pcB}) {
            io.barrierscope.ptx.Instruction insn = d.x.op(pc).insn;
            boolean cta = insn.has(".cta");
            if (!cta && !(insn.has(".cluster") && !sameCluster)) continue;
            return "both are strong accesses, but " + insn.mnemonic() + " at " + d.x.where(pc) + " is scoped to its "
                    + (cta ? "CTA" : "cluster") + ", which leaves the other thread out, so they are not morally strong "
                    + "and order nothing: give both (and any fences of the pattern) .gpu scope" + (sameCluster ? " or .cluster" : "");
        }
        return null;
    }

    private static boolean strong(io.barrierscope.ptx.Instruction i) {
        return i.opcode().equals("atom") || i.opcode().equals("red") || i.has(".relaxed") || i.has(".acquire")
                || i.has(".release") || i.has(".acq_rel") || i.has(".volatile");
    }

    private static Hint hint(RaceDetector d, int a, int pcA, int b, int pcB) {
        Machine m = d.m;
        int kindA = a / d.slots;
        int kindB = b / d.slots;
        int async = kindA != 0 ? kindA : kindB;
        if (async == RaceDetector.AGENT_MBAR) {
            long key = d.actorMbarrier();
            String name = key < 0 ? "the mbarrier the copy signals" : "mbarrier " + MbarrierSync.describe(d.m, (int) key)
                    + (d.ctas() > 1 ? " of CTA " + d.m.grid.unflatten((int) (key >>> 32)) : "");
            return new Hint("wait on " + name + " (the copy's complete-tx) for the phase the copy completes, "
                    + "with an acquire test_wait/try_wait that returns true for that phase, before these bytes are touched",
                    key < 0 ? null : BarrierRefs.mbarrier(m, (int) (key >>> 32), (int) key, MbarrierSync.describe(d.m, (int) key)));
        }
        if (async == RaceDetector.AGENT_CP) return new Hint("cp.async.wait_group / cp.async.wait_all (or an mbarrier "
                + "the copies arrive on) would order them", null);
        if (async == RaceDetector.AGENT_BULK) return new Hint("cp.async.bulk.wait_group.read would order the copy's read of "
                + "its source before the overwrite", null);
        if (async == RaceDetector.AGENT_BULK_DST) return new Hint("the issuer's cp.async.bulk.wait_group without .read orders the copy's "
                + "writes to its destination before the issuer's later accesses (.read waits for its source reads only)", null);
        int sa = a % d.slots;
        int sb = b % d.slots;
        int ctaA = m.ctaOfSlot(sa);
        int ctaB = m.ctaOfSlot(sb);
        if (ctaA == ctaB) {
            int lo = Math.min(pcA, pcB);
            int hi = Math.max(pcA, pcB);
            Op bar = ctaBarrier(d, lo, hi, true);
            String extra = (sa >> 5) == (sb >> 5) ? " (within one warp, __syncwarp() / bar.warp.sync would also do)" : "";
            if (bar != null) {
                String name = bar.insn.mnemonic() + " at " + d.x.where(bar.pc);
                // A barrier between the two instructions that did not order them: in a loop the accesses can be of two
                // iterations (a read of round r against the other warp's write of round r + 1), so it is not the fix.
                Op back = loopBack(d, lo, hi);
                if (back != null) {
                    return new Hint("no barrier between them in this run: " + name + " lies between the two instructions, but "
                            + "they are in a loop (its branch back at " + d.x.where(back.pc) + ") and met in different iterations; "
                            + "a barrier at the end of each iteration, before the branch back, would order them" + extra,
                            barrierRef(m, ctaA, bar, name));
                }
                return new Hint("no barrier between them: " + name + " would order them" + extra, barrierRef(m, ctaA, bar, name));
            }
            String mbar = mbarrierAdvice(d);
            if (mbar != null) return new Hint(mbar, null);
            bar = ctaBarrier(d, lo, hi, false);
            if (bar != null) {
                String name = bar.insn.mnemonic();
                return new Hint("no barrier between them: a " + name + " (as at " + d.x.where(bar.pc) + ") between the two "
                        + "accesses would order them" + extra, barrierRef(m, ctaA, bar, name));
            }
            return new Hint("a __syncthreads() (bar.sync 0) between them would order them" + extra,
                    BarrierRefs.ctaBarrier(m, ctaA, 0, "bar.sync 0"));
        }
        boolean sameCluster = false;
        for (int c : m.memory.clusterMembers[ctaA]) sameCluster |= c == ctaB;
        String scope = scopeAdvice(d, pcA, pcB, sameCluster);
        if (scope != null) return new Hint(scope, null);
        if (sameCluster) {
            return new Hint("they are in different CTAs of one cluster: barrier.cluster.arrive (.release, not .relaxed) "
                    + "and barrier.cluster.wait (.acquire) between them would order them",
                    BarrierRefs.clusterBarrier(m, ctaA, "barrier.cluster"));
        }
        return new Hint("they are in different clusters: only a release/acquire flag (st.release / ld.acquire, "
                + "or fences with atomics) can order them", null);
    }

    /** The CTA barrier a barrier instruction of the kernel uses, its id known when the instruction names it as a constant. */
    private static BarrierRef barrierRef(Machine m, int cta, Op bar, String name) {
        long id = ((BarrierOp) bar).constantId();
        return id < 0 ? BarrierRefs.ctaBarrierOfUnknownId(m, cta, name) : BarrierRefs.ctaBarrier(m, cta, id, name);
    }

    /** A CTA barrier that waits (bar.sync / barrier.sync / bar.red): one between the two PCs, or with !between the first. */
    private static Op ctaBarrier(RaceDetector d, int lo, int hi, boolean between) {
        for (Op op : d.m.program.code) {
            if (!(op instanceof BarrierOp bo) || bo.form == CtaBarrier.Form.ARRIVE) continue;
            if (!between || (op.pc > lo && op.pc < hi)) return op;
        }
        return null;
    }

    /**
     * The first branch back from at or after {@code hi} to at or before {@code lo} that closes a loop
     * around both (the branch is reached from {@code hi} and its target reaches {@code lo}), or null.
     * A backward jump alone is not a loop: nvcc places cold blocks after a function's ret that jump
     * back to where they left.
     */
    private static Op loopBack(RaceDetector d, int lo, int hi) {
        for (Op op : d.m.program.code) {
            int t = op.branchTarget();
            if (op.pc >= hi && t >= 0 && t <= lo && reaches(d, hi, op.pc) && reaches(d, t, lo)) return op;
        }
        return null;
    }

    /** Whether control at {@code from} can come to {@code to} (program order and direct branches; an indirect branch ends a path). */
    private static boolean reaches(RaceDetector d, int from, int to) {
        Op[] code = d.m.program.code;
        java.util.BitSet seen = new java.util.BitSet(code.length);
        int[] work = new int[code.length + 1];
        int n = 0;
        work[n++] = from;
        seen.set(from);
        while (n > 0) {
            int pc = work[--n];
            if (pc == to) return true;
            Op op = code[pc];
            // Op.flow() classifies exit, ret and trap (as sync/PollLoop's graph does); brx has no direct target to follow.
            if (op.flow() == Op.FLOW_LEAVE || op.insn != null && op.insn.opcode().equals("brx")) continue;
            int t = op.branchTarget();
            boolean falls = t < 0 || op.insn == null || op.insn.guard() != null;
            if (t >= 0 && t < code.length && !seen.get(t)) {
                seen.set(t);
                work[n++] = t;
            }
            if (falls && pc + 1 < code.length && !seen.get(pc + 1)) {
                seen.set(pc + 1);
                work[n++] = pc + 1;
            }
        }
        return false;
    }

    /** Advice for a kernel that hands data over through mbarriers, or null if it has none. */
    private static String mbarrierAdvice(RaceDetector d) {
        Op wait = null;
        for (Op op : d.m.program.code) {
            if (op instanceof MbarrierArriveOp a && a.relaxed) {
                return "the .relaxed arrive " + op.insn.mnemonic() + " at " + d.x.where(op.pc) + " releases nothing: with the "
                        + "default .release arrive, the wait that observes its phase would order them";
            }
            if (wait == null && op instanceof MbarrierWaitOp) wait = op;
        }
        if (wait == null) return null;
        return "no mbarrier phase orders them: the reading side's wait (such as " + wait.insn.mnemonic() + " at "
                + d.x.where(wait.pc) + ") must return true for the phase the writing side completed after writing; a parity "
                + "wait on a fresh barrier (parity 1) or on a phase that completed earlier returns at once without waiting";
    }

    /** nvcc's mangled names of static __shared__ variables, as the source calls them. */
    private static String readableNames(String s) {
        java.util.regex.Matcher mm = java.util.regex.Pattern.compile("_ZZ[0-9A-Za-z_]+").matcher(s);
        StringBuilder sb = new StringBuilder();
        while (mm.find()) mm.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(MbarrierSync.readable(mm.group())));
        mm.appendTail(sb);
        return sb.toString();
    }
}
