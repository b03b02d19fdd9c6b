package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.MmaOp.Elem;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * Sparse {@code wgmma.mma_async.sp.sync.aligned} (PTX ISA 9.7.15.6): the dense operation
 * ({@link WgmmaOp}) with a structured-sparse 64 x K A stored packed as 64 x K/2, the non-zero
 * elements only (9.7.15.6.1). The packed A is read exactly as a dense A of K/2 columns: from a
 * descriptor, or from four registers in the dense A fragment of K/2 (CUTLASS's register layouts
 * for sparse A are its dense ones in K/2 columns). Each warp's {@code sp-meta} register then says
 * where in the row each stored element goes; B (K x N) and D are the dense ones.
 *
 * <p>Metadata (9.7.15.6.1-2; the bit positions are CUTLASS's metadata layouts
 * {@code ELayout_64x32/64x16/64x64}, the thread-to-element maps of the ISA's Figures 176-181): a
 * nibble per chunk, chunk c of a thread's share at bits 4c..4c+3. For f16/bf16 (K = 32, chunks of
 * 4, two 2-bit indices: the low one places the chunk's first stored element, the high one its
 * second) and tf32 (K = 16, chunks of 2: 0b0100 the first element, 0b1110 the second), thread
 * 2 sel + h of each group of four (sel the sparsity selector) holds rows groupID (nibbles 0-3) and
 * groupID + 8 (nibbles 4-7) of columns h K/2 .. (h + 1) K/2 - 1. For the 8-bit types (K = 64,
 * chunks of 4) every thread holds one row: lane bit 0 adds 8 to the row, lane bit 1 32 to the
 * column, nibbles 0-7 the eight chunks. Other values the ISA leaves undefined are
 * {@code wgmma-bad-sparsity-metadata}.
 */
final class WgmmaSparseOp extends WgmmaOp {
    final Src meta;
    /** The sparsity selector: which thread pair of each group of four gives the metadata (0 for the 8-bit types). */
    final int sel;
    /** Elements of a chunk: 4 (2:4) or 2 (tf32's 1:2). */
    private final int chunk;

    private WgmmaSparseOp(CompileContext c, int n, int k, Elem[] t, boolean sat, int[] d, Src[] aRegs, int[] aIdx, Src aDesc, Src bDesc,
            Src scaleD, int[] imm, Src meta, int sel) {
        super(c, n, k, t, sat, d, aRegs, aIdx, aDesc, bDesc, scaleD, imm);
        this.meta = meta;
        this.sel = sel;
        this.chunk = ta == Elem.TF32 ? 2 : 4;
    }

    /** Operands 3 (sp-meta) and 4 (sp-sel, an immediate: 0 or 1, or 0 only for the 8-bit types). */
    static WgmmaSparseOp of(CompileContext c, int n, int k, Elem[] t, boolean sat, int[] d, Src[] aRegs, int[] aIdx, Src aDesc, Src bDesc,
            Src scaleD, int[] imm) {
        // ptxas: an immediate or a register other than 32 bits wide (any 32-bit type, .f32 too) is an argument mismatch
        if (!(c.operand(3) instanceof Operand.Reg r) || r.negated() || r.reg().type().bits() != 32) {
            throw c.error(c.insn().mnemonic() + ": operand 4 (sp-meta) is " + CompileContext.describe(c.operand(3))
                    + "; sp-meta takes a 32-bit register only, no immediate or other width");
        }
        Src meta = c.src(3, ScalarType.B32);
        boolean eight = t[1].bits == 8;
        if (!(c.operand(4) instanceof Operand.Imm im) || im.value() < 0 || im.value() > (eight ? 0 : 1)) {
            throw c.error(c.insn().mnemonic() + ": operand 5 (sp-sel) must be the immediate " + (eight ? "0 for 8-bit types" : "0 or 1")
                    + "; other values are undefined (PTX ISA 9.7.15.6.1)");
        }
        return new WgmmaSparseOp(c, n, k, t, sat, d, aRegs, aIdx, aDesc, bDesc, scaleD, imm, meta, (int) im.value());
    }

    /** The packed A's register fragment is the dense one of K/2 columns. */
    @Override
    int[] aRowCol(int l, int i) { return MmaOp.aRowCol(ta, k / 2, l, i); }

    /** B's words, and the packed A's (64 x K/2) when A comes from a descriptor. */
    @Override
    int operandWords() { return ((aRegs == null ? 32 * k : 0) + n * k) * (ta.bits / 8) / 8; }

