package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.TextureSurfaceTest.CLAMP;
import static io.barrierscope.exec.TextureSurfaceTest.NO_BORDER;
import static io.barrierscope.exec.TextureSurfaceTest.floatTex;
import static io.barrierscope.exec.TextureSurfaceTest.out;
import static io.barrierscope.exec.TextureSurfaceTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cubemap geometries of tex ({@code .cube}, {@code .acube}; PTX ISA 9.7.10.3) on hand-built
 * cubemap objects (descriptor byte 78 set, 6 layers per cubemap at 80; docs/semantics.md section
 * 16): the direction picks a face by the CUDA Programming Guide's cubemap table, and the face is
 * fetched as a 2d texture at ((s / m + 1) / 2, (t / m + 1) / 2).
 */
class CubeTextureTest {
    /** A cubemap (or, with cubemaps > 0 and layered, a cubemap layered object) of w x w float faces. */
    static List<Number> cube(int w, int cubemaps, boolean layered, boolean linear) {
        List<Number> d = new ArrayList<>(floatTex(2, new int[] {w, w, 0}, CLAMP, linear, false, NO_BORDER));
        long flags = 1L << 8 * (78 % 4) | (layered ? 1L << 8 * (77 % 4) : 0);
        d.set(76 / 4, d.get(76 / 4).longValue() | flags);
        d.set(80 / 4, 6L * cubemaps);
        return d;
    }

    /** Texels face * 10 + j * w + i of every face of the given cubemaps (cubemap k adds 100 * k). */
    static List<Number> faces(int w, int cubemaps) {
        List<Number> l = new ArrayList<>();
        for (int k = 0; k < cubemaps; k++)
            for (int f = 0; f < 6; f++)
                for (int j = 0; j < w; j++)
                    for (int i = 0; i < w; i++) l.add(Float.floatToRawIntBits(100f * k + 10f * f + j * w + i) & 0xFFFFFFFFL);
        return l;
    }

    /** tex.cube (four elements, the fourth ignored) or, with a cubemap index, tex.acube at direction (x, y, z), x into w[0]. */
    static String fetch(Long cubemap, float x, float y, float z) {
        StringBuilder s = new StringBuilder();
        List<String> regs = new ArrayList<>();
        if (cubemap != null) {
            s.append("mov.u32 %r9, ").append(cubemap).append(";\n");
            regs.add("%r9");
        }
        float[] c = cubemap == null ? new float[] {x, y, z, 7f} : new float[] {x, y, z};
        for (int i = 0; i < c.length; i++) {
            s.append("mov.f32 %f").append(10 + i).append(", ").append(imm(c[i])).append(";\n");
            regs.add("%f" + (10 + i));
        }
        s.append("tex.").append(cubemap == null ? "cube" : "acube").append(".v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {")
                .append(String.join(", ", regs)).append("}];\n");
        return s.append("mov.b32 %r1, %f1;\n").append(w(0, "%r1")).toString();
    }

    static float fetchCube(List<Number> d, List<Number> texels, float x, float y, float z) {
        LaunchedRun r = run(d, ScalarType.U32, texels, fetch(null, x, y, z));
        assertEquals(List.of(), codes(r), r.summary());
        return out(r, 0);
    }

    @Test
    void theCoordinateOfLargestMagnitudeSelectsTheFaceItsSignTheSide() {
        List<Number> d = cube(1, 1, false, false);
        List<Number> t = faces(1, 1);
        assertEquals(0f, fetchCube(d, t, 1f, 0.2f, -0.3f));
        assertEquals(10f, fetchCube(d, t, -1f, 0.2f, -0.3f));
        assertEquals(20f, fetchCube(d, t, 0.1f, 2f, 0.3f));
        assertEquals(30f, fetchCube(d, t, 0.1f, -2f, 0.3f));
        assertEquals(40f, fetchCube(d, t, 0.1f, -0.2f, 3f));
        assertEquals(50f, fetchCube(d, t, 0.1f, -0.2f, -3f));
    }

