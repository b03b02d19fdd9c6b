package io.barrierscope.exec;

/**
 * {@code fence.proxy.async{,.shared::cta,.shared::cluster,.global}} (PTX ISA 9.7.13.4): a
 * bi-directional ordering between the executing thread's generic-proxy and async-proxy memory
 * accesses in the named state space (all of them when none is named). Nothing changes in the
 * sequentially consistent execution; the memory-model analysis records it (semantics.md
 * section 13).
 */
final class ProxyFenceOp extends LaneOp {
    private final int spaces;

    private ProxyFenceOp(int spaces) { this.spaces = spaces; }

    static ProxyFenceOp compile(CompileContext c) {
        int spaces;
        if (c.has(".shared::cta")) spaces = MemoryModelHook.PROXY_SHARED_CTA;
        else if (c.has(".shared::cluster")) spaces = MemoryModelHook.PROXY_SHARED_CLUSTER;
        else if (c.has(".global")) spaces = MemoryModelHook.PROXY_GLOBAL;
        else spaces = MemoryModelHook.PROXY_SHARED_CTA | MemoryModelHook.PROXY_SHARED_CLUSTER | MemoryModelHook.PROXY_GLOBAL;
        return new ProxyFenceOp(spaces);
    }

    /**
     * The uni-directional {@code fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster}
     * and {@code .acquire.sync_restrict::shared::cluster.cluster} (PTX ISA 9.7.13.4), in exactly
     * those forms (the .sync_restrict rules of {@link FenceForms}). Each orders the thread's
     * generic-proxy accesses before its later async-proxy ones, which is the direction the race
     * detector checks, limited to the state space its .sync_restrict names (semantics.md section 13).
     */
    static ProxyFenceOp compileAsyncFromGeneric(CompileContext c) {
        FenceForms.check(c);
        if (!c.has(".sync_restrict::shared::cta") && !c.has(".sync_restrict::shared::cluster")) {
            throw c.error(c.insn().mnemonic() + ": fence.proxy.async::generic is written with .release.sync_restrict::shared::cta.cluster "
                    + "or .acquire.sync_restrict::shared::cluster.cluster (PTX ISA 9.7.13.4)");
        }
        c.expectOperands(0, 0);
        return new ProxyFenceOp(c.has(".sync_restrict::shared::cta") ? MemoryModelHook.PROXY_SHARED_CTA : MemoryModelHook.PROXY_SHARED_CLUSTER);
    }

    /**
     * The other proxy fences of PTX ISA 9.7.13.4, checked as the ISA writes them, or null for a form
     * it does not list. {@code fence.proxy.alias} orders accesses through virtually aliased addresses
     * of one location: a launch maps every location at one address per state-space window, so it has
     * nothing to order. {@code fence.proxy.tensormap::generic.release.scope} and
     * {@code .acquire.scope [addr], 128} order generic writes of a tensor map before the tensormap
     * proxy's reads of it; nothing changes in the sequentially consistent execution (the race
     * detector does not check that ordering, semantics.md section 13).
     */
    static Op compileOther(CompileContext c) {
        String mn = c.insn().mnemonic();
        if (c.has(".alias")) {
            c.expectOperands(0, 0);
            return new ControlOps.NopOp();
        }
        if (!c.has(".tensormap::generic")) return null;
        boolean rel = c.has(".release");
        if (rel == c.has(".acquire")) {
            throw c.error(mn + ": fence.proxy.tensormap::generic needs exactly one of .release and .acquire (PTX ISA 9.7.13.4)");
        }
        if (!c.has(".cta") && !c.has(".cluster") && !c.has(".gpu") && !c.has(".sys")) {
            throw c.error(mn + ": fence.proxy.tensormap::generic needs a scope: .cta, .cluster, .gpu or .sys (PTX ISA 9.7.13.4)");
        }
        if (rel) {
            c.expectOperands(0, 0);
            return new ControlOps.NopOp();
        }
        c.expectOperands(2, 2);
        if (!(c.operand(0) instanceof io.barrierscope.ptx.Operand.Address)) {
            throw c.error(mn + ": operand 1 must be the tensor map's address [addr]");
        }
        if (!(c.operand(1) instanceof io.barrierscope.ptx.Operand.Imm im) || im.value() != 128) {
            throw c.error(mn + ": the size must be the constant 128, the only value the ISA supports (PTX ISA 9.7.13.4)");
        }
        Src addr = c.address(c.operand(0), Space.GENERIC).address();
        // Generic addressing, and the address must fall within .global; otherwise undefined (PTX ISA 9.7.13.4).
        return new MemoryOps.CheckedOp((m, t) -> {
            long a = addr.get(m, t);
            if (a < Space.GLOBAL_BASE || a >= Space.SHARED_WINDOW) {
                throw new MemoryFault(io.barrierscope.diag.DiagnosticCode.MEMORY_FAULT, a, mn + ": address 0x" + Long.toHexString(a)
                        + " is not in the .global state space (PTX ISA 9.7.13.4)");
            }
        });
    }

    @Override
    protected void lane(Machine m, int t) {
        if (m.race != null) m.race.proxyFence(t, spaces);
    }
}
