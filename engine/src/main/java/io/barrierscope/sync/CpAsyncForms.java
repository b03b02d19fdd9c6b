package io.barrierscope.sync;

import io.barrierscope.exec.CompileContext;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * The operand forms of non-bulk {@code cp.async} (PTX ISA 9.7.9.25.3.1):
 * {@code cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B}
 * [dst], [src], cp-size{, src-size | , ignore-src}{, cache-policy}}. The optional operands are
 * told apart by kind, as the syntax does: a predicate register is ignore-src, a 64-bit register
 * is the cache policy, a 32-bit register or an integer constant is src-size.
 */
final class CpAsyncForms {
    private CpAsyncForms() {}

    static Op compile(CompileContext c) {
        String name = c.insn().mnemonic();
        // "Operand src specifies a location in the global state space": the syntax names .global.
        if (!c.has(".global") || !(c.has(".shared") || c.has(".shared::cta"))) {
            throw c.error(name + ": cp.async copies from .global to .shared{::cta} and names both (PTX ISA 9.7.9.25.3.1: "
                    + "cp.async.{ca,cg}.shared{::cta}.global)");
        }
        int prefetch = (c.has(".L2::64B") ? 1 : 0) + (c.has(".L2::128B") ? 1 : 0) + (c.has(".L2::256B") ? 1 : 0);
        if (prefetch > 1) throw c.error(name + ": at most one .level::prefetch_size (.L2::64B, .L2::128B or .L2::256B)");
        c.expectOperands(3, 5);
        int size = AsyncCompiler.immediate(c, 2);
        if (size != 4 && size != 8 && size != 16) throw c.error("cp.async copies 4, 8 or 16 bytes, not " + size);
        if (c.has(".cg") && size != 16) throw c.error("cp.async.cg copies 16 bytes");
        Src srcSize = null;
        Src ignoreSrc = null;
        for (int i = 3; i < c.operandCount(); i++) {
            Operand o = c.operand(i);
            ScalarType t = c.regType(o);
            boolean last = i == c.operandCount() - 1;
            if (t != null && t.isPred()) {
                if (i != 3) throw c.error(name + ": ignore-src comes right after cp-size");
                ignoreSrc = c.src(i, ScalarType.PRED);
            } else if (t != null && t.bits() == 64 && !t.isFloat()) {
                if (!last) throw c.error(name + ": the cache policy is the last operand");
                // "When the optional argument cache-policy is specified, the qualifier .level::cache_hint is required."
                if (!c.has(".L2::cache_hint")) {
                    throw c.error(name + ": a cache-policy operand needs .L2::cache_hint (PTX ISA 9.7.9.25.3.1: \"When the optional "
                            + "argument cache-policy is specified, the qualifier .level::cache_hint is required\")");
                }
            } else if (i == 3 && (o instanceof Operand.Imm imm && imm.kind() == Operand.ImmKind.INT
                    || t != null && t.bits() == 32 && !t.isFloat())) {
                srcSize = c.src(i, ScalarType.U32);
            } else if (i == 4 && ignoreSrc == null && srcSize != null) {
                throw c.error(name + ": takes src-size or ignore-src, not both, then an optional 64-bit cache policy");
            } else {
                throw c.error(name + ": operand " + (i + 1) + " is neither src-size (32-bit), ignore-src (a predicate register) "
                        + "nor a cache policy (64-bit)");
            }
        }
        return new CpAsyncOp(AsyncCompiler.addr(c, 0, Space.SHARED), AsyncCompiler.addr(c, 1, Space.GLOBAL), Space.GLOBAL, size,
                srcSize, ignoreSrc);
    }
}
