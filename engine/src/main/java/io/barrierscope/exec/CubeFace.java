package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * The face of a cubemap a direction (x, y, z) points at, and the face coordinates (u, v), per the
 * CUDA Programming Guide's cubemap table ("Cubemap Textures"): the coordinate of largest magnitude
 * m picks the face, |x| &gt; |y| and |x| &gt; |z| face 0 (x &ge; 0: s = -z, t = -y) or 1 (x &lt; 0:
 * s = z, t = -y); |y| largest face 2 (s = x, t = z) or 3 (s = x, t = -z); |z| largest face 4
 * (s = x, t = -y) or 5 (s = -x, t = -y); then u = (s / |m| + 1) / 2 and v = (t / |m| + 1) / 2,
 * each step in f32. The table picks no face when two magnitudes tie for the largest, when all are
 * 0, or for a NaN: our decision (docs/semantics.md section 16) is texture-misuse, not a face
 * the ISA does not give.
 */
record CubeFace(int face, float u, float v) {

    static CubeFace of(float x, float y, float z, long handle, String what) {
        float ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
        int face;
        float m, s, t;
        if (ax > ay && ax > az) {
            face = x >= 0 ? 0 : 1;
            m = ax;
            s = x >= 0 ? -z : z;
            t = -y;
        } else if (ay > ax && ay > az) {
            face = y >= 0 ? 2 : 3;
            m = ay;
            s = x;
            t = y >= 0 ? z : -z;
        } else if (az > ax && az > ay) {
            face = z >= 0 ? 4 : 5;
            m = az;
            s = z >= 0 ? x : -x;
            t = -y;
        } else {
            throw new MemoryFault(DiagnosticCode.TEXTURE_MISUSE, handle, what + ": direction (" + x + ", " + y + ", " + z
                    + ") has no single coordinate of largest magnitude (a tie, all zero or a NaN), so the cubemap table selects no face");
        }
        return new CubeFace(face, (s / m + 1.0f) * 0.5f, (t / m + 1.0f) * 0.5f);
    }

    /**
     * Which signed component of a direction is s, t and the major axis m on each face (the table
     * above): {component, sign} for s, t, m. Face 0: s = -z, t = -y, m = x; ...
     */
    private static final int[][] AXES = {
        {2, -1, 1, -1, 0, 1}, {2, 1, 1, -1, 0, -1}, {0, 1, 2, 1, 1, 1}, {0, 1, 2, -1, 1, -1}, {0, 1, 1, -1, 2, 1}, {0, -1, 1, -1, 2, -1}};

    /** {component, sign} of s, t and m on face {@code face}. */
    static int[] axes(int face) { return AXES[face].clone(); }

    /** The face of an integer direction with one coordinate of largest magnitude (the table's rule, as in {@link #of}). */
    static int faceOf(long[] d) {
        long ax = Math.abs(d[0]), ay = Math.abs(d[1]), az = Math.abs(d[2]);
        if (ax > ay && ax > az) return d[0] >= 0 ? 0 : 1;
        if (ay > ax && ay > az) return d[1] >= 0 ? 2 : 3;
        return d[2] >= 0 ? 4 : 5;
    }

    /**
     * The level of detail of {@code tex.grad} on a cubemap face {@code size} texels wide (our decision,
     * docs/semantics.md section 16): the derivatives of the face coordinates u = (s / m + 1) / 2 and
     * v = (t / m + 1) / 2 along each gradient (the chain rule: du = (ds m - s dm) / (2 m^2), where ds and
     * dm are the gradient's components the table takes for s and m on this face), in texels, then the
     * isotropic rule of the 2d fetch: lambda = log2 of the larger of the two lengths, in double
     * ({@code StrictMath}), rounded once to f32.
     */
    float gradientLod(float[] dir, float[] dx, float[] dy, int size) {
        int[] a = AXES[face];
        double s = a[1] * (double) dir[a[0]], t = a[3] * (double) dir[a[2]], m = a[5] * (double) dir[a[4]];
        double[] len = new double[2];
        float[][] g = {dx, dy};
        for (int k = 0; k < 2; k++) {
            double ds = a[1] * (double) g[k][a[0]], dt = a[3] * (double) g[k][a[2]], dm = a[5] * (double) g[k][a[4]];
            double du = (ds * m - s * dm) / (2 * m * m) * size, dv = (dt * m - t * dm) / (2 * m * m) * size;
            len[k] = du * du + dv * dv;
        }
        return (float) (StrictMath.log(StrictMath.sqrt(Math.max(len[0], len[1]))) / StrictMath.log(2));
    }
}
