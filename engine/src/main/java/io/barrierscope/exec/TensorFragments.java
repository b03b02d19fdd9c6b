package io.barrierscope.exec;

import io.barrierscope.exec.MmaOp.Elem;
import io.barrierscope.ptx.Operand;
import java.util.ArrayList;
import java.util.List;

/**
 * The matrix tiles of a program's tensor-core instructions, for tools that show them: which lane,
 * register and bits hold each element of an mma.sync fragment (PTX ISA 9.7.14.5.x) or of a wgmma
 * register operand (9.7.15.5.1.1), and which shared-memory address a wgmma matrix descriptor gives
 * each element of A or B (9.7.15.5.1, {@link MatrixDescriptor}). The layouts are the ones the
 * instructions execute with ({@link MmaOp#aRowCol}, {@link WgmmaOp#dRowCol}, ...), so what a tool
 * shows is what the engine computes. Reading values is side-effect free (no race detector, no
 * faults).
 */
public final class TensorFragments {
    private TensorFragments() {}

    /** A tensor-core instruction: mma.sync (one warp) or wgmma.mma_async (a warpgroup of four warps). */
    public record Instruction(int pc, String mnemonic, int line, boolean warpgroup, List<Tile> operands) {}

    /**
     * One operand as a matrix: {@code name} A, B, C or D; rows x cols elements of {@code type}
     * ({@code bits} wide); from registers, or (wgmma A or B) read through a matrix descriptor.
     */
    public record Tile(String name, int rows, int cols, String type, int bits, boolean descriptor) {}

    /**
     * Element ({@code row}, {@code col}) of a register operand is held by lane {@code lane} of warp
     * {@code warp} (0..3 within the warpgroup; 0 for mma.sync) in absolute register
     * {@code register} (named {@code registerName} in the PTX; -1 for an immediate), bits
     * {@code shift}..{@code shift + bits - 1}; {@code element} is its index in the lane's fragment.
     */
    public record Cell(int row, int col, int warp, int lane, int register, String registerName, int shift, int bits, int element) {}

    /** The tensor-core instructions of {@code p}, in program order. */
    public static List<Instruction> instructions(Program p) {
        List<Instruction> out = new ArrayList<>();
        for (Op op : p.code) {
            Instruction i = describe(op);
            if (i != null) out.add(i);
        }
        return out;
    }

    /** The tensor-core instruction at {@code pc}, or null. */
    public static Instruction at(Program p, int pc) {
        return pc >= 0 && pc < p.code.length ? describe(p.code[pc]) : null;
    }

    private static Instruction describe(Op op) {
        List<Tile> t = new ArrayList<>();
        if (op instanceof MmaOp mma) {
            t.add(new Tile("A", 16, mma.k, name(mma.ta), mma.ta.bits, false));
            t.add(new Tile("B", mma.k, 8, name(mma.tb), mma.tb.bits, false));
            t.add(new Tile("C", 16, 8, name(mma.tc), mma.tc.bits, false));
            t.add(new Tile("D", 16, 8, name(mma.td), mma.td.bits, false));
        } else if (op instanceof WgmmaOp w) {
            t.add(new Tile("A", 64, w.k, name(w.ta), w.ta.bits, w.aRegs == null));
            t.add(new Tile("B", w.k, w.n, name(w.tb), w.tb.bits, true));
            t.add(new Tile("D", 64, w.n, name(w.td), w.td.bits, false));
        } else {
            return null;
        }
        return new Instruction(op.pc, op.insn.mnemonic(), op.insn.pos().line(), op instanceof WgmmaOp, List.copyOf(t));
    }

    private static String name(Elem e) { return e.name().toLowerCase(); }

    private static Tile tile(Program p, int pc, String operand) {
        Instruction i = at(p, pc);
        if (i == null) throw new IllegalArgumentException("no tensor-core instruction at pc " + pc);
        for (Tile t : i.operands()) if (t.name().equals(operand)) return t;
        throw new IllegalArgumentException(i.mnemonic() + " has no operand " + operand);
    }

