package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}} (PTX ISA
 * 9.7.9.25.3): a 4-, 8- or 16-byte copy from global to the thread's CTA's shared memory that
 * completes later, in the thread's open cp.async group; bytes past src-size are zero.
 */
public final class CpAsyncOp extends Op {
    private final Src dst;
    private final Src src;
    private final int srcSpace;
    private final int size;
    private final Src srcSize;

    public CpAsyncOp(Src dst, Src src, int srcSpace, int size, Src srcSize) {
        this.dst = dst;
        this.src = src;
        this.srcSpace = srcSpace;
        this.size = size;
        this.srcSize = srcSize;
    }


    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            long d = dst.get(m, s);
            long sa = src.get(m, s);
            long n = srcSize == null ? size : Math.min(size, srcSize.get(m, s) & 0xFFFFFFFFL);
            if ((d & (size - 1)) != 0 || (sa & (size - 1)) != 0) {
                x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": cp.async of " + size + " bytes at " + x.where(pc)
                        + " needs both addresses aligned to " + size + " (dst 0x" + Long.toHexString(d) + ", src 0x"
                        + Long.toHexString(sa) + ")", new int[] {pc}, new int[] {s}, null);
                return;
            }
            AsyncCopySync.issue(x, new AsyncOperation(m.async.nextId(), m.cycles + x.policy().asyncLatency(), AsyncOperation.Kind.CP_ASYNC, s,
                    pc, m.async.cpGroup[s], srcSpace, sa, new int[] {m.ctaOfSlot(s)}, d, size, -1, n, -1, null));
        }
        advance(m, warp, group);
    }

    static int space(String mod) {
        return mod.equals(".global") ? Space.GLOBAL : Space.GENERIC;
    }
}
