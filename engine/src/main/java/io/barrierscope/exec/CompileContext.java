package io.barrierscope.exec;

import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.ptx.SpecialRegister;
import java.util.List;

/** Compiles the operands of one instruction against the program's layout; reports located errors. */
public final class CompileContext {
    /** A compiled memory operand: the address for a thread and the space it names. */
    public record Addr(Src address, int space) {}

    final Program program;
    final Function function;
    final int regBase;
    Instruction insn;

    CompileContext(Program program, Function function, int regBase) {
        this.program = program;
        this.function = function;
        this.regBase = regBase;
    }

    public Instruction insn() { return insn; }

    /** "unsupported instruction MNEMONIC (why)": the refusal of a form the engine does not model. */
    public PtxException unsupported(String why) {
        return error("unsupported instruction " + insn.mnemonic() + " (" + why + ")");
    }

    public PtxException error(String detail) {
        int line = insn.pos().line();
        List<String> lines = program.module.sourceLines();
        String text = line >= 1 && line <= lines.size() ? lines.get(line - 1) : null;
        return new PtxException(insn.pos(), text, detail);
    }

    public int operandCount() { return insn.operands().size(); }

    /** The module's {@code .target} names (e.g. sm_90a), for rules that differ by target. */
    public List<String> targets() { return program.module.target(); }

    /** The module's {@code .version} (e.g. "8.0"; empty when the module has none), for the PTX ISA notes. */
    public String ptxVersion() { return program.module.version(); }

    /** The module's {@code .version} as major*10+minor ("7.8" -> 78), or -1 when it is none or not of that form. */
    public int ptxVersionNumber() { return PtxVersionNotes.parse(ptxVersion()); }

    public Operand operand(int i) {
        if (i >= insn.operands().size()) throw error(insn.mnemonic() + " needs at least " + (i + 1) + " operands");
        return insn.operands().get(i);
    }

    public void expectOperands(int min, int max) {
        int n = insn.operands().size();
        if (n < min || n > max) {
            throw error(insn.mnemonic() + " takes " + (min == max ? String.valueOf(min) : min + " to " + max)
                    + " operands, found " + n);
        }
    }

    /** Absolute register index of a destination, or -1 for the sink. */
    public int dst(Operand o) {
        if (o instanceof Operand.Sink) return -1;
        if (o instanceof Operand.Reg r && !r.negated()) return regBase + r.reg().index();
        throw error("expected a destination register, found " + describe(o));
    }

    public int dst(int i) { return dst(operand(i)); }

    /** The declared type of a register operand, or null. */
    public ScalarType regType(Operand o) {
        return o instanceof Operand.Reg r ? r.reg().type() : null;
    }

    public Src src(int i, ScalarType type) { return src(operand(i), type); }

    /**
     * Operands {@code 0..n-1} must each be a 32-bit integer or bit-size register (not negated):
     * the packed 16-bit and SIMD video instructions take no immediates and no other widths
     * (ptxas: "Arguments mismatch", "Incorrect video selector"). {@code what} names the form.
     */
    public void expectB32Registers(int n, String what) {
        for (int i = 0; i < n; i++) expectB32Register(i, what);
    }

    /** Operand {@code i} must be a 32-bit integer or bit-size register, not negated ({@link #expectB32Registers}). */
    public void expectB32Register(int i, String what) {
        Operand o = operand(i);
        ScalarType t = regType(o);
        if (!(o instanceof Operand.Reg r) || r.negated() || t == null || t.bits() != 32 || t.isFloat()) {
            throw error(insn.mnemonic() + ": operand " + (i + 1) + " is " + describe(o) + "; " + what
                    + " takes .b32/.u32/.s32 registers only, no immediates or other widths");
        }
    }

    /** A source operand; immediates are converted to the instruction type's bit pattern. */
    public Src src(Operand o, ScalarType type) {
        if (o instanceof Operand.Reg r) {
            int idx = regBase + r.reg().index();
            return r.negated() ? Src.notPred(idx) : Src.reg(idx);
        }
        if (o instanceof Operand.Imm imm) return Src.imm(immBits(imm, type));
        if (o instanceof Operand.Special s) return SpecialRegisters.src(s.kind(), s.component());
        if (o instanceof Operand.Symbol sym) return Src.imm(symbolAddress(sym));
        throw error("expected a register or immediate, found " + describe(o));
    }

    long immBits(Operand.Imm imm, ScalarType type) {
        if (type != null && type == ScalarType.F32) {
            return switch (imm.kind()) {
                case FLOAT32 -> imm.value() & 0xFFFFFFFFL;
                case FLOAT64 -> Values.bits((float) Double.longBitsToDouble(imm.value()));
                case INT -> Values.bits((float) imm.value());
            };
        }
        if (type != null && type == ScalarType.F64) {
            return switch (imm.kind()) {
                case FLOAT32 -> Values.bits((double) Float.intBitsToFloat((int) imm.value()));
                case FLOAT64 -> imm.value();
                case INT -> Values.bits((double) imm.value());
            };
        }
        return imm.value();
    }

    /** The address of a variable in its own space (PTX: the value of a variable name). */
    public long symbolAddress(Operand.Symbol sym) {
        if (sym.variable() == null) throw error("'" + sym.name() + "' is a function; function addresses are not supported");
        Program.Placement p = program.placements.get(sym.variable().id());
        if (p == null) throw error("'" + sym.name() + "' has no storage");
        return p.address() + sym.offset();
    }

