package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code suld.b.{1d,2d,3d}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero} d, [a, b]} and
 * {@code sust.b...} {@code [a, b], c} (PTX ISA 9.7.11.1, 9.7.11.2): unformatted loads and stores
 * of a surface object. The x coordinate is a byte offset into the row, not scaled; y and z are
 * row and slice. An access of n bytes (vector count times element size) must start at a multiple
 * of n (our rule, as for ld/st: a misaligned-access fault otherwise). Out of range (x + n past the
 * row's bytes, y or z past the extent, any coordinate negative): {@code .trap} (the default) is a
 * memory fault, {@code .clamp} accesses the nearest location of the surface, {@code .zero} loads
 * zeros and drops stores. The layered {@code .a1d}/{@code .a2d} forms take the layer index first,
 * read as .u32 ({layer, x} and {layer, x, y, ignored}), and access that layer as a 1d or 2d
 * surface; a layer index not below the number of layers is texture-layer-range whatever the
 * mode (our decision: the ISA's clamp and zero modes speak of coordinates, not of the layer).
 * {@code sust.p} is {@link FormattedSurfaceOp}; {@code suld.p} is not in the ISA (its syntax gives
 * suld only .b, and ptxas knows no suld.p), so it is refused by name.
 */
final class SurfaceOp {
    private SurfaceOp() {}

    static final int TRAP = 0, CLAMP = 1, ZERO = 2;

    static Op compile(CompileContext c, boolean store) {
        String mn = c.insn().mnemonic();
        if (".p".equals(TexOp.oneOf(c, "addressing", ".b", ".p"))) {
            if (store) return FormattedSurfaceOp.compile(c);
            throw c.unsupported("suld.p is not in the PTX ISA: suld is unformatted (.b) only, and ptxas knows no suld.p");
        }
        if (!c.has(".b")) throw c.error(mn + " needs .b (unformatted) or .p");
        boolean layered = c.has(".a1d") || c.has(".a2d");
        int dims = TexOp.geometry(c);
        if (dims == 0) throw c.unsupported("only .1d, .2d, .3d, .a1d and .a2d surfaces are modelled");
        int vec = c.has(".v4") ? 4 : c.has(".v2") ? 2 : 1;
        ScalarType t = c.type();
        if (t != ScalarType.B8 && t != ScalarType.B16 && t != ScalarType.B32 && t != ScalarType.B64) {
            throw c.error(mn + ": the element type must be .b8, .b16, .b32 or .b64");
        }
        if (vec == 4 && t == ScalarType.B64) throw c.error(mn + ": .v4 takes .b8, .b16 or .b32 elements");
        int mode = mode(c);
        int es = t.bits() / 8;
        int size = vec * es;
        c.expectOperands(2, 2);
        Src[] parts = TexOp.handleAndCoordinates(c, store ? 0 : 1, TexOp.coordinateCount(dims, layered), ScalarType.S32, layered);
        Src handle = parts[0];
        Src layer = layered ? parts[1] : null;
        int first = layered ? 2 : 1;
        Src[] coord = java.util.Arrays.copyOfRange(parts, first, first + dims);
        int[] d = store ? null : MmaOp.dsts(c, 0, vec);
        Src[] v = store ? values(c, vec, t) : null;
        long mask = t == ScalarType.B64 ? -1L : (1L << t.bits()) - 1;
        return new MemoryOps.CheckedOp((m, th) -> {
            long h = handle.get(m, th);
            TextureObject o = object(m, h, th, dims, layered, mn);
            if (layered) o = o.layer(layer.get(m, th) & 0xFFFFFFFFL, h, mn);
            long[] at = coordinates(m, th, coord);
            long addr = locate(o, at, dims, size, false, mode, h, mn);
            if (addr < 0) {
                if (!store) for (int i = 0; i < vec; i++) if (d[i] >= 0) m.setReg(th, d[i], 0);
                return;
            }
            for (int i = 0; i < vec; i++) {
                if (store) m.memory.store(Space.GLOBAL, addr + (long) i * es, es, v[i].get(m, th) & mask, th);
                else if (d[i] >= 0) m.setReg(th, d[i], m.memory.load(Space.GLOBAL, addr + (long) i * es, es, th));
            }
        });
    }

    /** The coordinates x, y, z (each read as .s32; 0 past the geometry's), as {@link #locate} takes them. */
    static long[] coordinates(Machine m, int th, Src[] coord) {
        long[] at = {0, 0, 0};
        for (int k = 0; k < coord.length; k++) at[k] = (int) coord[k].get(m, th);
        return at;
    }

    /** The handle read as a surface object of the instruction's geometry ({@code texture-misuse} otherwise). */
    static TextureObject object(Machine m, long h, int th, int dims, boolean layered, String mn) {
        TextureObject o = TextureObject.read(m.memory, h, th, true, mn);
        if (o.dims() != dims || o.layered() != layered) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a " + o.geometry() + " surface object");
        }
        return o;
    }

    /** The mode named by the instruction: .trap (the default where the syntax allows none), .clamp or .zero. */
    static int mode(CompileContext c) { return mode(c, false); }

    /** As {@link #mode(CompileContext)}; where the syntax requires a mode (sust.p, sured), naming none is an error. */
    static int mode(CompileContext c, boolean required) {
        String m = TexOp.oneOf(c, "out-of-range mode", ".trap", ".clamp", ".zero");
        if (m == null && required) throw c.error(c.insn().mnemonic() + " needs .trap, .clamp or .zero");
        return ".clamp".equals(m) ? CLAMP : ".zero".equals(m) ? ZERO : TRAP;
    }

    /**
     * The global address of an access of {@code size} bytes at coordinates {@code at} (x in bytes,
     * or in samples when {@code samples}: then the access is one whole sample), or -1 where
     * {@code .zero} drops it. Out of range, {@code .trap} is a memory fault and {@code .clamp}
     * takes the nearest whole location; x not a multiple of the access size is misaligned.
     */
    static long locate(TextureObject o, long[] at, int dims, int size, boolean samples, int mode, long h, String mn) {
        long x = samples ? at[0] * o.texelBytes() : at[0];
        long rowBytes = (long) o.width() * o.texelBytes();
        if (x % size != 0) {
            throw new MemoryFault(DiagnosticCode.MISALIGNED_ACCESS, h, mn + ": byte coordinate x = " + x
                    + " is not a multiple of the access size (" + size + " bytes)");
        }
        boolean in = x >= 0 && x + size <= rowBytes;
        for (int k = 1; k < dims; k++) in &= at[k] >= 0 && at[k] < o.extent(k);
        if (!in) {
            if (mode == TRAP) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, h, mn + ": coordinate " + where(at, dims, samples) + " is outside the "
                        + extent(o, dims) + " surface of " + o.texelBytes() + "-byte texels (" + size + "-byte access)");
            }
            if (mode == ZERO) return -1;
            // .clamp: the nearest whole access inside the row; y and z to the nearest row and slice.
            if (rowBytes < size) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, h, mn + ": a " + size + "-byte access is wider than the surface's "
                        + rowBytes + "-byte rows");
            }
            x = Math.max(0, Math.min(x, (rowBytes - size) / size * size));
            for (int k = 1; k < dims; k++) at[k] = Math.max(0, Math.min(at[k], o.extent(k) - 1));
        }
        return o.base() + at[2] * o.slice() + at[1] * o.pitch() + x;
    }

    private static Src[] values(CompileContext c, int vec, ScalarType t) {
        Operand o = c.operand(1);
        List<Operand> el = o instanceof Operand.Vector v ? v.elements() : List.of(o);
        if (el.size() != vec) throw c.error(c.insn().mnemonic() + ": needs " + vec + " source values, found " + el.size());
        Src[] s = new Src[vec];
        for (int i = 0; i < vec; i++) s[i] = c.src(el.get(i), t);
        return s;
    }

    private static String where(long[] at, int dims, boolean samples) {
        StringBuilder b = new StringBuilder("(x = " + at[0] + (samples ? "" : " bytes"));
        if (dims > 1) b.append(", y = ").append(at[1]);
        if (dims > 2) b.append(", z = ").append(at[2]);
        return b.append(')').toString();
    }

    private static String extent(TextureObject o, int dims) {
        return o.width() + (dims > 1 ? " x " + o.height() : "") + (dims > 2 ? " x " + o.depth() : "");
    }
}
