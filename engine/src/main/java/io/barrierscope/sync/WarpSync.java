package io.barrierscope.sync;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.ThreadStatus;

/** Release rule of warp-level .sync instructions (semantics.md section 4). */
public final class WarpSync {
    private WarpSync() {}

    /** The meeting of a membermask's lanes that a diagnostic concerns. */
    static BarrierRef syncRef(Machine m, int warp, int mask, Op op) {
        return BarrierRefs.warpSync(m, warp, mask, op.insn.mnemonic() + " with membermask 0x" + Integer.toHexString(mask));
    }

    /** Releases the members of {@code mask} in {@code warp} if all of them are waiting with that mask. */
    static void tryRelease(Interpreter x, int warp, int mask) {
        Machine m = x.machine();
        int base = warp << 5;
        int members = mask & m.existMask[warp];
        int exited = members & ~m.liveMask[warp];
        int waiting = 0;
        for (int l = members; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = base + lane;
            if (m.status[s] == ThreadStatus.WARP_SYNC && m.waitArg[s] == mask) waiting |= 1 << lane;
        }
        if (waiting == 0) return;
        int first = base + Integer.numberOfTrailingZeros(waiting);
        WarpSyncOp op0 = (WarpSyncOp) x.op(m.pc[first]);
        if (exited != 0) {
            if (op0.requiresAllMembers()) {
                int ex = base + Integer.numberOfTrailingZeros(exited);
                x.report(DiagnosticCode.WARP_SYNC_EXITED_MEMBER, op0.insn.mnemonic() + " at " + x.where(op0.pc) + " in "
                        + m.warpName(warp) + " names lanes 0x" + Integer.toHexString(exited) + " in its membermask 0x"
                        + Integer.toHexString(mask) + ", which have exited; they can never arrive (undefined, PTX ISA 9.7.13)"
                        + (op0 instanceof BarWarpSyncOp ? exitedNote() : ""),
                        new int[] {op0.pc}, new int[] {first, ex}, syncRef(m, warp, mask, op0));
                return;
            }
            members &= ~exited;
        }
        if (waiting != members) return;
        for (int l = waiting & (waiting - 1); l != 0; l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            WarpSyncOp op = (WarpSyncOp) x.op(m.pc[s]);
            if (!op.kindKey.equals(op0.kindKey)) {
                x.report(DiagnosticCode.WARP_SYNC_MISMATCH, "members of mask 0x" + Integer.toHexString(mask) + " in "
                        + m.warpName(warp) + " met at different warp instructions: " + op0.insn.mnemonic() + " at "
                        + x.where(op0.pc) + " and " + op.insn.mnemonic() + " at " + x.where(op.pc)
                        + "; they must execute the same kind with the same qualifiers (PTX ISA 9.7.13)",
                        new int[] {op0.pc, op.pc}, new int[] {first, s}, syncRef(m, warp, mask, op0));
                return;
            }
        }
        if (m.race != null && op0.ordersMemory()) m.race.warpSync(warp, members);
        op0.complete(x, warp, members);
        if (x.finished()) return;
        for (int l = members; l != 0; l &= l - 1) m.pc[base + Integer.numberOfTrailingZeros(l)]++;
        m.uniform[warp] = false;
        m.setStatusLanes(warp, members, ThreadStatus.RUNNABLE);
    }

    /**
     * The two readings of an exited member of bar.warp.sync (__syncwarp), for its message
     * (semantics.md section 12): we follow the PTX text, which waits for every thread of the mask.
     */
    static String exitedNote() {
        return ". PTX ISA 9.7.13.2 waits until all threads of membermask have executed bar.warp.sync, which an exited "
                + "thread never does; note: the CUDA Programming Guide's __syncwarp() asks it only of the non-exited threads "
                + "named in the mask, and hardware may let the others go on, but code relying on that is not portable PTX: "
                + "leave exited lanes out of the mask (__activemask() or a computed mask)";
    }

    /** Lanes of {@code warp} exited: waiters whose masks name them are re-checked. */
    public static void onExit(Interpreter x, int warp, int exitedLanes) {
        Machine m = x.machine();
        int base = warp << 5;
        for (int l = m.liveMask[warp]; l != 0 && !x.finished(); l &= l - 1) {
            int s = base + Integer.numberOfTrailingZeros(l);
            if (m.status[s] == ThreadStatus.WARP_SYNC && (m.waitArg[s] & exitedLanes) != 0) tryRelease(x, warp, m.waitArg[s]);
        }
    }
}
