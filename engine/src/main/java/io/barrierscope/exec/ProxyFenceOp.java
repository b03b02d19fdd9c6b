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

    @Override
    protected void lane(Machine m, int t) {
        if (m.race != null) m.race.proxyFence(t, spaces);
    }
}
