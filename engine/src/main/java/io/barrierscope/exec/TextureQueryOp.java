package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code txq.query.b32 d, [a]} (PTX ISA 9.7.10.6) and {@code suq.query.b32 d, [a]} (9.7.10.9) of a
 * texture or surface object: {@code .width}, {@code .height}, {@code .depth} (texels; 0 for a
 * dimension the object does not have, as cudaArrayGetInfo reports it), and for textures
 * {@code .normalized_coords} (1 or 0) and {@code .filter_mode} (0 nearest, 1 linear). The other
 * attributes (channel data type and order, address modes, array size, mipmap levels, samples,
 * memory layout) and {@code txq.level} are refused by name: their encodings are not given by
 * the ISA.
 */
final class TextureQueryOp {
    private TextureQueryOp() {}

    static Op compile(CompileContext c, boolean surface) {
        String mn = c.insn().mnemonic();
        if (c.has(".level")) throw c.unsupported("txq.level is not modelled");
        String q = c.has(".width") ? "width" : c.has(".height") ? "height" : c.has(".depth") ? "depth"
                : !surface && c.has(".normalized_coords") ? "normalized_coords" : !surface && c.has(".filter_mode") ? "filter_mode" : null;
        if (q == null) throw c.unsupported("only .width, .height, .depth" + (surface ? "" : ", .normalized_coords and .filter_mode") + " are modelled");
        if (c.type() != ScalarType.B32) throw c.error(mn + " needs .b32");
        c.expectOperands(2, 2);
        int d = c.dst(0);
        if (!(c.operand(1) instanceof Operand.Address a) || !(a.base() instanceof Operand.Reg) || a.offset() != 0) {
            throw c.unsupported("only texture and surface objects (a .u64 register) are modelled, not .texref/.surfref/.samplerref variables");
        }
        Src handle = c.src(a.base(), ScalarType.U64);
        // The query resolved once here, not matched by name on every execution.
        java.util.function.ToLongFunction<TextureObject> query = switch (q) {
            case "width" -> TextureObject::width;
            case "height" -> o -> o.dims() >= 2 ? o.height() : 0;
            case "depth" -> o -> o.dims() >= 3 ? o.depth() : 0;
            case "normalized_coords" -> o -> o.normalizedCoords() ? 1 : 0;
            default -> o -> o.linear() ? 1 : 0;
        };
        return new MemoryOps.CheckedOp((m, t) -> {
            long v = query.applyAsLong(TextureObject.read(m.memory, handle.get(m, t), t, surface, mn));
            if (d >= 0) m.setReg(t, d, v);
        });
    }
}