    /** The lane of a warp holding the metadata of chunk {@code c} of row {@code r} (0..15), and the nibble: {lane, nibble}. */
    int[] metaAt(int r, int c) {
        int g = r & 7;
        int upper = r >> 3;
        if (ta.bits == 8) return new int[] {4 * g + upper + 2 * (c >> 3), c & 7};
        return new int[] {4 * g + 2 * sel + (c >> 2), (c & 3) + 4 * upper};
    }

    /** Whether nibble {@code v} has a meaning (9.7.15.6.1): two different indices, or tf32's 0b0100 and 0b1110. */
    boolean valid(int v) {
        if (chunk == 2) return v == 0b0100 || v == 0b1110;
        return (v & 3) != (v >> 2);
    }

    /** Reads each lane's metadata register; a nibble the selected lanes hold with no meaning is reported. */
    @Override
    int[] metadata(Interpreter x, int base) {
        Machine m = x.machine();
        int[] out = new int[32];
        for (int l = 0; l < 32; l++) out[l] = (int) meta.get(m, base + l);
        int chunks = k / chunk;
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < chunks; c++) {
                int[] at = metaAt(r, c);
                int v = (out[at[0]] >>> (4 * at[1])) & 15;
                if (!valid(v)) {
                    x.report(DiagnosticCode.WGMMA_BAD_SPARSITY_METADATA, "lane " + at[0] + " of " + m.warpName(base >> 5) + " gives "
                            + insn.mnemonic() + " at " + x.where(pc) + " the metadata 0b" + bits4(v) + " (bits " + (4 * at[1] + 3) + ".."
                            + 4 * at[1] + ", row " + r + " of the warp's 16, columns " + chunk * c + ".." + (chunk * c + chunk - 1) + "): "
                            + (chunk == 2 ? "only 0b0100 and 0b1110 are meaningful for .tf32" : "the two indices of a chunk must differ")
                            + " (PTX ISA 9.7.15.6.1)", new int[] {pc}, new int[] {base + at[0]}, null);
                    return REFUSED;
                }
            }
        }
        return out;
    }

    private static String bits4(int v) {
        String s = Integer.toBinaryString(v | 16);
        return s.substring(1);
    }

    /**
     * A K-major B is 64 bytes along K for every sparse type: with a 32-byte swizzle its rows span
     * two swizzle atoms along K, whose distance the descriptor does not give (LBO is unused for
     * swizzled K-major operands, 9.7.15.5.1), so that layout is refused rather than guessed.
     */
    @Override
    int[][] compute(Machine m, int slot, WgmmaGroups.Part[] parts, int[][] dIn, WgmmaGroups.Reads reads) {
        MatrixDescriptor b = MatrixDescriptor.decode(parts[0].descB());
        if (!transB && b.swizzleBytes() == 32) {
            throw new MemoryFault(DiagnosticCode.WGMMA_BAD_DESCRIPTOR, b.startAddress(), "a K-major B 64 bytes along K through a 32-byte"
                    + " swizzle descriptor (" + b + ") is not modelled: use no swizzle or a 64- or 128-byte one");
        }
        return super.compute(m, slot, parts, dIn, reads);
    }

    /** The packed A (64 x K/2) spread over the 64 x K A by each warp's metadata; the other elements are zero. */
    @Override
    void readA(Machine m, int slot, WgmmaGroups.Part[] parts, double[] fa, WgmmaGroups.Reads reads) {
        int kp = k / 2;
        double[] packed = new double[64 * kp];
        loadA(m, slot, parts, packed, kp, reads);
        java.util.Arrays.fill(fa, 0, 64 * k, 0.0);
        int per = chunk / 2; // stored elements per chunk
        for (int i = 0; i < 64; i++) {
            int[] lanes = parts[i >> 4].meta();
            for (int c = 0; c < k / chunk; c++) {
                int[] at = metaAt(i & 15, c);
                int v = (lanes[at[0]] >>> (4 * at[1])) & 15;
                if (chunk == 2) {
                    fa[(2 * c + (v == 0b1110 ? 1 : 0)) * 64 + i] = packed[c * 64 + i];
                    continue;
                }
                for (int j = 0; j < per; j++) fa[(4 * c + ((v >> (2 * j)) & 3)) * 64 + i] = packed[(2 * c + j) * 64 + i];
            }
        }
    }
}
