package io.barrierscope.sync;

import io.barrierscope.exec.CompileContext;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Src;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/** Compiles the CTA barrier and warp-level synchronization instructions. */
public final class SyncCompiler {
    private SyncCompiler() {}

    /**
     * What the synchronization ops need from the whole compiled program, made once when it is built
     * (before any run): each mbarrier poll's loop ({@link PollLoop}).
     */
    public static void link(io.barrierscope.exec.Program p) { PollLoop.link(p); }

    public static Op compile(CompileContext c) {
        String opc = c.insn().opcode();
        if (opc.equals("bar") && c.has(".warp")) return barWarpSync(c);
        return switch (opc) {
            case "bar", "barrier" -> barrier(c);
            case "shfl" -> shfl(c);
            case "vote" -> vote(c);
            case "match" -> match(c);
            case "redux" -> redux(c);
            case "elect" -> elect(c);
            case "mbarrier" -> MbarrierCompiler.compile(c);
            case "cp" -> AsyncCompiler.cp(c);
            case "st", "red" -> AsyncCompiler.storeAsync(c, opc.equals("red"));
            case "wgmma" -> aligned(c);
            case "activemask" -> {
                c.expectOperands(1, 1);
                yield new ActiveMaskOp(c.dst(0));
            }
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
    }

    /** wgmma.fence / commit_group / wait_group N: .sync.aligned, a meeting of the whole warp. */
    private static Op aligned(CompileContext c) {
        if (!c.has(".sync") || !c.has(".aligned")) {
            throw c.error(c.insn().mnemonic() + " needs .sync.aligned (PTX ISA 9.7.15.7.1-3)");
        }
        boolean takesCount = c.has(".wait_group");
        c.expectOperands(takesCount ? 1 : 0, takesCount ? 1 : 0);
        return new AlignedWarpOp(c.insn().mnemonic(), c.insn().index());
    }

    /** "Same qualifiers" regardless of the order they are written in. */
    private static String kindKey(CompileContext c) {
        return c.insn().opcode() + String.join("", c.insn().modifiers().stream().sorted().toList());
    }

    private static void requireSync(CompileContext c) {
        if (!c.has(".sync")) {
            String opc = c.insn().opcode();
            if (!opc.equals("vote") && !opc.equals("shfl")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (" + opc + " has no form without .sync)");
            }
            // vote and shfl without .sync: "Not supported in PTX ISA version 6.4 for .target sm_70 or higher" (9.7.13.8,
            // 9.7.9.5). Older targets and versions may use them, but their result depends on which threads run in
            // lockstep, which the engine (independent thread scheduling only) does not model.
            boolean removed = c.targets().stream().anyMatch(t -> t.matches("sm_([7-9]\\d|\\d{3,})[a-z]?"))
                    && (c.ptxVersionNumber() < 0 || c.ptxVersionNumber() >= 64); // a version not of the form N.N: as the notes, recent
            String sec = opc.equals("vote") ? "9.7.13.8" : "9.7.9.5";
            throw c.error("unsupported instruction " + c.insn().mnemonic() + (removed
                    ? " (the form without .sync is not supported from PTX ISA 6.4 for .target sm_70 or higher, PTX ISA " + sec + "; use " + opc + ".sync)"
                    : " (the deprecated form without .sync is not modelled: its threads run in lockstep before sm_70, which the engine"
                            + " does not model, PTX ISA " + sec + "; use " + opc + ".sync)"));
        }
    }

    private static Op barWarpSync(CompileContext c) {
        c.expectOperands(1, 1);
        return new BarWarpSyncOp(c.src(0, ScalarType.B32));
    }

    private static Op barrier(CompileContext c) {
        if (c.has(".cluster")) {
            c.expectOperands(0, 0);
            boolean wait = c.has(".wait");
            if (wait == c.has(".arrive")) throw c.error("barrier.cluster needs exactly one of .arrive and .wait");
            return new ClusterBarrierOp(wait, c.has(".aligned"), c.has(".relaxed"));
        }
        boolean aligned = c.insn().opcode().equals("bar") || c.has(".aligned");
        if (c.has(".red")) {
            BarrierOp.RedOp op = c.has(".popc") ? BarrierOp.RedOp.POPC : c.has(".and") ? BarrierOp.RedOp.AND
                    : c.has(".or") ? BarrierOp.RedOp.OR : null;
            if (op == null) throw c.error(c.insn().mnemonic() + " needs .popc, .and or .or");
            if (op == BarrierOp.RedOp.POPC && !c.has(".u32")) throw c.error("bar.red.popc needs type .u32");
            if (op != BarrierOp.RedOp.POPC && !c.has(".pred")) throw c.error(c.insn().mnemonic() + " needs type .pred");
            c.expectOperands(3, 4);
            int n = c.operandCount();
            Src count = n == 4 ? c.src(2, ScalarType.U32) : null;
            return constant(c, new BarrierOp(CtaBarrier.Form.RED, aligned, c.src(1, ScalarType.U32), count, op,
                    c.src(n - 1, ScalarType.PRED), c.dst(0)));
        }
        if (c.has(".arrive")) {
            c.expectOperands(2, 2);
            return constant(c, new BarrierOp(CtaBarrier.Form.ARRIVE, aligned, c.src(0, ScalarType.U32), c.src(1, ScalarType.U32),
                    null, null, -1));
        }
        if (c.has(".sync")) {
            c.expectOperands(1, 2);
            Src count = c.operandCount() == 2 ? c.src(1, ScalarType.U32) : null;
            return constant(c, new BarrierOp(CtaBarrier.Form.SYNC, aligned, c.src(0, ScalarType.U32), count, null, null, -1));
        }
        // PTX ISA 9.7.13.1 has no bare "bar a": refused rather than guessed to be bar.sync.
        throw c.error("unknown instruction '" + c.insn().mnemonic() + "': " + c.insn().opcode()
                + " needs one of .sync, .arrive or .red (PTX ISA 9.7.13.1)");
    }

    /** Marks a barrier whose id and count are immediates, so whole-warp arrivals skip per-lane work. */
    private static BarrierOp constant(CompileContext c, BarrierOp op) {
        int first = op.form == CtaBarrier.Form.RED ? 1 : 0;
        int last = op.form == CtaBarrier.Form.RED ? c.operandCount() - 2 : c.operandCount() - 1;
        boolean constant = true;
        for (int i = first; i <= last; i++) constant &= c.operand(i) instanceof Operand.Imm;
        op.constantOperands = constant;
        return op;
    }

    private static int[] dstPair(CompileContext c, Operand o) {
        if (o instanceof Operand.Pair p) return new int[] {c.dst(p.first()), c.dst(p.second())};
        return new int[] {c.dst(o), -1};
    }

    private static Op shfl(CompileContext c) {
        requireSync(c);
        c.expectOperands(5, 5);
        ShflSyncOp.Mode mode = c.has(".up") ? ShflSyncOp.Mode.UP : c.has(".down") ? ShflSyncOp.Mode.DOWN
                : c.has(".bfly") ? ShflSyncOp.Mode.BFLY : c.has(".idx") ? ShflSyncOp.Mode.IDX : null;
        if (mode == null) throw c.error("shfl.sync needs .up, .down, .bfly or .idx");
        int[] d = dstPair(c, c.operand(0));
        return new ShflSyncOp(mode, c.src(1, ScalarType.B32), c.src(2, ScalarType.B32), c.src(3, ScalarType.B32),
                d[0], d[1], c.src(4, ScalarType.B32), kindKey(c));
    }

    private static Op vote(CompileContext c) {
        requireSync(c);
        c.expectOperands(3, 3);
        VoteSyncOp.Mode mode = c.has(".all") ? VoteSyncOp.Mode.ALL : c.has(".any") ? VoteSyncOp.Mode.ANY
                : c.has(".uni") ? VoteSyncOp.Mode.UNI : c.has(".ballot") ? VoteSyncOp.Mode.BALLOT : null;
        if (mode == null) throw c.error("vote.sync needs .all, .any, .uni or .ballot");
        if (mode == VoteSyncOp.Mode.BALLOT ? !c.has(".b32") : !c.has(".pred")) {
            throw c.error(c.insn().mnemonic() + ": the ballot form takes .b32, the other modes .pred");
        }
        return new VoteSyncOp(mode, c.src(1, ScalarType.PRED), c.dst(0), c.src(2, ScalarType.B32), kindKey(c));
    }

    private static Op match(CompileContext c) {
        requireSync(c);
        c.expectOperands(3, 3);
        boolean all = c.has(".all");
        if (!all && !c.has(".any")) throw c.error("match.sync needs .any or .all");
        boolean wide = c.has(".b64");
        // ".type = { .b32, .b64 }" (9.7.13.10): .u32, .s64 ... are not match.sync types.
        if (c.type() != ScalarType.B32 && c.type() != ScalarType.B64) {
            throw c.error(c.insn().mnemonic() + ": match.sync takes .b32 or .b64 (PTX ISA 9.7.13.10)");
        }
        // "The sink symbol '_' may be used in place of any one of the destination operands": not both.
        if (c.operand(0) instanceof Operand.Pair pr && pr.first() instanceof Operand.Sink && pr.second() instanceof Operand.Sink) {
            throw c.error(c.insn().mnemonic() + ": the sink '_' may stand for only one of the destinations d|p (PTX ISA 9.7.13.10)");
        }
        int[] d = dstPair(c, c.operand(0));
        if (!all && d[1] >= 0 || !all && c.operand(0) instanceof Operand.Pair) {
            throw c.error("match.sync.any has no predicate destination (only .all takes d|p)");
        }
        return new MatchSyncOp(all, wide, c.src(1, wide ? ScalarType.B64 : ScalarType.B32), d[0], d[1],
                c.src(2, ScalarType.B32), kindKey(c));
    }

    private static Op redux(CompileContext c) {
        requireSync(c);
        c.expectOperands(3, 3);
        if (c.has(".f32")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (redux.sync on .f32)");
        ReduxSyncOp.Kind k = c.has(".add") ? ReduxSyncOp.Kind.ADD : c.has(".min") ? ReduxSyncOp.Kind.MIN
                : c.has(".max") ? ReduxSyncOp.Kind.MAX : c.has(".and") ? ReduxSyncOp.Kind.AND
                : c.has(".or") ? ReduxSyncOp.Kind.OR : c.has(".xor") ? ReduxSyncOp.Kind.XOR : null;
        if (k == null) throw c.error("redux.sync needs an operation such as .add");
        boolean bitwise = k == ReduxSyncOp.Kind.AND || k == ReduxSyncOp.Kind.OR || k == ReduxSyncOp.Kind.XOR;
        if (bitwise ? !c.has(".b32") : !(c.has(".u32") || c.has(".s32"))) {
            throw c.error(c.insn().mnemonic() + ": .and/.or/.xor take .b32, .add/.min/.max take .u32 or .s32");
        }
        return new ReduxSyncOp(k, c.has(".s32"), c.src(1, ScalarType.B32), c.dst(0), c.src(2, ScalarType.B32), kindKey(c));
    }

    private static Op elect(CompileContext c) {
        requireSync(c);
        c.expectOperands(2, 2);
        int[] d = dstPair(c, c.operand(0));
        return new ElectSyncOp(c.src(1, ScalarType.B32), d[0], d[1]);
    }
}
