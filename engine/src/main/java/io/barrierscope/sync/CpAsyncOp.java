package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | , ignore-src}}
 * (PTX ISA 9.7.9.25.3.1): a 4-, 8- or 16-byte copy from global to the thread's CTA's shared
 * memory that completes later, in the thread's open cp.async group; bytes past src-size are
 * zero, and all of them when ignore-src is true. Operand forms: {@link CpAsyncForms}.
 */
public final class CpAsyncOp extends Op {
    private final Src dst;
    private final Src src;
    private final int srcSpace;
    private final int size;
    private final Src srcSize;
    private final Src ignoreSrc;

    public CpAsyncOp(Src dst, Src src, int srcSpace, int size, Src srcSize, Src ignoreSrc) {
        this.dst = dst;
        this.src = src;
        this.srcSpace = srcSpace;
        this.size = size;
        this.srcSize = srcSize;
        this.ignoreSrc = ignoreSrc;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            long d = dst.get(m, s);
            long sa = src.get(m, s);
            long n = srcSize == null ? size : srcSize.get(m, s) & 0xFFFFFFFFL;
            if (n > size) {
                // "Specifying src-size larger than cp-size results in undefined behavior."
                x.report(DiagnosticCode.ASYNC_COPY_SIZE, m.threadName(s) + ": cp.async at " + x.where(pc) + " gives src-size " + n
                        + ", larger than its cp-size " + size + " (PTX ISA 9.7.9.25.3.1: undefined behavior)",
                        new int[] {pc}, new int[] {s}, null);
                return;
            }
            if (ignoreSrc != null && (ignoreSrc.get(m, s) & 1) != 0) n = 0;
            if ((d & (size - 1)) != 0 || (sa & (size - 1)) != 0) {
                x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": cp.async of " + size + " bytes at " + x.where(pc)
                        + " needs both addresses aligned to " + size + " (dst 0x" + Long.toHexString(d) + ", src 0x"
                        + Long.toHexString(sa) + ")", new int[] {pc}, new int[] {s}, null);
                return;
            }
            int cta = m.ctaOfSlot(s);
            if (d > Space.CTA_OFFSET_MASK && m.memory.peer(cta, d) != cta) {
                // dst is in .shared{::cta}: the executing CTA's window; another CTA's shared::cluster address is outside it.
                x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": cp.async at " + x.where(pc) + " writes to shared::cluster address 0x"
                        + Long.toHexString(d) + " of cluster rank " + ((d >>> Space.CLUSTER_RANK_SHIFT) - 1) + "; its destination is in "
                        + ".shared{::cta}, the executing CTA's own shared memory (PTX ISA 9.7.9.25.3.1)", new int[] {pc}, new int[] {s}, null);
                return;
            }
            AsyncOperation twin = m.async.cpAsyncOverlapping(s, m.async.cpGroup[s], cta, d, size);
            if (twin != null) {
                // "two or more cp.async operations within a cp.async-group copying data to the same location results in undefined behavior"
                x.report(DiagnosticCode.ASYNC_GROUP_OVERLAP, m.threadName(s) + ": cp.async at " + x.where(pc) + " copies to shared 0x"
                        + Long.toHexString(d) + ", which the cp.async at " + x.where(twin.pc()) + " of the same cp.async-group also "
                        + "writes; the group gives them no order (PTX ISA 9.7.9.25.3.2: undefined behavior)",
                        new int[] {twin.pc(), pc}, new int[] {s}, null);
                return;
            }
            long cpGroup = m.async.cpGroup[s];
            long ready = m.async.readyAfterOlderGroups(s, AsyncOperation.Kind.CP_ASYNC, cpGroup, m.cycles + x.policy().asyncLatency());
            AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), ready, AsyncOperation.Kind.CP_ASYNC, s,
                    pc, cpGroup, srcSpace, sa, new int[] {cta}, d, size, -1, n, -1, null));
        }
        advance(m, warp, group);
    }
}
