package io.barrierscope.sync;

import io.barrierscope.exec.CompileContext;
import io.barrierscope.exec.LaneOp;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/** Compiles cp.reduce.async.bulk{.tensor} (PTX ISA 9.7.9.25.4.2, 9.7.9.25.5.3) and the bulk prefetches (9.7.9.25.4.3, 9.7.9.25.5.4). */
final class BulkReduceCompiler {
    private BulkReduceCompiler() {}

    static Op reduce(CompileContext c) {
        String name = c.insn().mnemonic();
        if (!c.has(".bulk")) throw c.error("unsupported instruction " + name);
        List<String> mods = c.insn().modifiers();
        int op = BulkReduction.op(mods);
        if (op < 0) throw c.error(name + " needs a reduction such as .add");
        int dstAt = AsyncCompiler.firstSpace(mods);
        boolean global = dstAt >= 0 && mods.get(dstAt).equals(".global");
        if (c.has(".tensor")) {
            for (String m : mods) {
                if (m.startsWith(".im2col") && !m.equals(".im2col_no_offs")) {
                    throw c.error("unsupported instruction " + name + " (tensor reductions in " + m + " mode are not modelled; .tile and"
                            + " .im2col_no_offs are)");
                }
            }
            if (!global) throw c.error(name + ": a tensor reduction writes .global memory");
            return AsyncCompiler.tensorStore(c, op);
        }
        ScalarType t = c.type();
        if (c.has(".noftz") || t == ScalarType.F16 || t == ScalarType.BF16) {
            throw c.error("unsupported instruction " + name + " (the .f16/.bf16 reductions are not modelled)");
        }
        if (!BulkReduction.plainTypeListed(op, t, global)) {
            throw c.error(name + ": PTX ISA 9.7.9.25.4.2 lists no " + BulkReduction.OPS[op] + "." + t.ptxName() + " for a bulk reduction to "
                    + (global ? ".global" : ".shared::cluster"));
        }
        if (global) {
            if (!c.has(".bulk_group") || !c.has(".shared::cta")) throw c.error(name + ": a bulk reduction to global memory reads .shared::cta and needs .bulk_group");
            c.expectOperands(3, 4);
            AsyncCompiler.cachePolicy(c, 3);
            return new CpAsyncBulkOp(true, AsyncCompiler.addr(c, 0, Space.GLOBAL), AsyncCompiler.addr(c, 1, Space.SHARED), Space.SHARED,
                    c.src(2, ScalarType.U32), null, null, op, t);
        }
        if (!c.has(".shared::cluster") || !c.has(".mbarrier::complete_tx::bytes")) {
            throw c.error(name + ": a bulk reduction to shared memory is .shared::cluster.shared::cta with .mbarrier::complete_tx::bytes");
        }
        if (c.has(".L2::cache_hint")) throw c.error(name + ": a bulk reduction to shared::cluster takes no .L2::cache_hint");
        c.expectOperands(4, 4);
        return new CpAsyncBulkOp(false, AsyncCompiler.addr(c, 0, Space.SHARED), AsyncCompiler.addr(c, 1, Space.SHARED), Space.SHARED,
                c.src(2, ScalarType.U32), AsyncCompiler.addr(c, 3, Space.SHARED), null, op, t);
    }

    /**
     * cp.async.bulk.prefetch.L2.global [src], size and cp.async.bulk.prefetch.tensor.Nd.L2.global
     * [tensorMap, {c0, ...}]: hints to bring data into the L2 cache. They change no memory a thread
     * can observe, so they run as no-ops once their operands are checked.
     */
    static Op prefetch(CompileContext c) {
        String name = c.insn().mnemonic();
        if (!c.has(".global")) throw c.error(name + ": a bulk prefetch reads .global memory");
        if (c.has(".tensor")) {
            for (String m : c.insn().modifiers()) {
                String sm100 = AsyncCompiler.sm100Refusal("tensor prefetch mode", m);
                if (sm100 != null) throw c.error("unsupported instruction " + name + " (" + sm100 + ")");
            }
            int rank = AsyncCompiler.rank(c);
            c.expectOperands(1, 3);
            AsyncCompiler.cachePolicy(c, c.has(".im2col") ? 2 : 1);
            AsyncCompiler.tensorOperand(c, 0, rank);
            for (String m : c.insn().modifiers()) {
                if (m.startsWith(".im2col") && !m.equals(".im2col")) {
                    throw c.error("unsupported instruction " + name + " (tensor prefetch in " + m + " mode is not modelled; .tile and .im2col are)");
                }
            }
            if (c.has(".im2col")) {
                // As the copy: rank 3 to 5 and one im2col offset per spatial dimension (9.7.9.25.5.4).
                if (rank < 3) throw c.error(name + ": im2col mode needs a 3d, 4d or 5d tensor (PTX ISA 5.5.4), not " + rank + "d");
                if (c.operandCount() < 2 || !(c.operand(1) instanceof io.barrierscope.ptx.Operand.Vector v) || v.elements().size() != rank - 2) {
                    throw c.error(name + " is " + rank + "-d, so it takes " + (rank - 2) + " im2col offsets {o0, ...} after the tensor operand");
                }
                for (io.barrierscope.ptx.Operand o : v.elements()) c.src(o, ScalarType.U16);
            }
        } else {
            c.expectOperands(2, 3);
            AsyncCompiler.cachePolicy(c, 2);
            return new BulkPrefetchOp(AsyncCompiler.addr(c, 0, Space.GLOBAL), c.src(1, ScalarType.U32));
        }
        return new Hint();
    }

    /** An instruction with no effect on memory or threads in this model. */
    static final class Hint extends LaneOp {
        @Override
        protected void lane(Machine m, int t) {}
    }
}