    /**
     * The cells of register operand {@code operand} of the instruction at {@code pc}: every element
     * of the matrix once, ordered by warp, lane and element.
     */
    public static List<Cell> cells(Program p, int pc, String operand) {
        Tile t = tile(p, pc, operand);
        if (t.descriptor()) throw new IllegalArgumentException("operand " + operand + " is read through a matrix descriptor");
        Op op = p.code[pc];
        List<Cell> out = new ArrayList<>();
        if (op instanceof MmaOp mma) {
            int index = switch (operand) { case "D" -> 0; case "A" -> 1; case "B" -> 2; default -> 3; };
            Operand.Reg[] regs = registers(op, index);
            int per = 32 / t.bits();
            for (int l = 0; l < 32; l++) {
                for (int r = 0; r < regs.length; r++) {
                    for (int j = 0; j < per; j++) {
                        int e = r * per + j;
                        int[] rc = switch (operand) {
                            case "A" -> MmaOp.aRowCol(mma.ta, mma.k, l, e);
                            case "B" -> MmaOp.bRowCol(mma.tb, mma.k, l, e);
                            default -> MmaOp.cRowCol(l, e);
                        };
                        out.add(cell(op, regs[r], rc[0], rc[1], 0, l, j * t.bits(), t.bits(), e));
                    }
                }
            }
            return out;
        }
        WgmmaOp w = (WgmmaOp) op;
        Operand.Reg[] regs = registers(op, operand.equals("D") ? 0 : 1);
        for (int warp = 0; warp < 4; warp++) {
            for (int l = 0; l < 32; l++) {
                if (operand.equals("D")) {
                    for (int e = 0; e < w.n / 2; e++) {
                        int[] rc = WgmmaOp.dRowCol(l, e);
                        boolean half = w.td == Elem.F16;
                        out.add(cell(op, regs[half ? e >> 1 : e], 16 * warp + rc[0], rc[1], warp, l, half ? 16 * (e & 1) : 0, t.bits(), e));
                    }
                } else {
                    int per = 32 / t.bits();
                    for (int r = 0; r < 4; r++) {
                        for (int j = 0; j < per; j++) {
                            int[] rc = w.aRowCol(l, r * per + j);
                            out.add(cell(op, regs[r], 16 * warp + rc[0], rc[1], warp, l, j * t.bits(), t.bits(), r * per + j));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static Cell cell(Op op, Operand.Reg reg, int row, int col, int warp, int lane, int shift, int bits, int element) {
        int abs = reg == null ? -1 : op.regBase + reg.reg().index();
        return new Cell(row, col, warp, lane, abs, reg == null ? "imm" : reg.reg().name(), shift, bits, element);
    }

    /** The registers of operand {@code index} (a vector or one register); null entries for immediates. */
    private static Operand.Reg[] registers(Op op, int index) {
        Operand o = op.insn.operands().get(index);
        List<Operand> el = o instanceof Operand.Vector v ? v.elements() : List.of(o);
        Operand.Reg[] out = new Operand.Reg[el.size()];
        for (int i = 0; i < out.length; i++) out[i] = el.get(i) instanceof Operand.Reg r ? r : null;
        return out;
    }

    /** The value of an element of {@code operand} whose bits are {@code bits} (as the instruction reads it). */
    public static double value(Program p, int pc, String operand, long bits) {
        Op op = p.code[pc];
        Elem e = switch (operand) {
            case "A" -> op instanceof MmaOp m ? m.ta : ((WgmmaOp) op).ta;
            case "B" -> op instanceof MmaOp m ? m.tb : ((WgmmaOp) op).tb;
            case "C" -> ((MmaOp) op).tc;
            default -> op instanceof MmaOp m ? m.td : ((WgmmaOp) op).td;
        };
        return e.value(bits);
    }

    /** Whether the elements of {@code operand} are integers (s8, u8, s32, b1). */
    public static boolean integral(Program p, int pc, String operand) {
        String type = tile(p, pc, operand).type();
        return type.equals("s8") || type.equals("u8") || type.equals("s32") || type.equals("b1");
    }

    /** The 64-bit matrix descriptor thread {@code slot} passes as wgmma operand A or B at {@code pc}. */
    public static long descriptor(Machine m, Program p, int pc, String operand, int slot) {
        WgmmaOp w = (WgmmaOp) p.code[pc];
        Src s = operand.equals("A") ? w.aDesc : w.bDesc;
        if (s == null) throw new IllegalArgumentException("operand " + operand + " is not read through a descriptor");
        return s.get(m, slot);
    }

    /**
     * The shared-memory byte address of every element of descriptor operand {@code operand}
     * ([row][col], the matrix as the instruction uses it: A is 64 x K, B is K x N) for descriptor
     * bits {@code desc}, with the instruction's transpose and the descriptor's swizzle.
     */
    public static long[][] addresses(Program p, int pc, String operand, long desc) {
        Tile t = tile(p, pc, operand);
        if (!t.descriptor()) throw new IllegalArgumentException("operand " + operand + " is held in registers");
        WgmmaOp w = (WgmmaOp) p.code[pc];
        MatrixDescriptor d = MatrixDescriptor.decode(desc);
        int e = w.elemBytes();
        long[][] out = new long[t.rows()][t.cols()];
        for (int r = 0; r < t.rows(); r++) {
            for (int c = 0; c < t.cols(); c++) {
                // as WgmmaOp.compute reads them: A by (row, k), B by (n, k); a .b1 element by the byte holding it
                int rk = w.ta == Elem.B1 ? r / 8 : r;
                int ck = w.ta == Elem.B1 ? c / 8 : c;
                out[r][c] = operand.equals("A") ? d.address(r, ck, e, !w.transA) : d.address(c, rk, e, !w.transB);
            }
        }
        return out;
    }

    /**
     * Where, in the byte {@link #addresses} gives element ({@code row}, {@code col}) of descriptor
     * operand {@code operand}, the element's bits start: 0 for types of a byte or more; for .b1,
     * bit k mod 8 of its K index k (the column of A, the row of B).
     */
    public static int shiftInByte(Program p, int pc, String operand, int row, int col) {
        WgmmaOp w = (WgmmaOp) p.code[pc];
        if (w.ta != Elem.B1) return 0;
        return (operand.equals("A") ? col : row) % 8;
    }

    /** The descriptor decoded, in words (start, offsets, swizzle). */
    public static String describeDescriptor(long desc) { return MatrixDescriptor.decode(desc).toString(); }

    /** The warp's first warp of its warpgroup (the CTA's warps in fours). */
    public static int warpgroupFirstWarp(Machine m, int warp) {
        int cta = warp / m.warpsPerCta;
        return cta * m.warpsPerCta + ((warp % m.warpsPerCta) & ~3);
    }
}
