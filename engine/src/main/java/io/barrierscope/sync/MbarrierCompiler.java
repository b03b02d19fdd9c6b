package io.barrierscope.sync;

import io.barrierscope.exec.CompileContext;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/** Compiles the mbarrier instructions (PTX ISA 9.7.13.15.9-17) of the CTA's own shared memory. */
final class MbarrierCompiler {
    private MbarrierCompiler() {}

    static Op compile(CompileContext c) {
        Op op = compileOp(c);
        if (op instanceof MbarrierOp mo) {
            mo.relaxed = c.has(".relaxed");
            mo.scope = c.has(".cluster") ? io.barrierscope.exec.MemoryModelHook.SCOPE_CLUSTER : io.barrierscope.exec.MemoryModelHook.SCOPE_CTA;
            mo.clusterSpace = c.has(".shared::cluster");
        }
        return op;
    }

    private static Op compileOp(CompileContext c) {
        if (c.has(".shared::cluster") && !(c.has(".arrive") || c.has(".arrive_drop") || c.has(".expect_tx") || c.has(".complete_tx"))) {
            throw c.error(c.insn().mnemonic() + ": only arrive, expect_tx and complete_tx take .shared::cluster (PTX ISA 9.7.13.15.8)");
        }
        checkSemAndScope(c);
        if (c.has(".pending_count")) {
            // "mbarrier.pending_count.b64 count, state;": the state is a register, there is no state space.
            if (c.spaceOf() != Space.GENERIC) {
                throw c.error(c.insn().mnemonic() + ": mbarrier.pending_count takes no state space (PTX ISA 9.7.13.15.17)");
            }
            c.expectOperands(2, 2);
            return new MbarrierPendingCountOp(c.dst(0), c.src(1, ScalarType.B64));
        }
        if (!c.has(".b64")) throw c.error(c.insn().mnemonic() + " needs type .b64");
        int space = c.spaceOf();
        boolean shared = space == Space.SHARED;
        if (c.has(".init")) {
            c.expectOperands(2, 2);
            return new MbarrierInitOp(addr(c, 0, space), shared, c.src(1, ScalarType.U32));
        }
        if (c.has(".inval")) {
            c.expectOperands(1, 1);
            return new MbarrierInitOp(addr(c, 0, space), shared, null);
        }
        if (c.has(".arrive") || c.has(".arrive_drop")) {
            boolean expectTx = c.has(".expect_tx");
            boolean noComplete = c.has(".noComplete");
            if (c.has(".arrive") && (c.has(".release") || c.has(".relaxed")) != (c.has(".cta") || c.has(".cluster"))) {
                throw c.error(c.insn().mnemonic() + ": qualifiers .sem and .scope must be specified together (PTX ISA 9.7.13.15.13)");
            }
            c.expectOperands(expectTx || noComplete ? 3 : 2, 3);
            if (!expectTx && !noComplete && c.operandCount() == 3 && c.targets().stream().anyMatch(t -> t.startsWith("sm_8"))) {
                // The sm_8x note of 9.7.13.15.13 and .14: there a count needs .noComplete.
                throw c.error(c.insn().mnemonic() + ": for sm_8x, when the argument count is specified, the modifier .noComplete is required (PTX ISA "
                        + (c.has(".arrive_drop") ? "9.7.13.15.14)" : "9.7.13.15.13)"));
            }
            if (c.has(".shared::cluster") && !(c.operand(0) instanceof Operand.Sink)) {
                throw c.error(c.insn().mnemonic() + ": an arrive on shared::cluster cannot return a state; use '_' (PTX ISA 9.7.13.15.13)");
            }
            if (noComplete && (c.has(".relaxed") || c.has(".cluster"))) {
                // Written .noComplete{.release}{.cta}: no relaxed or cluster-scope form.
                throw c.error(c.insn().mnemonic() + ": .noComplete takes only .release and .cta (PTX ISA "
                        + (c.has(".arrive_drop") ? "9.7.13.15.14)" : "9.7.13.15.13)"));
            }
            if (noComplete && expectTx) {
                // .noComplete and .expect_tx are separate forms of 9.7.13.15.13 and .14; none has both.
                throw c.error(c.insn().mnemonic() + ": .noComplete and .expect_tx do not go together (PTX ISA "
                        + (c.has(".arrive_drop") ? "9.7.13.15.14)" : "9.7.13.15.13)"));
            }
            if (noComplete && c.has(".shared::cluster")) {
                // The .noComplete forms of 9.7.13.15.13 and .14 are written with .shared{::cta} only.
                throw c.error(c.insn().mnemonic() + ": .noComplete has no .shared::cluster form (PTX ISA "
                        + (c.has(".arrive_drop") ? "9.7.13.15.14)" : "9.7.13.15.13)"));
            }
            Src count = c.operandCount() == 3 ? c.src(2, ScalarType.U32) : null;
            return new MbarrierArriveOp(addr(c, 1, space), shared, c.dst(0), count, c.has(".arrive_drop"), expectTx, noComplete);
        }
        if (c.has(".expect_tx") || c.has(".complete_tx")) {
            c.expectOperands(2, 2);
            return new MbarrierTxOp(addr(c, 0, space), shared, c.src(1, ScalarType.U32), c.has(".complete_tx"));
        }
        boolean tryWait = c.has(".try_wait");
        if (tryWait || c.has(".test_wait")) {
            boolean parity = c.has(".parity");
            c.expectOperands(3, tryWait ? 4 : 3);
            Src operand = c.src(2, parity ? ScalarType.U32 : ScalarType.B64);
            Src hint = c.operandCount() == 4 ? c.src(3, ScalarType.U32) : null;
            return new MbarrierWaitOp(addr(c, 1, space), shared, c.dst(0), operand, parity, tryWait, hint);
        }
        throw c.error("unsupported instruction " + c.insn().mnemonic());
    }