    @Test
    void faceCoordinatesAreSAndTOfTheCubemapTableOverTheMagnitude() {
        // 2 x 2 faces: texel (i, j) of face f is f * 10 + j * 2 + i; s/m = +-0.5 gives u = 0.75 or 0.25.
        List<Number> d = cube(2, 1, false, false);
        List<Number> t = faces(2, 1);
        assertEquals(3f, fetchCube(d, t, 1f, -0.5f, -0.5f), "+x: s = -z, t = -y");
        assertEquals(12f, fetchCube(d, t, -1f, -0.5f, -0.5f), "-x: s = z, t = -y");
        assertEquals(21f, fetchCube(d, t, 0.5f, 1f, -0.5f), "+y: s = x, t = z");
        assertEquals(33f, fetchCube(d, t, 0.5f, -1f, -0.5f), "-y: s = x, t = -z");
        assertEquals(40f, fetchCube(d, t, -0.5f, 0.5f, 1f), "+z: s = x, t = -y");
        assertEquals(51f, fetchCube(d, t, -0.5f, 0.5f, -1f), "-z: s = -x, t = -y");
        assertEquals(3f, fetchCube(d, t, 4f, -2f, -2f), "only the direction counts, not its length");
    }

    @Test
    void linearFilteringOfACubemapBlendsWithinTheFaceAndClampsAtItsEdges() {
        List<Number> d = cube(2, 1, false, true);
        List<Number> t = faces(2, 1);
        assertEquals(41.5f, fetchCube(d, t, 0f, 0f, 1f), "the face's centre is the mean of its four texels");
        // +x face, s = 0.999: x = 1.999 - 0.5 blends column 1 with column 2, clamped to column 1 again; y = 1 - 0.5 blends
        // rows 0 and 1 evenly: (1 + 3) / 2, where a column of the next face would give another value.
        assertEquals(2f, fetchCube(d, t, 1f, 0f, -0.999f), "x clamps to the face's last column, never the next face");
    }

    @Test
    void aDirectionWithoutASingleLargestCoordinateIsTextureMisuse() {
        List<Number> d = cube(1, 1, false, false);
        for (float[] dir : new float[][] {{1f, 1f, 0.5f}, {0f, 0f, 0f}, {Float.NaN, 1f, 0f}, {0.5f, -2f, 2f}}) {
            LaunchedRun r = run(d, ScalarType.U32, faces(1, 1), fetch(null, dir[0], dir[1], dir[2]));
            assertEquals(List.of("texture-misuse"), codes(r), java.util.Arrays.toString(dir) + "\n" + r.summary());
            assertTrue(r.summary().contains("selects no face"), r.summary());
        }
    }

    @Test
    void aCubemapLayeredFetchTakesTheCubemapIndexFromTheFirstElement() {
        List<Number> d = cube(1, 2, true, false);
        LaunchedRun r = run(d, ScalarType.U32, faces(1, 2), fetch(1L, 0.1f, -2f, 0.3f));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(130f, out(r, 0), "cubemap 1, face 3: layer 1 * 6 + 3");
        LaunchedRun past = run(d, ScalarType.U32, faces(1, 2), fetch(2L, 0.1f, -2f, 0.3f));
        assertEquals(List.of("texture-layer-range"), codes(past), past.summary());
        assertTrue(past.summary().contains("cubemap 2 of a cubemap layered object with 2 cubemap(s)"), past.summary());
    }

