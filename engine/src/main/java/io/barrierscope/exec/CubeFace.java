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
}
