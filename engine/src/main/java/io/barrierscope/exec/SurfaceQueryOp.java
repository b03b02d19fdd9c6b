package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code suq.query.b32 d, [a]} (PTX ISA 9.7.11.4) of a surface object: {@code .width},
 * {@code .height}, {@code .depth} (in elements; 0 for a dimension the object does not have, as
 * cudaArrayGetInfo reports it, and a layered object's layers are no depth); {@code .array_size}
 * ("for a surface array, number of surfaces in array, 0 otherwise": the number of layers of a
 * layered object); {@code .memory_layout} ("1 for surface with linear memory layout; 0
 * otherwise": descriptor byte 76, which the runtime sets for linear memory only; a CUDA array's
 * layout is opaque, so 0). {@code .channel_data_type} and {@code .channel_order} are "the source
 * language's" enumeration values, and CUDA C++ has no such query to say which: refused by name.
 */
final class SurfaceQueryOp {
    private SurfaceQueryOp() {}

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        TexOp.oneOf(c, "query", ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".array_size", ".memory_layout");
        if (c.has(".channel_data_type") || c.has(".channel_order")) {
            throw c.unsupported("the ISA gives .channel_data_type and .channel_order as the source language's enumeration, "
                    + "and CUDA C++ defines none for them");
        }
        String q = c.has(".width") ? "width" : c.has(".height") ? "height" : c.has(".depth") ? "depth"
                : c.has(".array_size") ? "array_size" : c.has(".memory_layout") ? "memory_layout" : null;
        if (q == null) throw c.error(mn + " needs a query: .width, .height, .depth, .array_size or .memory_layout");
        if (c.type() != ScalarType.B32) throw c.error(mn + " needs .b32");
        c.expectOperands(2, 2);
        int d = c.dst(0);
        if (!(c.operand(1) instanceof Operand.Address a) || !(a.base() instanceof Operand.Reg) || a.offset() != 0) {
            throw c.unsupported("only surface objects (a .u64 register) are modelled, not .surfref variables");
        }
        Src handle = c.src(a.base(), ScalarType.U64);
        // The query resolved once here, not matched by name on every execution.
        java.util.function.ToLongFunction<TextureObject> query = switch (q) {
            case "width" -> TextureObject::width;
            case "height" -> o -> o.dims() >= 2 ? o.height() : 0;
            case "depth" -> o -> o.dims() >= 3 ? o.depth() : 0;
            case "array_size" -> o -> o.layered() ? o.layers() & 0xFFFFFFFFL : 0;
            default -> o -> o.linearResource() ? 1 : 0;
        };
        return new MemoryOps.CheckedOp((m, t) -> {
            long v = query.applyAsLong(TextureObject.read(m.memory, handle.get(m, t), t, true, mn));
            if (d >= 0) m.setReg(t, d, v);
        });
    }
}
