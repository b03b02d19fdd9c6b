package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * The mipmap levels of a texture object and the sampler state that picks among them (descriptor
 * bytes 84-103, docs/semantics.md section 16): u32 number of levels at 84 (0 or 1: one level),
 * u8 mipmap filter at 88 (0 point, 1 linear), f32 level bias at 92, f32 minimum and maximum level
 * clamps at 96 and 100 ({@code cudaTextureDesc}'s mipmapFilterMode, mipmapLevelBias,
 * min/maxMipmapLevelClamp). Level l has extent max(1, e &gt;&gt; l) in each dimension the object
 * has; the levels are packed one after the other from level 0's address (a layered or cubemap object's level
 * holding all its layers or faces), each row-major and
 * packed. {@code tex.level} gives the level of detail, {@code tex.grad} gradients from which it
 * is computed, {@code tex.base} and a fetch without a mipmap mode level 0 (PTX ISA 9.7.10.3).
 */
record Mipmap(int levels, boolean linearFilter, float bias, float minClamp, float maxClamp) {

    static Mipmap read(Memory mem, long handle, int thread) {
        int n = (int) mem.load(Space.GLOBAL, handle + 84, 4, thread);
        return new Mipmap(Math.max(1, n), mem.load(Space.GLOBAL, handle + 88, 1, thread) == 1,
                Float.intBitsToFloat((int) mem.load(Space.GLOBAL, handle + 92, 4, thread)),
                Float.intBitsToFloat((int) mem.load(Space.GLOBAL, handle + 96, 4, thread)),
                Float.intBitsToFloat((int) mem.load(Space.GLOBAL, handle + 100, 4, thread)));
    }

    /** Level {@code l} of {@code o} (level 0 is o itself): its extent halved l times (at least 1), its texels after the levels before it. */
    static TextureObject level(TextureObject o, int l) {
        long base = o.base();
        int w = o.width(), h = o.height(), d = o.depth();
        // A layered or cubemap object's level holds every layer (face) at that level's extent: the layers do not halve.
        boolean layers = o.layered() || o.cube();
        for (int k = 0; k < l; k++) {
            base += (long) w * Math.max(h, 1) * (layers ? o.layers() & 0xFFFFFFFFL : Math.max(d, 1)) * o.texelBytes();
            w = Math.max(1, w >> 1);
            h = h == 0 ? 0 : Math.max(1, h >> 1);
            d = d == 0 ? 0 : Math.max(1, d >> 1);
        }
        long pitch = (long) w * o.texelBytes();
        return o.withTexels(base, w, h, d, pitch, pitch * Math.max(h, 1));
    }

    /**
     * The level of detail of {@code tex.grad} (our decision, docs/semantics.md section 16: the
     * isotropic rule of the graphics APIs): each gradient's elements scaled to texels of level 0
     * (times the extent with normalized coordinates), rho the larger of the two vectors' lengths,
     * lambda = log2(rho), in double and rounded once to f32 (rho = 0 gives -infinity, which the
     * clamps bring to the lowest level).
     */
    static float gradientLod(TextureObject o, float[] dx, float[] dy) {
        double sx = 0, sy = 0;
        for (int k = 0; k < dx.length; k++) {
            double scale = o.normalizedCoords() ? o.extent(k) : 1;
            sx += (dx[k] * scale) * (dx[k] * scale);
            sy += (dy[k] * scale) * (dy[k] * scale);
        }
        return (float) (StrictMath.log(StrictMath.sqrt(Math.max(sx, sy))) / StrictMath.log(2));
    }

    /**
     * The fetch at level of detail {@code lod}: lod + bias, clamped to [minClamp, maxClamp] and then
     * to [0, levels - 1]; point mipmap filtering takes level floor(lambda + 0.5), linear blends
     * levels floor(lambda) and the next with the fraction in 1.8 fixed point, as texel weights are.
     * {@code fetch} makes the fetch from one level (a layer or a cubemap face of it for layered and
     * cubemap objects, whose layers each have every level). A cubemap's face coordinates are
     * normalized whatever the descriptor says, so it needs no normalized coordinates.
     */
    long[] sample(TextureObject o, float lod, java.util.function.Function<TextureObject, long[]> fetch, long handle, String what) {
        float lambda = Math.min(Math.max(lod + bias, minClamp), maxClamp);
        // A NaN lod, bias, gradient or clamp leaves no level to pick.
        if (Float.isNaN(lambda)) throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, what + ": the level of detail is NaN");
        lambda = Math.min(Math.max(lambda, 0f), (float) (levels - 1));
        if (levels == 1) return fetch.apply(o); // one level: every level of detail selects it
        if (!o.normalizedCoords() && !o.cube()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, what + " on a mipmapped texture object without normalized coordinates");
        }
        if (!linearFilter) return fetch.apply(level(o, (int) Math.floor(lambda + 0.5f)));
        if (!o.returnsFloat()) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, what + " with linear mipmap filtering of integer results");
        }
        int l0 = (int) Math.floor(lambda);
        int a = (int) Math.rint((lambda - l0) * 256.0f);
        double[] sum = new double[4];
        for (int side = 0; side < 2; side++) {
            int w = side == 0 ? 256 - a : a;
            if (w == 0) continue; // a level of weight 0 is not read: a NaN there does not spread
            long[] v = fetch.apply(level(o, Math.min(l0 + side, levels - 1)));
            for (int ch = 0; ch < 4; ch++) sum[ch] += w * (double) Values.f32(v[ch]);
        }
        long[] out = new long[4];
        for (int ch = 0; ch < 4; ch++) out[ch] = Values.bits((float) (sum[ch] / 256.0));
        return out;
    }
}
