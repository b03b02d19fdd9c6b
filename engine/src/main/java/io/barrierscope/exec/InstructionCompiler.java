package io.barrierscope.exec;

import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.sync.SyncCompiler;

/**
 * Turns one parsed instruction into an executable {@link Op}. Anything the engine does not
 * execute is refused here, at load, with "unsupported instruction X at file:line:col": never a
 * silent no-op.
 */
final class InstructionCompiler {
    private InstructionCompiler() {}

    static Op compile(CompileContext c, Instruction in) {
        c.insn = in;
        String opc = in.opcode();
        String bad = Modifiers.unknown(opc, in.modifiers());
        if (bad != null) {
            throw c.error("unknown instruction '" + in.mnemonic() + "': '" + bad + "' is not a modifier of " + opc);
        }
        String vectors = Modifiers.vectorSizes(in.modifiers());
        if (vectors != null) throw c.error("'" + in.mnemonic() + "' names more than one vector size (" + vectors + ")");
        TargetNotes.check(c);
        B128Ops.checkOperands(c, in);
        PtxVersionNotes.check(c);
        Op op = dispatch(c, opc);
        op.insn = in;
        op.regBase = c.regBase;
        if (in.guard() != null) {
            op.guardReg = c.regBase + in.guard().reg().index();
            op.guardNegated = in.guard().negated();
        }
        return op;
    }

    private static boolean floatType(CompileContext c) {
        for (String m : c.insn().modifiers()) {
            ScalarType t = ScalarType.fromName(m);
            if (t != null) return t.isFloat();
        }
        return false;
    }

    /** The instruction's type is f16, f16x2, bf16 or bf16x2. */
    private static boolean halfType(CompileContext c) {
        for (String m : c.insn().modifiers()) {
            ScalarType t = ScalarType.fromName(m);
            if (t != null) return HalfOps.isHalf(t);
        }
        return false;
    }

