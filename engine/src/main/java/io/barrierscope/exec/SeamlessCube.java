package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * Seamless cubemap filtering ({@code cudaTextureDesc.seamlessCubemap}; descriptor byte 79;
 * docs/semantics.md section 16). As the CUDA Runtime API documents it: the address modes are
 * ignored; point filtering clamps in every dimension; linear filtering is "performed when sampling
 * along the cube face borders": a texel of the footprint that lies off the face is taken from the
 * neighbouring face. Which texel that is follows from the cube's geometry: the direction of the
 * off-face texel's centre (in integer half-texel units: s = 2i + 1 - w, t = 2j + 1 - w, m = w)
 * goes through the cubemap table ({@link CubeFace}) to the face it lies on and the texel there.
 * At a corner of the cube (off the face in both dimensions) three faces meet and no face holds
 * that texel: NVIDIA documents nothing, OpenGL leaves it to implementations, so **our decision**
 * is texture-misuse when such a texel would be read (weight not 0).
 */
final class SeamlessCube {
    private SeamlessCube() {}

    /** Whether the object asks for seamless filtering (descriptor byte 79). */
    static boolean of(Memory mem, long handle, int thread) { return mem.load(Space.GLOBAL, handle + 79, 1, thread) == 1; }

    /** The fetch at face coordinates (u, v) of face {@code face} of cubemap {@code cubemap} of {@code cube} (a level of it). */
    static long[] sample(Memory mem, TextureObject cube, long cubemap, int face, float u, float v, long handle, String what, int t) {
        TextureObject f = cube.face(cubemap, face, handle, what);
        int w = f.width();
        float x = u * (float) w, y = v * (float) w;
        if (!cube.linear()) {
            // Point filtering: clamp in every dimension, whatever the address modes.
            int i = Math.min(Math.max((int) Math.floor(x), 0), w - 1), j = Math.min(Math.max((int) Math.floor(y), 0), w - 1);
            return f.texel(mem, i, j, 0, t);
        }
        float xb = x - 0.5f, yb = y - 0.5f;
        int i0 = (int) Math.floor(xb), j0 = (int) Math.floor(yb);
        int ax = (int) Math.rint((xb - (float) Math.floor(xb)) * 256.0f), ay = (int) Math.rint((yb - (float) Math.floor(yb)) * 256.0f);
        double[] sum = new double[4];
        for (int corner = 0; corner < 4; corner++) {
            boolean hx = (corner & 1) != 0, hy = (corner & 2) != 0;
            long wgt = (long) (hx ? ax : 256 - ax) * (hy ? ay : 256 - ay);
            if (wgt == 0) continue; // a texel of weight 0 is not read
            long[] texel = texel(mem, cube, cubemap, face, f, i0 + (hx ? 1 : 0), j0 + (hy ? 1 : 0), handle, what, t);
            for (int ch = 0; ch < 4; ch++) sum[ch] += wgt * (double) Values.f32(texel[ch]);
        }
        long[] out = new long[4];
        for (int ch = 0; ch < 4; ch++) out[ch] = Values.bits((float) (sum[ch] / 65536.0));
        return out;
    }

    /** Texel (i, j) of face {@code face}, or, off the face by one texel, the texel of the neighbouring face the cube puts there. */
    private static long[] texel(Memory mem, TextureObject cube, long cubemap, int face, TextureObject f, int i, int j, long handle, String what, int t) {
        int w = f.width();
        if (i >= 0 && i < w && j >= 0 && j < w) return f.texel(mem, i, j, 0, t);
        if ((i < 0 || i >= w) && (j < 0 || j >= w)) {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, what + ": seamless cubemap filtering reads texel (" + i + ", " + j
                    + ") off a corner of face " + face + ", where three faces meet and no face holds it (undocumented)");
        }
        long[] dir = new long[3];
        int[] a = CubeFace.axes(face);
        dir[a[0]] = (long) a[1] * (2L * i + 1 - w);
        dir[a[2]] = (long) a[3] * (2L * j + 1 - w);
        dir[a[4]] = (long) a[5] * w;
        int nf = CubeFace.faceOf(dir);
        int[] b = CubeFace.axes(nf);
        long s = b[1] * dir[b[0]], tt = b[3] * dir[b[2]], m = b[5] * dir[b[4]];
        // floor((s / m + 1) / 2 * w) exactly, in integers (m > |s|, |t| here).
        int ni = (int) Math.min(w - 1, (s + m) * w / (2 * m)), nj = (int) Math.min(w - 1, (tt + m) * w / (2 * m));
        return cube.face(cubemap, nf, handle, what).texel(mem, ni, nj, 0, t);
    }
}
