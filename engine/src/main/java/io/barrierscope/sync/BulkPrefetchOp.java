package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Src;

/**
 * {@code cp.async.bulk.prefetch.L2.global [srcMem], size} (PTX ISA 9.7.9.25.4.3): a hint that
 * changes no memory a thread can observe, but whose operands carry the bulk copies' rule: "size
 * must be a multiple of 16. The address srcMem must be aligned to 16 bytes." Breaking it is
 * reported as the bulk copies report it, not passed over because the instruction is a hint.
 */
final class BulkPrefetchOp extends Op {
    private final Src src;
    private final Src size;

    BulkPrefetchOp(Src src, Src size) {
        this.src = src;
        this.size = size;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            long n = size.get(m, s) & 0xFFFFFFFFL;
            long sa = src.get(m, s);
            if (n % 16 != 0 || (sa & 15) != 0) {
                x.report(DiagnosticCode.MISALIGNED_ACCESS, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                        + " needs a size that is a multiple of 16 and a 16-byte aligned address (size " + n + ", src 0x"
                        + Long.toHexString(sa) + "; PTX ISA 9.7.9.25.4.3)", new int[] {pc}, new int[] {s}, null);
                return;
            }
        }
        advance(m, warp, group);
    }
}
