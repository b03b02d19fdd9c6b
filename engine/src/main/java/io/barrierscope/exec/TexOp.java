package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * {@code tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32} d, [a, c]} (PTX ISA 9.7.10.3) in unified
 * mode: {@code a} is a texture object (a .u64 register holding a {@link TextureObject} handle),
 * {@code c} the coordinates (a 2d texture takes two, a 3d one four, the fourth ignored).
 * Sampling follows docs/semantics.md, "Textures and surfaces": normalized coordinates are scaled
 * by the extent, point sampling takes texel floor(x), linear filtering blends the 2, 4 or 8
 * texels around x - 0.5 with weights in 1.8 fixed point, and each texel index passes through
 * the object's address mode. {@code .s32} coordinates are texel indices (no filtering); they
 * need unnormalized coordinates, and an object over linear memory takes nothing else.
 * The layered geometries {@code .a1d} and {@code .a2d} take the layer index as the first
 * coordinate element, read as .u32 (a1d: {layer, x}; a2d: {layer, x, y, ignored}), then fetch
 * from that layer as a 1d or 2d texture; filtering never crosses layers; a layer index not
 * below the number of layers is texture-layer-range (our decision: the ISA is silent).
 * The cubemap geometries {@code .cube} ({x, y, z, ignored}) and {@code .acube} ({cubemap, x, y,
 * z}) take a direction, whose face and face coordinates {@link CubeFace} gives; the face is then
 * fetched as a 2d texture with normalized coordinates.
 * {@code .level} and {@code .grad} fetch from the object's mipmap levels ({@link Mipmap}), of every
 * geometry: a layered or cubemap object's levels each hold all its layers (faces);
 * {@code .base}, like no mipmap mode, takes level 0. Multisample forms, an explicit sampler, offsets, depth compare and the
 * residency predicate are refused by name.
 */
