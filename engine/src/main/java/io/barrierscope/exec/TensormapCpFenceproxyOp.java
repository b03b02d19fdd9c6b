package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.sync.WarpSyncOp;

/**
 * {@code tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], 128} (PTX ISA 9.7.13.16): "Copies data of size specified by the size argument, in
 * bytes, from ... src in shared memory to ... dst in the global memory, in the generic proxy", then
 * a uni-directional tensormap-proxy release on dst, which the race detector does not check (as for
 * fence.proxy.tensormap::generic, semantics.md section 13). ".sync ... wait until all threads in
 * the warp execute the same tensormap.cp_fenceproxy instruction"; ".aligned ... all threads in the
 * warp must execute the same ... instruction", else undefined: a lane with its guard false, or lanes
 * met at another instruction, is a diagnostic. Lanes giving the same (dst, src) copy once, as the
 * lowest of them (the whole warp normally names one tensor map).
 */
final class TensormapCpFenceproxyOp extends WarpSyncOp {
    private static final int SIZE = 128;
    private final Src dst;
    private final Src src;

    private TensormapCpFenceproxyOp(CompileContext c, Src dst, Src src) {
        // Every thread of the warp that exists is a member; the same instruction, not only the same kind (.aligned).
        super((m, t) -> m.existMask[t >> 5] & 0xFFFFFFFFL, c.insn().mnemonic() + "@" + c.insn().pos());
        this.dst = dst;
        this.src = src;
    }

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        if (!c.has(".global") || !c.has(".shared::cta") || !c.has(".tensormap::generic") || !c.has(".release")
                || !MemoryOps.hasScope(c) || !c.has(".sync") || !c.has(".aligned") || c.has(".acquire") || c.has(".acq_rel")) {
            throw c.error(mn + ": written tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned "
                    + "(PTX ISA 9.7.13.16; .sync and .aligned are mandatory)");
        }
        for (String mod : c.insn().modifiers()) {
            if (!java.util.Set.of(".cp_fenceproxy", ".global", ".shared::cta", ".tensormap::generic", ".release", ".cta", ".cluster",
                    ".gpu", ".sys", ".sync", ".aligned").contains(mod)) {
                throw c.error(mn + ": '" + mod + "' is not a qualifier of tensormap.cp_fenceproxy (PTX ISA 9.7.13.16)");
            }
        }
        c.expectOperands(3, 3);
        if (!(c.operand(2) instanceof Operand.Imm im) || im.value() != SIZE) {
            throw c.error(mn + ": the size must be the immediate 128, its only valid value (PTX ISA 9.7.13.16)");
        }
        // "src and dst specify non-generic addresses in shared::cta and global state space respectively".
        CompileContext.Addr d = c.address(c.operand(0), Space.GLOBAL);
        CompileContext.Addr s = c.address(c.operand(1), Space.SHARED);
        return new TensormapCpFenceproxyOp(c, d.address(), MemoryOps.ctaWindow(c, s));
    }

    @Override
    protected boolean requiresAllMembers() { return true; }

    /** The lanes only wait for each other; the ISA gives the warp no memory ordering among them. */
    @Override
    protected boolean ordersMemory() { return false; }

    @Override
    protected void complete(Interpreter x, int warp, int members) {
        Machine m = x.machine();
        int base = warp << 5;
        if (members != m.existMask[warp]) {
            int missing = m.existMask[warp] & ~members;
            x.report(DiagnosticCode.WARP_COLLECTIVE_PARTIAL, insn.mnemonic() + " at " + x.where(pc) + " in " + m.warpName(warp)
                    + " is executed by lanes 0x" + Integer.toHexString(members) + " only; .aligned requires all threads in the warp"
                    + " to execute the same tensormap.cp_fenceproxy instruction (PTX ISA 9.7.13.16)", new int[] {pc},
                    new int[] {base + Integer.numberOfTrailingZeros(missing)}, null);
            return;
        }
        long[] done = new long[64];
        int n = 0;
        for (int a = members; a != 0; a &= a - 1) {
            int t = base + Integer.numberOfTrailingZeros(a);
            try {
                long d = dst.get(m, t);
                long s = src.get(m, t);
                boolean seen = false;
                for (int i = 0; i < n; i += 2) seen |= done[i] == d && done[i + 1] == s;
                if (seen) continue;
                done[n++] = d;
                done[n++] = s;
                // Byte by byte: the ISA states no alignment for the copy.
                for (int i = 0; i < SIZE; i++) m.memory.store(Space.GLOBAL, d + i, 1, m.memory.load(Space.SHARED, s + i, 1, t), t);
            } catch (MemoryFault f) {
                x.report(f.code(), m.threadName(t) + ": " + f.getMessage() + " in " + insn.mnemonic() + " at " + x.where(pc),
                        new int[] {pc}, new int[] {t}, null);
                return;
            }
        }
    }
}