    /**
     * For the warp-wide fast ops: operands 1..n as plain registers (absolute index into
     * {@code regs}) or integer immediates (into {@code imms}, register slot -1). False when any
     * operand needs the general path (negation, special register, symbol, float immediate).
     */
    public boolean regsOrIntImms(int n, int[] regs, long[] imms) {
        for (int i = 0; i < n; i++) {
            Operand o = operand(i + 1);
            regs[i] = -1;
            if (o instanceof Operand.Reg r && !r.negated()) regs[i] = regBase + r.reg().index();
            else if (o instanceof Operand.Imm im && im.kind() == Operand.ImmKind.INT) imms[i] = im.value();
            else return false;
        }
        return true;
    }

    /** The state space named by the instruction's modifiers, or GENERIC. */
    public int spaceOf() {
        for (String mod : insn.modifiers()) {
            switch (mod) {
                case ".global": return Space.GLOBAL;
                case ".shared", ".shared::cta", ".shared::cluster": return Space.SHARED;
                case ".local": return Space.LOCAL;
                case ".const": return Space.CONST;
                case ".param", ".param::entry", ".param::func": return Space.KERNEL_PARAM;
                default:
            }
        }
        return Space.GENERIC;
    }

    /** Compiles a memory operand {@code [base+offset]} for an access in {@code space}. */
    public Addr address(Operand o, int space) {
        if (!(o instanceof Operand.Address a)) throw error("expected an address [..], found " + describe(o));
        long off = a.offset();
        if (a.base() == null) return new Addr(Src.imm(off), space);
        if (a.base() instanceof Operand.Reg r) {
            int idx = regBase + r.reg().index();
            if (space == Space.KERNEL_PARAM && function != program.kernel) space = Space.THREAD_PARAM;
            return new Addr(off == 0 ? Src.reg(idx) : (m, t) -> m.regs[m.regIndex(t, idx)] + off, space);
        }
        if (a.base() instanceof Operand.Symbol sym) {
            if (sym.variable() == null) throw error("'" + sym.name() + "' is not a variable");
            Program.Placement p = program.placements.get(sym.variable().id());
            long addr = p.address() + sym.offset() + off;
            int vs = p.space();
            if (space == Space.GENERIC) return new Addr(Src.imm(toGeneric(vs, addr)), Space.GENERIC);
            boolean paramOk = space == Space.KERNEL_PARAM && (vs == Space.KERNEL_PARAM || vs == Space.THREAD_PARAM);
            if (vs != space && !paramOk) {
                throw error("'" + sym.name() + "' is in ." + Space.name(vs) + " space but " + insn.mnemonic()
                        + " accesses ." + Space.name(space));
            }
            return new Addr(Src.imm(addr), vs);
        }
        throw error("unsupported address base " + describe(a.base()));
    }

    /** The generic address of a variable named as a value (e.g. a __grid_constant__ parameter). */
    public long genericAddressOf(Operand.Symbol sym) {
        if (sym.variable() == null) throw error("'" + sym.name() + "' is not a variable");
        Program.Placement p = program.placements.get(sym.variable().id());
        return toGeneric(p.space(), p.address() + sym.offset());
    }

    /** Converts an address in a state space to its generic form. */
    public long toGeneric(int space, long addr) {
        return switch (space) {
            case Space.SHARED -> Space.SHARED_WINDOW + addr;
            case Space.LOCAL -> Space.LOCAL_WINDOW + addr;
            case Space.CONST -> Space.CONST_WINDOW + addr;
            case Space.KERNEL_PARAM -> Space.PARAM_WINDOW + addr;
            case Space.GLOBAL -> addr;
            default -> throw error("a ." + Space.name(space) + " variable has no generic address");
        };
    }

    /** The single type modifier (e.g. .u32), or an error. */
    public ScalarType type() {
        ScalarType found = null;
        for (String mod : insn.modifiers()) {
            ScalarType t = ScalarType.fromName(mod);
            if (t != null) {
                if (found != null) throw error(insn.mnemonic() + " has more than one type");
                found = t;
            }
        }
        if (found == null) throw error(insn.mnemonic() + " needs a type such as .u32");
        return found;
    }

    /** All type modifiers in order (cvt has two). */
    public List<ScalarType> types() {
        return insn.modifiers().stream().map(ScalarType::fromName).filter(t -> t != null).toList();
    }

    public boolean has(String mod) { return insn.has(mod); }

    static String describe(Operand o) {
        if (o instanceof Operand.Reg r) return "register " + r.reg().name();
        if (o instanceof Operand.Imm) return "an immediate";
        if (o instanceof Operand.Address) return "an address";
        if (o instanceof Operand.Symbol s) return "'" + s.name() + "'";
        if (o instanceof Operand.Label l) return "label " + l.name();
        if (o instanceof Operand.Vector) return "a vector";
        if (o instanceof Operand.Sink) return "'_'";
        if (o instanceof Operand.Pair) return "a d|p pair";
        if (o instanceof Operand.Special s) return s.kind().ptxName();
        return "an operand list";
    }

    static boolean isSpecial(Operand o, SpecialRegister k) {
        return o instanceof Operand.Special s && s.kind() == k;
    }
}
