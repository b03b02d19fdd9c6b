package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.function.LongPredicate;

/**
 * isspacep.space p, a (PTX ISA 9.7.9.19, isspacep): whether generic address a falls in the space's
 * window of the generic address space ({@link Space}). As the ISA states, .shared means
 * .shared::cta, .param means .param::entry, and .global is true for kernel parameters too (the
 * param window lies within the global one); every address outside the shared, local, const and
 * param windows is global here, mapped or not. shared::cluster is the whole shared window;
 * shared::cta, which the ISA's note makes true for "a variable declared in the executing CTA",
 * is an address below 2^24 or one naming the executing CTA's own rank (mapa to its own rank).
 */
final class IsspacepOp {
    private IsspacepOp() {}

    static Op compile(CompileContext c) {
        c.expectOperands(2, 2);
        int space = c.spaceOf();
        if (space == Space.GENERIC) throw c.error(c.insn().mnemonic() + " needs a state space (.global, .shared, .local, .const or .param)");
        if (c.has(".param::func")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (the ISA has isspacep.param{::entry} only)");
        ScalarType rt = c.regType(c.operand(1));
        if (rt != null && rt.bits() != 64) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (a generic address is 64 bits under .address_size 64; found a "
                    + rt.bits() + "-bit register)");
        }
        int p = c.dst(0);
        Src a = c.src(1, ScalarType.U64);
        LongPredicate in = switch (space) {
            case Space.GLOBAL -> g -> {
                int s = Space.ofGeneric(g);
                return s == Space.GLOBAL || s == Space.KERNEL_PARAM;
            };
            case Space.SHARED -> g -> Space.ofGeneric(g) == Space.SHARED;
            default -> g -> Space.ofGeneric(g) == space;
        };
        boolean cta = space == Space.SHARED && !c.has(".shared::cluster");
        return new FnOp((m, th) -> {
            long g = a.get(m, th);
            boolean r = in.test(g);
            if (r && cta) {
                long off = g - Space.SHARED_WINDOW;
                r = off <= Space.CTA_OFFSET_MASK || (off >>> Space.CLUSTER_RANK_SHIFT) - 1 == m.rankOf(m.ctaOfSlot(th));
            }
            if (p >= 0) m.setReg(th, p, r ? 1 : 0);
        });
    }
}