    /**
     * Each mbarrier instruction's .sem and .scope lists: arrive and arrive_drop ".sem = { .release,
     * .relaxed }", expect_tx and complete_tx "{ .relaxed }", test_wait and try_wait "{ .acquire,
     * .relaxed }", all ".scope = { .cta, .cluster }"; init, inval and pending_count have neither
     * (PTX ISA 9.7.13.15.9-17).
     */
    private static void checkSemAndScope(CompileContext c) {
        String mn = c.insn().mnemonic();
        String[] sems;
        String sec;
        if (c.has(".arrive") || c.has(".arrive_drop")) {
            sems = new String[] {".release", ".relaxed"};
            sec = c.has(".arrive_drop") ? "9.7.13.15.14" : "9.7.13.15.13";
        } else if (c.has(".expect_tx") || c.has(".complete_tx")) {
            sems = new String[] {".relaxed"};
            sec = c.has(".complete_tx") ? "9.7.13.15.12" : "9.7.13.15.11";
        } else if (c.has(".test_wait") || c.has(".try_wait")) {
            sems = new String[] {".acquire", ".relaxed"};
            sec = "9.7.13.15.16";
        } else {
            sems = new String[0];
            sec = c.has(".init") ? "9.7.13.15.9" : c.has(".inval") ? "9.7.13.15.10" : "9.7.13.15.17";
        }
        for (String sem : new String[] {".release", ".relaxed", ".acquire", ".acq_rel", ".sc"}) {
            if (c.has(sem) && !java.util.Arrays.asList(sems).contains(sem)) {
                throw c.error(mn + ": " + sem + " is not a .sem of this instruction ("
                        + (sems.length == 0 ? "it takes none" : "it takes " + String.join(" or ", sems)) + "; PTX ISA " + sec + ")");
            }
        }
        for (String scope : new String[] {".cta", ".cluster", ".gpu", ".sys"}) {
            boolean listed = sems.length > 0 && (scope.equals(".cta") || scope.equals(".cluster"));
            if (c.has(scope) && !listed) {
                throw c.error(mn + ": " + scope + " is not a .scope of this instruction ("
                        + (sems.length == 0 ? "it takes none" : "it takes .cta or .cluster") + "; PTX ISA " + sec + ")");
            }
        }
    }

    private static Src addr(CompileContext c, int i, int space) {
        if (!(c.operand(i) instanceof Operand.Address)) throw c.error(c.insn().mnemonic() + " needs an address operand [addr]");
        return c.address(c.operand(i), space).address();
    }
}