final class TexOp {
    private TexOp() {}

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean cube = c.has(".cube") || c.has(".acube");
        boolean layered = c.has(".a1d") || c.has(".a2d") || c.has(".acube");
        int dims = geometry(c);
        if (dims == 0) throw c.unsupported("only .1d, .2d, .3d, .a1d, .a2d, .cube and .acube textures are modelled (no multisample forms)");
        String mipMode = oneOf(c, "mipmap mode", ".base", ".level", ".grad");
        boolean level = ".level".equals(mipMode), grad = ".grad".equals(mipMode);
        if (!c.has(".v4")) throw c.unsupported("only the .v4 forms are modelled (not .v2.f16x2)");
        List<ScalarType> types = c.types();
        if (types.size() != 2) throw c.error(mn + " needs a result type and a coordinate type, as in tex.2d.v4.f32.f32");
        ScalarType dtype = types.get(0);
        ScalarType ctype = types.get(1);
        if (dtype != ScalarType.F32 && dtype != ScalarType.S32 && dtype != ScalarType.U32) throw c.unsupported("results must be .f32, .s32 or .u32");
        if (ctype != ScalarType.F32 && ctype != ScalarType.S32) throw c.error(mn + ": coordinates must be .f32 or .s32");
        // A direction has no texel index: cube fetches take .f32 coordinates only (9.7.10.3).
        if (cube && ctype != ScalarType.F32) throw c.error(mn + ": .cube and .acube coordinates must be .f32");
        // .level takes the level of detail (of the coordinates' type), .grad two gradient vectors (.f32): 9.7.10.3.
        int extra = level ? 1 : grad ? 2 : 0;
        if (c.operandCount() != 2 + extra) throw c.unsupported("the offset and depth-compare operands are not modelled");
        if (c.operand(0) instanceof Operand.Pair) throw c.unsupported("the residency predicate d|p is not modelled");
        int[] d = MmaOp.dsts(c, 0, 4);
        Src[] parts = handleAndCoordinates(c, 1, cube ? 4 : coordinateCount(dims, layered), ctype, layered);
        Src lod = level ? c.src(c.operand(2), ctype) : null;
        // A cubemap's gradients are directions: four elements, the fourth ignored, as for 3d.
        Src[] dPdx = grad ? gradient(c, 2, cube ? 3 : dims) : null;
        Src[] dPdy = grad ? gradient(c, 3, cube ? 3 : dims) : null;
        Src handle = parts[0];
        Src layer = layered ? parts[1] : null;
        int first = layered ? 2 : 1;
        Src[] coord = java.util.Arrays.copyOfRange(parts, first, first + (cube ? 3 : dims));
        boolean floatCoords = ctype == ScalarType.F32;
        return new MemoryOps.CheckedOp((m, t) -> {
            long h = handle.get(m, t);
            TextureObject o = TextureObject.read(m.memory, h, t, false, mn);
            check(o, dims, layered, cube, dtype, mn, h);
            checkCoordinates(o, floatCoords, mn, h);
            long[] v;
            if (cube) {
                float[] dir = floats(m, t, coord);
                CubeFace f = CubeFace.of(dir[0], dir[1], dir[2], h, mn);
                long cubemap = layered ? layer.get(m, t) & 0xFFFFFFFFL : 0;
                float[] uv = {f.u(), f.v()};
                // One level's fetch: within the face, or across its edges with seamless filtering (byte 79).
                java.util.function.Function<TextureObject, long[]> fetch = SeamlessCube.of(m.memory, h, t)
                        ? lvl -> SeamlessCube.sample(m.memory, lvl, cubemap, f.face(), uv[0], uv[1], h, mn, t)
                        : lvl -> sample(m.memory, lvl.face(cubemap, f.face(), h, mn), uv, t);
                if (level || grad) {
                    // Every level holds all faces: pick the level(s), then the face within each (docs/semantics.md section 16).
                    Mipmap mip = Mipmap.read(m.memory, h, t);
                    float l = grad ? f.gradientLod(dir, floats(m, t, dPdx), floats(m, t, dPdy), o.width()) : Values.f32(lod.get(m, t));
                    v = mip.sample(o, l, fetch, h, mn);
                } else {
                    v = fetch.apply(o);
                }
            } else if (level || grad) {
                Mipmap mip = Mipmap.read(m.memory, h, t);
                float l = !grad ? (floatCoords ? Values.f32(lod.get(m, t)) : (float) (int) lod.get(m, t))
                        : Mipmap.gradientLod(o, floats(m, t, dPdx), floats(m, t, dPdy));
                // A layered object's levels each hold all its layers: pick the level(s), then the layer within each.
                long ly = layered ? layer.get(m, t) & 0xFFFFFFFFL : 0;
                java.util.function.UnaryOperator<TextureObject> within = lvl -> layered ? lvl.layer(ly, h, mn) : lvl;
                if (floatCoords || mip.levels() > 1) {
                    float[] fc = floatCoords ? floats(m, t, coord) : intsAsFloats(m, t, coord);
                    v = mip.sample(o, l, lvl -> sample(m.memory, within.apply(lvl), fc, t), h, mn);
                } else {
                    v = point(m.memory, within.apply(o), ints(m, t, coord), t);
                }
            } else {
                if (layered) o = o.layer(layer.get(m, t) & 0xFFFFFFFFL, h, mn);
                v = floatCoords ? sample(m.memory, o, floats(m, t, coord), t) : point(m.memory, o, ints(m, t, coord), t);
            }
            for (int i = 0; i < 4; i++) if (d[i] >= 0) m.setReg(t, d[i], v[i]);
        });
    }

    /**
     * {@code tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32 d, [a, c]} (PTX ISA 9.7.10.4): component
     * comp of the four texels linear filtering at c would blend, in counter-clockwise order from
     * the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j), where i = floor(x - 0.5) and
     * j = floor(y - 0.5), each index through the address mode. The object must allow gathers
     * (an array made with cudaArrayTextureGather; descriptor byte 59), else texture-misuse.
     * {@code tld4.a2d} takes {layer, x, y, ignored} and gathers within that layer of a layered object;
     * {@code tld4.cube} ({x, y, z, ignored}) and {@code .acube} ({cubemap, x, y, z}) within the face the
     * direction picks ({@link CubeFace}), at the face coordinates scaled by the face's width.
     */
    static Op compileGather(CompileContext c) {
        String mn = c.insn().mnemonic();
        int comp = List.of(".r", ".g", ".b", ".a").indexOf(oneOf(c, "component", ".r", ".g", ".b", ".a"));
        if (comp < 0) throw c.error(mn + " needs a component: .r, .g, .b or .a");
        boolean cube = c.has(".cube") || c.has(".acube");
        boolean layered = c.has(".a2d") || c.has(".acube");
        geometry(c); // two geometries are a load error
        if (!c.has(".2d") && !layered && !cube) throw c.error(mn + ": gathers are .2d, .a2d, .cube or .acube");
        if (!c.has(".v4")) throw c.error(mn + " needs .v4");
        List<ScalarType> types = c.types();
        if (types.size() != 2 || types.get(1) != ScalarType.F32) throw c.error(mn + " needs a result type and .f32 coordinates");
        ScalarType dtype = types.get(0);
        if (dtype != ScalarType.F32 && dtype != ScalarType.S32 && dtype != ScalarType.U32) throw c.error(mn + ": results must be .f32, .s32 or .u32");
        if (c.operandCount() != 2) throw c.unsupported("the offset and depth-compare operands are not modelled");
        if (c.operand(0) instanceof Operand.Pair) throw c.unsupported("the residency predicate d|p is not modelled");
        int[] d = MmaOp.dsts(c, 0, 4);
        // .a2d: {layer, x, y, ignored}, the layer read as .u32, as for tex.a2d (9.7.10.4).
        // .cube: {x, y, z, ignored}; .acube: {cubemap, x, y, z}, the cubemap index read as .u32.
        Src[] parts = handleAndCoordinates(c, 1, layered || cube ? 4 : 2, ScalarType.F32, layered);
        int first = layered ? 2 : 1;
        return new MemoryOps.CheckedOp((m, t) -> {
            long h = parts[0].get(m, t);
            TextureObject o = TextureObject.read(m.memory, h, t, false, mn);
            if (o.dims() != 2 || o.layered() != layered || o.cube() != cube) throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a " + o.geometry() + " texture object");
            if ((dtype == ScalarType.F32) != o.returnsFloat()) {
                throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " with ." + dtype.ptxName() + " results on a texture object whose fetches return "
                        + (o.returnsFloat() ? "floats" : "integers"));
            }
            if (!o.gather()) {
                // CUDA makes no cubemap that allows gathers ("Texture gather can only be performed on 2D CUDA arrays").
                throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, h, mn + " on a texture object whose array was not made with cudaArrayTextureGather"
                        + (cube ? " (CUDA allows it on 2D arrays only, so no cubemap can be gathered from)" : ""));
            }
            float[] xy = new float[2];
            if (cube) {
                // The face and its coordinates by the cubemap table; the footprint lies within the face (as for tex.cube).
                float[] dir = floats(m, t, java.util.Arrays.copyOfRange(parts, first, first + 3));
                CubeFace f = CubeFace.of(dir[0], dir[1], dir[2], h, mn);
                o = o.face(layered ? parts[1].get(m, t) & 0xFFFFFFFFL : 0, f.face(), h, mn);
                xy[0] = f.u();
                xy[1] = f.v();
            } else {
                if (layered) o = o.layer(parts[1].get(m, t) & 0xFFFFFFFFL, h, mn);
                for (int k = 0; k < 2; k++) xy[k] = Values.f32(parts[first + k].get(m, t));
            }
            int[] lo = new int[2];
            for (int k = 0; k < 2; k++) {
                float x = xy[k];
                if (o.normalizedCoords()) x *= (float) o.extent(k);
                lo[k] = floor(x - 0.5f);
            }
            int[][] at = {{lo[0], lo[1] + 1}, {lo[0] + 1, lo[1] + 1}, {lo[0] + 1, lo[1]}, {lo[0], lo[1]}};
            for (int i = 0; i < 4; i++) {
                long v = point(m.memory, o, at[i], t)[comp];
                if (d[i] >= 0) m.setReg(t, d[i], v);
            }
        });
    }


    /**
     * 1, 2 or 3 for .1d/.a1d, .2d/.a2d/.cube/.acube (a cubemap's faces are 2d), .3d; 0 for any other
     * geometry. Two geometries are a load error.
     */
    static int geometry(CompileContext c) {
        String g = oneOf(c, "geometry", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube", ".2dms", ".a2dms");
        if (g == null) return 0;
        return switch (g) {
            case ".1d", ".a1d" -> 1;
            case ".2d", ".a2d", ".cube", ".acube" -> 2;
            case ".3d" -> 3;
            default -> 0;
        };
    }

    /**
     * The one of {@code mods} the instruction names, or null for none. Naming more than one (a
     * geometry, mode, query, component, ...) is a load error: no one of them is picked.
     */
    static String oneOf(CompileContext c, String what, String... mods) {
        String found = null;
        for (String m : mods) {
            if (!c.has(m)) continue;
            if (found != null) throw c.error(c.insn().mnemonic() + " names more than one " + what + " (" + found + ", " + m + ")");
            found = m;
        }
        return found;
    }

    /** Coordinate elements of a geometry: 1d one, 2d two, 3d four; a1d two and a2d four (the layer first). */
    static int coordinateCount(int dims, boolean layered) {
        return layered ? (dims == 1 ? 2 : 4) : dims == 3 ? 4 : dims;
    }

    /**
     * Operand {@code i} as [handle, {coordinates}]: the handle register, then {@code n} coordinate
     * sources; with {@code layerFirst} the first is the layer index, read as .u32 (9.7.10.3, 9.7.11.1).
     */
    static Src[] handleAndCoordinates(CompileContext c, int i, int n, ScalarType ctype, boolean layerFirst) {
        String mn = c.insn().mnemonic();
        if (!(c.operand(i) instanceof Operand.Address a) || !(a.base() instanceof Operand.Vector v) || v.elements().size() != 2) {
            throw c.error(mn + ": expected [handle, {coordinates}]");
        }
        // A 1d coordinate may be a scalar or a singleton tuple (9.7.10.3, 9.7.11.1).
        Operand co = v.elements().get(1);
        Operand.Vector cv = co instanceof Operand.Vector vv ? vv : new Operand.Vector(List.of(co));
        if (!(v.elements().get(0) instanceof Operand.Reg)) {
            throw c.unsupported("only texture and surface objects (a .u64 register) are modelled, not .texref/.surfref variables or a separate sampler");
        }
        if (cv.elements().size() != n) throw c.error(mn + ": needs " + n + " coordinates, found " + cv.elements().size());
        Src[] out = new Src[1 + n];
        out[0] = c.src(v.elements().get(0), ScalarType.U64);
        for (int k = 0; k < n; k++) out[1 + k] = c.src(cv.elements().get(k), layerFirst && k == 0 ? ScalarType.U32 : ctype);
        return out;
    }

    /** The object must have the instruction's geometry (dimensionality, layered or not) and a format whose fetch gives the result type. */
    private static void check(TextureObject o, int dims, boolean layered, boolean cube, ScalarType dtype, String mn, long handle) {
        if (o.dims() != dims || o.layered() != layered || o.cube() != cube) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, mn + " on a " + o.geometry() + " texture object");
        }
        if ((dtype == ScalarType.F32) != o.returnsFloat()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, mn + " on a texture object whose fetches return "
                    + (o.returnsFloat() ? "floats (a float format or cudaReadModeNormalizedFloat)" : "integers (cudaReadModeElementType of an integer format)"));
        }
        if (o.linear() && !o.returnsFloat()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, mn + " on a texture object with linear filtering of integer results");
        }
    }

    /**
     * Linear memory (cudaResourceTypeLinear) is fetched by integer index only (tex1Dfetch: no
     * f32 coordinates, no filtering), and integer indices need unnormalized coordinates:
     * "tex1Dfetch() only works with non-normalized coordinates" (CUDA Programming Guide,
     * "Texture Object API", tex1Dfetch()).
     */
    private static void checkCoordinates(TextureObject o, boolean floatCoords, String mn, long handle) {
        if (floatCoords && o.linearResource()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, mn + " with .f32 coordinates on a texture object over linear memory"
                    + " (cudaResourceTypeLinear is fetched with integer coordinates only: tex1Dfetch)");
        }
        if (!floatCoords && o.normalizedCoords()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, mn + " with .s32 coordinates on a texture object with normalized coordinates"
                    + " (integer fetches such as tex1Dfetch work only with unnormalized coordinates)");
        }
    }

    /** A gradient vector operand {@code i}: a singleton for 1d, two elements for 2d, four for 3d and cube (the fourth ignored). */
    private static Src[] gradient(CompileContext c, int i, int dims) {
        Operand op = c.operand(i);
        Operand.Vector v = op instanceof Operand.Vector vv ? vv : new Operand.Vector(List.of(op));
        int n = dims == 3 ? 4 : dims;
        if (v.elements().size() != n) throw c.error(c.insn().mnemonic() + ": a gradient needs " + n + " element(s), found " + v.elements().size());
        Src[] out = new Src[dims];
        for (int k = 0; k < dims; k++) out[k] = c.src(v.elements().get(k), ScalarType.F32);
        return out;
    }

    /** Integer coordinates as floats, for the mipmap path, which refuses them on a mipmapped object (they need unnormalized coordinates). */
    private static float[] intsAsFloats(Machine m, int t, Src[] coord) {
        float[] f = new float[coord.length];
        for (int k = 0; k < coord.length; k++) f[k] = (int) coord[k].get(m, t);
        return f;
    }

    private static float[] floats(Machine m, int t, Src[] coord) {
        float[] f = new float[coord.length];
        for (int k = 0; k < coord.length; k++) f[k] = Values.f32(coord[k].get(m, t));
        return f;
    }

    private static int[] ints(Machine m, int t, Src[] coord) {
        int[] f = new int[coord.length];
        for (int k = 0; k < coord.length; k++) f[k] = (int) coord[k].get(m, t);
        return f;
    }

    /** The texel at integer indices, each through its address mode (the border color if any is off the texture). */
    static long[] point(Memory mem, TextureObject o, int[] idx, int t) {
        int[] a = {0, 0, 0};
        for (int k = 0; k < idx.length; k++) {
            a[k] = o.address(idx[k], k);
            if (a[k] < 0) return o.borderTexel();
        }
        return o.texel(mem, a[0], a[1], a[2], t);
    }

    /** floor(x) as an int, saturating (NaN: 0). */
    private static int floor(float x) { return (int) Math.floor(x); }

    /** A fetch at f32 coordinates: scaled if normalized, then point sampled or linearly filtered. */
    static long[] sample(Memory mem, TextureObject o, float[] c, int t) {
        int n = c.length;
        float[] x = new float[n];
        for (int k = 0; k < n; k++) x[k] = o.normalizedCoords() ? c[k] * (float) o.extent(k) : c[k];
        if (!o.linear()) {
            int[] idx = new int[n];
            for (int k = 0; k < n; k++) idx[k] = floor(x[k]);
            return point(mem, o, idx, t);
        }
        // Linear: xB = x - 0.5, i = floor(xB), alpha = frac(xB) rounded to 8 fraction bits (0..256).
        int[] lo = new int[n];
        int[] alpha = new int[n];
        for (int k = 0; k < n; k++) {
            float xb = x[k] - 0.5f;
            float fl = (float) Math.floor(xb);
            lo[k] = floor(xb);
            alpha[k] = Float.isFinite(xb) ? (int) Math.rint((xb - fl) * 256.0f) : 0;
        }
        double[] sum = new double[4];
        int[] idx = new int[n];
        for (int corner = 0; corner < (1 << n); corner++) {
            long w = 1;
            for (int k = 0; k < n; k++) {
                boolean hi = (corner >> k & 1) != 0;
                idx[k] = lo[k] + (hi ? 1 : 0);
                w *= hi ? alpha[k] : 256 - alpha[k];
            }
            if (w == 0) continue; // a texel of weight 0 contributes nothing, not even a NaN or infinity
            long[] v = point(mem, o, idx, t);
            for (int ch = 0; ch < 4; ch++) sum[ch] += w * (double) Values.f32(v[ch]);
        }
        long[] out = new long[4];
        double scale = 1L << (8 * n);
        for (int ch = 0; ch < 4; ch++) out[ch] = Values.bits((float) (sum[ch] / scale));
        return out;
    }
}
