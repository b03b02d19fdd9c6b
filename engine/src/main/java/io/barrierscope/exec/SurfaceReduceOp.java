package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code sured.b.op.{1d,2d,3d}.ctype.mode [a, b], c} and {@code sured.p...} (PTX ISA 9.7.11.3): a
 * reduction into one location of a surface object, done as one atomic read-modify-write of the
 * location, as red does (9.7.13.6): relaxed, .gpu scope, which is what the race detector sees
 * (our decision: sured names no order or scope, so it takes red's defaults).
 * <ul>
 * <li>{@code .b}: x is a byte offset; .add on .u32, .u64, .s32; .min and .max on .u32, .s32,
 * .u64, .s64; .and and .or on .b32 (else an error at load, as ptxas). The access is the type's
 * size, and x must be a multiple of it (misaligned-access, as for suld.b/sust.b).</li>
 * <li>{@code .p}: x is a sample index; .b32 or .b64 (.b64 with .min and .max only), read as
 * unsigned for an unsigned format and signed for a signed one. A float format has no reading
 * (the ISA names UINT and SINT only), and a sample that is not one integer channel of the type's
 * width has none either (our decision): texture-misuse.</li>
 * </ul>
 * The mode is required ({@code .trap}: memory fault out of range, {@code .clamp}: the nearest
 * location, {@code .zero}: the reduction is dropped). The ISA gives sured no layered geometry.
 */
final class SurfaceReduceOp {
    private SurfaceReduceOp() {}

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean sample = ".p".equals(TexOp.oneOf(c, "addressing", ".b", ".p"));
        if (!sample && !c.has(".b")) throw c.error(mn + " needs .b (byte addressing) or .p (sample addressing)");
        String named = TexOp.oneOf(c, "operation", ".add", ".min", ".max", ".and", ".or");
        if (named == null) throw c.error(mn + " needs .add, .min, .max, .and or .or");
        String op = named.substring(1);
        int dims = TexOp.geometry(c);
        if (dims == 0) throw c.error(mn + ": sured takes .1d, .2d or .3d");
        int mode = SurfaceOp.mode(c, true);
        ScalarType t = c.type();
        boolean ok = sample
                ? t == ScalarType.B32 || (t == ScalarType.B64 && (op.equals("min") || op.equals("max")))
                : switch (op) {
                    case "add" -> t == ScalarType.U32 || t == ScalarType.U64 || t == ScalarType.S32;
                    case "min", "max" -> t == ScalarType.U32 || t == ScalarType.S32 || t == ScalarType.U64 || t == ScalarType.S64;
                    default -> t == ScalarType.B32;
                };
        if (!ok) throw c.error(mn + ": ." + op + " does not take ." + t.ptxName() + " (PTX ISA 9.7.11.3)");
        int size = t.bits() / 8;
        c.expectOperands(2, 2);
        Src[] parts = TexOp.handleAndCoordinates(c, 0, TexOp.coordinateCount(dims, false), ScalarType.S32, false);
        Src handle = parts[0];
        Src[] coord = java.util.Arrays.copyOfRange(parts, 1, 1 + dims);
        Src value = c.src(1, t);
        boolean typeSigned = t.isSigned();
        MemoryOps.CheckedOp out = new MemoryOps.CheckedOp((m, th) -> {
            long h = handle.get(m, th);
            TextureObject o = SurfaceOp.object(m, h, th, dims, false, mn);
            boolean signed = typeSigned;
            if (sample) {
                if (o.kind() != TextureObject.SIGNED && o.kind() != TextureObject.UNSIGNED) {
                    throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a surface whose format is not integer: "
                            + "the ISA reads sured.p data as unsigned or signed by the format only");
                }
                if (o.bits()[0] != size * 8 || o.bits()[1] != 0) {
                    throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a surface whose samples are not one "
                            + size * 8 + "-bit integer channel");
                }
                signed = o.kind() == TextureObject.SIGNED;
            }
            long[] at = SurfaceOp.coordinates(m, th, coord);
            long addr = SurfaceOp.locate(o, at, dims, size, sample, mode, h, mn);
            if (addr < 0) return;
            long old = m.memory.load(Space.GLOBAL, addr, size, th);
            long b = value.get(m, th);
            m.memory.store(Space.GLOBAL, addr, size, Values.trunc(apply(op, old, b, size, signed), size * 8), th);
        });
        out.strong(1, true, MemoryModelHook.SCOPE_GPU);
        return out;
    }

    /** old op b on {@code size}-byte integers, signed or unsigned (min, max); add, and, or wrap alike either way. */
    static long apply(String op, long old, long b, int size, boolean signed) {
        int sh = 64 - size * 8;
        long x = signed ? (old << sh) >> sh : size == 8 ? old : old & 0xFFFFFFFFL;
        long y = signed ? (b << sh) >> sh : size == 8 ? b : b & 0xFFFFFFFFL;
        return switch (op) {
            case "add" -> x + y;
            case "min" -> signed ? Math.min(x, y) : (Long.compareUnsigned(x, y) <= 0 ? x : y);
            case "max" -> signed ? Math.max(x, y) : (Long.compareUnsigned(x, y) >= 0 ? x : y);
            case "and" -> x & y;
            default -> x | y;
        };
    }
}