    private static Op dispatch(CompileContext c, String opc) {
        if (halfType(c) && opc.matches("add|sub|mul|fma|neg|abs|min|max|ex2|tanh")) return HalfOps.compile(c, opc);
        if ((opc.equals("add") || opc.equals("sub") || opc.equals("mad")) && c.has(".cc") || opc.equals("addc") || opc.equals("subc")
                || opc.equals("madc")) {
            return CarryOp.compile(c, opc);
        }
        if (PackedInt16Ops.names(c)) return PackedInt16Ops.compile(c, opc);
        if (VideoSimdOps.names(opc)) return VideoSimdOps.compile(c, opc);
        if (VideoScalarOps.names(opc)) return VideoScalarOps.compile(c, opc);
        if (opc.equals("vmad")) return VideoMadOp.compile(c);
        switch (opc) {
            case "add", "sub", "mul", "mad", "div", "min", "max", "abs", "neg":
                return floatType(c) ? FloatOps.compile(c, opc) : IntegerOps.compile(c, opc);
            case "rem", "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfind", "bfe", "bfi",
                    "prmt", "shf", "lop3", "szext", "bmsk", "fns", "mul24", "mad24":
                return IntegerOps.compile(c, opc);
            case "dp4a", "dp2a", "sad":
                return DotOps.compile(c, opc);
            case "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "lg2", "ex2", "testp", "copysign":
                return FloatOps.compile(c, opc);
            case "setp", "set", "selp", "slct":
                return CompareOps.compile(c, opc);
            case "mov", "cvt", "cvta":
                return ConvertOps.compile(c, opc);
            case "isspacep":
                return IsspacepOp.compile(c);
            case "createpolicy":
                return CreatepolicyOp.compile(c);
            case "ld", "ldu", "st", "atom", "red":
                if (c.has(".async")) {
                    if (opc.equals("st") || opc.equals("red")) return SyncCompiler.compile(c);
                    break;
                }
                return MemoryOps.compile(c, opc);
            case "cp":
                return SyncCompiler.compile(c);
            case "bra", "exit", "ret", "trap", "brkpt", "nanosleep":
                return ControlOps.compile(c, opc);
            case "mapa", "getctarank":
                // Checked, so a bad address is blamed on the lane that had it.
                return new MemoryOps.CheckedOp(MapaOp.compile(c, opc.equals("getctarank"))::lane);
            case "call":
                return CallOp.compile(c);
            case "bar", "barrier", "shfl", "vote", "match", "redux", "elect", "activemask", "mbarrier":
                return SyncCompiler.compile(c);
            case "membar":
                // membar.proxy is a synonym for fence.proxy (PTX ISA 9.7.13.4).
                if (!c.has(".proxy")) {
                    // membar.level: the level is not optional (9.7.13.4), there is no default to assume.
                    if (!c.has(".cta") && !c.has(".gl") && !c.has(".sys")) throw c.error(c.insn().mnemonic() + " needs a level (.cta, .gl or .sys)");
                    c.expectOperands(0, 0);
                    return new FenceOp(MemoryOps.scope(c));
                }
                if (c.has(".async")) return ProxyFenceOp.compile(c);
                if (c.has(".alias")) return ProxyFenceOp.compileOther(c);
                break;
            case "prefetch", "prefetchu", "griddepcontrol", "pmevent":
                // No effect on our model, but the operand count is still the ISA's: griddepcontrol
                // takes none (9.7.13.13), prefetch/prefetchu an address (9.7.9.15) and pmevent a mask (9.7.19).
                int operands = opc.equals("griddepcontrol") ? 0 : 1;
                c.expectOperands(operands, operands);
                return new ControlOps.NopOp();
            case "setmaxnreg":
                return SetmaxnregOp.compile(c);
            case "fence":
                // fence.proxy.async orders a thread's generic- and async-proxy accesses; the others are release/acquire fences.
                if (c.has(".proxy") && c.has(".async::generic")) return ProxyFenceOp.compileAsyncFromGeneric(c);
                if (c.has(".proxy") && c.has(".async")) return ProxyFenceOp.compile(c);
                if (c.has(".mbarrier_init") || !c.has(".proxy")) {
                    FenceForms.check(c);
                    // fence{.sem}.scope: the scope is not optional (9.7.13.4), there is no default to assume.
                    if (!MemoryOps.hasScope(c)) throw c.error(c.insn().mnemonic() + " needs a scope (.cta, .cluster, .gpu or .sys)");
                    c.expectOperands(0, 0);
                    return new FenceOp(MemoryOps.scope(c), c.has(".mbarrier_init"));
                }
                Op other = ProxyFenceOp.compileOther(c);
                if (other != null) return other;
                break;
            case "tensormap":
                if (c.has(".cp_fenceproxy")) return TensormapCpFenceproxyOp.compile(c);
                break;
            case "mma":
                if (c.has(".sp") || c.has(".sp::ordered_metadata")) break;
                return MmaOp.compile(c);
            case "wmma":
                return WmmaOp.compile(c);
            case "ldmatrix":
                return LdmatrixOp.compile(c);
            case "stmatrix":
                return StmatrixOp.compile(c);
            case "movmatrix":
                return MovmatrixOp.compile(c);
            case "tex":
                return TexOp.compile(c);
            case "tld4":
                return TexOp.compileGather(c);
            case "suld", "sust":
                return SurfaceOp.compile(c, opc.equals("sust"));
            case "sured":
                return SurfaceReduceOp.compile(c);
            case "suq":
                return SurfaceQueryOp.compile(c);
            case "txq":
                return TextureQueryOp.compile(c);
            case "wgmma":
                if (c.has(".mma_async")) return WgmmaOp.compile(c);
                if (c.has(".fence") || c.has(".commit_group") || c.has(".wait_group")) return WgmmaGroupOp.compile(c);
                break;
            default:
        }
        throw c.error("unsupported instruction " + c.insn().mnemonic());
    }
}