    @Test
    void aCubemapFetchOfAPlainObjectAndAPlainFetchOfACubemapAreTextureMisuse() {
        LaunchedRun r = run(floatTex(2, new int[] {1, 1, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, faces(1, 1), fetch(null, 1f, 0f, 0f));
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
        LaunchedRun s = run(cube(1, 1, false, false), ScalarType.U32, faces(1, 1), TextureSurfaceTest.fetch(2, 0.5f, 0.5f));
        assertEquals(List.of("texture-misuse"), codes(s), s.summary());
        assertTrue(s.summary().contains("on a cube texture object"), s.summary());
        LaunchedRun a = run(cube(1, 1, false, false), ScalarType.U32, faces(1, 1), fetch(0L, 1f, 0f, 0f));
        assertEquals(List.of("texture-misuse"), codes(a), "tex.acube needs a cubemap layered object\n" + a.summary());
    }

    @Test
    void theArraySizeOfACubemapLayeredObjectIsItsNumberOfCubemaps() {
        LaunchedRun r = run(cube(1, 2, true, false), ScalarType.U32, faces(1, 2), "txq.array_size.b32 %r1, [%rd1];\n" + w(0, "%r1"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(2L, ExecKernel.w(r, 0));
    }

    /** tld4.r.cube at (x, y, z), the four components into w[0..3]. */
    static String gather(float x, float y, float z) {
        return "mov.f32 %f10, " + imm(x) + ";\nmov.f32 %f11, " + imm(y) + ";\nmov.f32 %f12, " + imm(z) + ";\n"
                + "tld4.r.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11, %f12, %f12}];\n"
                + "mov.b32 %r1, %f1;\nmov.b32 %r2, %f2;\nmov.b32 %r3, %f3;\nmov.b32 %r4, %f4;\n" + w(0, "%r1") + w(1, "%r2") + w(2, "%r3") + w(3, "%r4");
    }

    @Test
    void aCubeGatherTakesTheFootprintWithinTheFaceTheDirectionPicksAndNeedsAnObjectAllowingGathers() {
        List<Number> d = cube(2, 1, false, false);
        List<Number> t = faces(2, 1);
        // A hand-built cubemap allowing gathers (byte 59): face 4 (+z), u = (0.1 / 3 + 1) / 2, v = (-0.2 / 3 + 1) / 2,
        // times 2 texels less 0.5: i = 0, j = 0.
        LaunchedRun r = run(d, ScalarType.U32, t, gather(0.1f, 0.2f, 3f));
        assertEquals(List.of(), codes(r), r.summary());
        // Counter-clockwise from the lower left: (0, 1), (1, 1), (1, 0), (0, 0) of face 4 (texel face * 10 + j * 2 + i).
        assertEquals(List.of(42f, 43f, 41f, 40f), List.of(out(r, 0), out(r, 1), out(r, 2), out(r, 3)));
        // CUDA makes no cubemap allowing gathers: without byte 59 it is texture-misuse.
        d.set(56 / 4, d.get(56 / 4).longValue() & ~0xFF000000L);
        LaunchedRun refused = run(d, ScalarType.U32, t, gather(0.1f, 0.2f, 3f));
        assertEquals(List.of("texture-misuse"), codes(refused), refused.summary());
    }

    @Test
    void seamlessFilteringTakesTheTexelsOffAFaceEdgeFromTheNeighbouringFaceAndACornerIsTextureMisuse() {
        List<Number> d = cube(2, 1, false, true);
        List<Number> t = faces(2, 1);
        // Face 0 (+x) at s = -z = 0.99, t = -y = 0: x = 1.99 - 0.5 gives texels i = 1, 2 (weight of i = 2: rint(0.49 * 256) = 125), y = 1 - 0.5 texels j = 0, 1 (128 each).
        float clamped = (float) (128.0 * (131 * 1 + 125 * 1 + 131 * 3 + 125 * 3) / 65536);
        assertEquals(clamped, fetchCube(d, t, 1f, 0f, -0.99f), "without seamless filtering the face clamps: i = 2 reads i = 1");
        d.set(76 / 4, d.get(76 / 4).longValue() | 1L << 24); // byte 79: seamlessCubemap
        // Off the s = +1 edge of +x lies -z (face 5), whose s = -x: its column i = 0, rows j = 0, 1 (texels 50, 52).
        float seamless = (float) (128.0 * (131 * 1 + 125 * 50 + 131 * 3 + 125 * 52) / 65536);
        assertEquals(seamless, fetchCube(d, t, 1f, 0f, -0.99f));
        LaunchedRun corner = run(d, ScalarType.U32, t, fetch(null, 1f, -0.99f, -0.99f));
        assertEquals(List.of("texture-misuse"), codes(corner), corner.summary());
        assertTrue(corner.summary().contains("off a corner of face 0"), corner.summary());
    }
}
