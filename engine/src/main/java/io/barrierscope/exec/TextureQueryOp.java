package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code txq.query.b32 d, [a]} (PTX ISA 9.7.10.5) of a texture object: {@code .width},
 * {@code .height}, {@code .depth} (texels; 0 for a dimension the object does not have, as
 * cudaArrayGetInfo reports it), {@code .normalized_coords} (1 or 0), {@code .filter_mode} (0
 * nearest, 1 linear), {@code .array_size} (a layered object's layers, a cubemap layered one's
 * cubemaps; on an object that is no array texture-misuse, our decision), {@code .num_mipmap_levels}
 * (1 for an object without mipmaps) and {@code txq.level.{width,height,depth} d, [a], lod} (the
 * extent of level lod; a level the object does not have is texture-misuse, our decision). The other
 * attributes (channel data type and order, address modes, samples) are refused by name: their
 * encodings are not given by the ISA. Surface queries ({@code suq}) are {@link SurfaceQueryOp}.
 */
final class TextureQueryOp {
    private TextureQueryOp() {}

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        TexOp.oneOf(c, "query", ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".normalized_coords",
                ".array_size", ".num_mipmap_levels", ".num_samples", ".force_unnormalized_coords", ".filter_mode", ".addr_mode_0",
                ".addr_mode_1", ".addr_mode_2");
        boolean level = c.has(".level");
        String q = c.has(".width") ? "width" : c.has(".height") ? "height" : c.has(".depth") ? "depth"
                : level ? null
                : c.has(".normalized_coords") ? "normalized_coords" : c.has(".filter_mode") ? "filter_mode"
                : c.has(".array_size") ? "array_size" : c.has(".num_mipmap_levels") ? "num_mipmap_levels" : null;
        if (q == null) {
            throw c.unsupported(level ? "txq.level queries .width, .height or .depth"
                    : "only .width, .height, .depth, .normalized_coords, .filter_mode, .array_size and .num_mipmap_levels are modelled");
        }
        if (c.type() != ScalarType.B32) throw c.error(mn + " needs .b32");
        c.expectOperands(level ? 3 : 2, level ? 3 : 2);
        int d = c.dst(0);
        if (!(c.operand(1) instanceof Operand.Address a) || !(a.base() instanceof Operand.Reg) || a.offset() != 0) {
            throw c.unsupported("only texture objects (a .u64 register) are modelled, not .texref/.samplerref variables");
        }
        Src handle = c.src(a.base(), ScalarType.U64);
        Src lod = level ? c.src(c.operand(2), ScalarType.S32) : null;
        // The query resolved once here, not matched by name on every execution.
        java.util.function.ToLongFunction<TextureObject> query = switch (q) {
            case "width" -> TextureObject::width;
            case "height" -> o -> o.dims() >= 2 ? o.height() : 0;
            case "depth" -> o -> o.dims() >= 3 ? o.depth() : 0;
            case "normalized_coords" -> o -> o.normalizedCoords() ? 1 : 0;
            case "array_size" -> o -> Integer.toUnsignedLong(o.layers()) / (o.cube() ? 6 : 1);
            case "num_mipmap_levels" -> o -> 0; // answered from the descriptor's mipmap bytes below
            default -> o -> o.linear() ? 1 : 0;
        };
        boolean mipLevels = q.equals("num_mipmap_levels"), arraySize = q.equals("array_size");
        return new MemoryOps.CheckedOp((m, t) -> {
            long h = handle.get(m, t);
            TextureObject o = TextureObject.read(m.memory, h, t, false, mn);
            long v;
            if (mipLevels) {
                v = Mipmap.read(m.memory, h, t).levels();
            } else if (level) {
                // txq.level: the extent of level lod; a level the object does not have is not given a meaning (our decision).
                int levels = Mipmap.read(m.memory, h, t).levels();
                int l = (int) lod.get(m, t);
                if (l < 0 || l >= levels) {
                    throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + ": level " + l + " of a texture object with " + levels + " level(s)");
                }
                v = query.applyAsLong(Mipmap.level(o, l));
            } else {
                if (arraySize && !o.layered()) {
                    throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a " + o.geometry() + " texture object, which is no texture array");
                }
                v = query.applyAsLong(o);
            }
            if (d >= 0) m.setReg(t, d, v);
        });
    }
}
