package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.TextureSurfaceTest.CLAMP;
import static io.barrierscope.exec.TextureSurfaceTest.NO_BORDER;
import static io.barrierscope.exec.TextureSurfaceTest.floatTex;
import static io.barrierscope.exec.TextureSurfaceTest.floats;
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
 * Mipmapped fetches ({@code tex.level}, {@code tex.grad}, {@code tex.base}; PTX ISA 9.7.10.3) on a
 * hand-built mipmapped object (descriptor bytes 84-103; docs/semantics.md section 16): a 4 x 2
 * float texture with levels 4 x 2 (texels 0..7), 2 x 1 (10, 11) and 1 x 1 (20), packed one after
 * the other, normalized coordinates, point sampling within a level. At (0.6, 0.7) level 0 gives 6,
 * level 1 gives 11, level 2 gives 20.
 */
class MipmapTextureTest {
    static final List<Number> TEXELS = floats(0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 20);

    static List<Number> mip(boolean linearMip, float bias, float min, float max, boolean normalized) {
        List<Number> d = new ArrayList<>(floatTex(2, new int[] {4, 2, 0}, CLAMP, false, normalized, NO_BORDER));
        d.set(84 / 4, 3L);
        d.set(88 / 4, linearMip ? 1L : 0L);
        d.set(92 / 4, Float.floatToRawIntBits(bias) & 0xFFFFFFFFL);
        d.set(96 / 4, Float.floatToRawIntBits(min) & 0xFFFFFFFFL);
        d.set(100 / 4, Float.floatToRawIntBits(max) & 0xFFFFFFFFL);
        return d;
    }

    static String coords() { return "mov.f32 %f10, " + imm(0.6f) + ";\nmov.f32 %f11, " + imm(0.7f) + ";\n"; }

    static String level(float lod) {
        return coords() + "mov.f32 %f12, " + imm(lod) + ";\ntex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}], %f12;\n"
                + "mov.b32 %r1, %f1;\n" + w(0, "%r1");
    }

    static float at(List<Number> d, String body) {
        LaunchedRun r = run(d, ScalarType.U32, TEXELS, body);
        assertEquals(List.of(), codes(r), r.summary());
        return out(r, 0);
    }

    @Test
    void anExplicitLevelOfDetailPicksTheNearestLevelWithPointMipmapFiltering() {
        List<Number> d = mip(false, 0, 0, 100, true);
        assertEquals(6f, at(d, level(0f)));
        assertEquals(6f, at(d, level(0.49f)));
        assertEquals(11f, at(d, level(0.5f)), "floor(lambda + 0.5)");
        assertEquals(11f, at(d, level(1.2f)), "normalized coordinates scale by the level's own extent");
        assertEquals(20f, at(d, level(7f)), "beyond the last level: the last level");
        assertEquals(6f, at(d, level(-3f)), "below 0: level 0");
    }

    @Test
    void theDescriptorsBiasAndLevelClampsBoundTheLevelOfDetail() {
        assertEquals(11f, at(mip(false, 1f, 0, 100, true), level(0f)), "bias 1 moves level 0 to level 1");
        assertEquals(11f, at(mip(false, 0, 0, 1f, true), level(5f)), "maxMipmapLevelClamp 1");
        assertEquals(20f, at(mip(false, 0, 2f, 100, true), level(0f)), "minMipmapLevelClamp 2");
    }

    @Test
    void linearMipmapFilteringBlendsTwoLevelsWithAWeightOfEightFractionBits() {
        List<Number> d = mip(true, 0, 0, 100, true);
        assertEquals(8.5f, at(d, level(0.5f)), "(6 + 11) / 2");
        // lambda 0.3: a = rint(0.3 * 256) = 77, (179 * 6 + 77 * 11) / 256.
        assertEquals((float) ((179 * 6 + 77 * 11) / 256.0), at(d, level(0.3f)));
        assertEquals(20f, at(d, level(2f)), "at the last level only that level");
    }

    @Test
    void gradientsGiveTheLevelOfDetailAsLog2OfTheLargerFootprintInTexels() {
        List<Number> d = mip(false, 0, 0, 100, true);
        // dPdx = (0.25, 0): 1 texel; dPdy = (0, 1): 2 texels (height 2). log2(2) = 1: level 1.
        String body = coords() + "mov.f32 %f12, " + imm(0.25f) + ";\nmov.f32 %f13, " + imm(0f) + ";\nmov.f32 %f14, " + imm(1f) + ";\n"
                + "tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}], {%f12, %f13}, {%f13, %f14};\n"
                + "mov.b32 %r1, %f1;\n" + w(0, "%r1");
        assertEquals(11f, at(d, body));
        String zero = body.replace("{%f12, %f13}, {%f13, %f14}", "{%f13, %f13}, {%f13, %f13}");
        assertEquals(6f, at(d, zero), "zero gradients: log2(0) is -infinity, clamped to level 0");
    }

    @Test
    void aBaseFetchAndAFetchWithoutMipmapModeTakeLevelZeroWhateverTheBias() {
        List<Number> d = mip(true, 2f, 1f, 100, true);
        assertEquals(6f, at(d, coords() + "tex.base.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}];\nmov.b32 %r1, %f1;\n" + w(0, "%r1")));
        assertEquals(6f, at(d, coords() + "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}];\nmov.b32 %r1, %f1;\n" + w(0, "%r1")));
    }

    @Test
    void aNaNLevelOfDetailAndAMipmappedObjectWithoutNormalizedCoordinatesAreTextureMisuse() {
        LaunchedRun nan = run(mip(false, 0, 0, 100, true), ScalarType.U32, TEXELS, level(Float.NaN));
        assertEquals(List.of("texture-misuse"), codes(nan), nan.summary());
        assertTrue(nan.summary().contains("the level of detail is NaN"), nan.summary());
        LaunchedRun unnorm = run(mip(false, 0, 0, 100, false), ScalarType.U32, TEXELS, level(1f));
        assertEquals(List.of("texture-misuse"), codes(unnorm), unnorm.summary());
        assertTrue(unnorm.summary().contains("without normalized coordinates"), unnorm.summary());
    }

    @Test
    void anObjectWithOneLevelAnswersEveryLevelOfDetailFromIt() {
        List<Number> d = floatTex(2, new int[] {4, 2, 0}, CLAMP, false, true, NO_BORDER);
        assertEquals(6f, at(d, level(3f)));
    }

    @Test
    void txqGivesTheNumberOfLevelsAndEachLevelsExtent() {
        String body = "txq.num_mipmap_levels.b32 %r1, [%rd1];\n" + w(0, "%r1") + "mov.u32 %r9, 1;\n"
                + "txq.level.width.b32 %r2, [%rd1], %r9;\n" + w(1, "%r2") + "txq.level.height.b32 %r3, [%rd1], %r9;\n" + w(2, "%r3")
                + "mov.u32 %r9, 2;\ntxq.level.height.b32 %r4, [%rd1], %r9;\n" + w(3, "%r4");
        LaunchedRun r = run(mip(false, 0, 0, 100, true), ScalarType.U32, TEXELS, body);
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(3L, 2L, 1L, 1L), List.of(ExecKernel.w(r, 0), ExecKernel.w(r, 1), ExecKernel.w(r, 2), ExecKernel.w(r, 3)));
        LaunchedRun one = run(floatTex(2, new int[] {4, 2, 0}, CLAMP, false, true, NO_BORDER), ScalarType.U32, TEXELS,
                "txq.num_mipmap_levels.b32 %r1, [%rd1];\n" + w(0, "%r1"));
        assertEquals(1L, ExecKernel.w(one, 0), "an object without mipmaps has one level");
        LaunchedRun past = run(mip(false, 0, 0, 100, true), ScalarType.U32, TEXELS, "mov.u32 %r9, 3;\ntxq.level.width.b32 %r2, [%rd1], %r9;\n" + w(0, "%r2"));
        assertEquals(List.of("texture-misuse"), codes(past), past.summary());
        assertTrue(past.summary().contains("level 3 of a texture object with 3 level(s)"), past.summary());
    }

    /** The mipmap state of {@link #mip} on another descriptor: {@code levels} levels, point mipmap filtering, no bias or clamps. */
    static List<Number> withLevels(List<Number> d, int levels) {
        List<Number> out = new ArrayList<>(d);
        out.set(84 / 4, (long) levels);
        out.set(100 / 4, Float.floatToRawIntBits(100f) & 0xFFFFFFFFL);
        return out;
    }

    @Test
    void aLayeredMipmapLevelHoldsEveryLayerAndTheFetchTakesTheLayerWithinTheLevel() {
        // 4 x 2, 2 layers, 3 levels: level 0 layer 0 texels 0..7, layer 1 100..107; level 1 (2 x 1) 10, 11 | 110, 111; level 2 20 | 120.
        List<Number> d = withLevels(mip(false, 0, 0, 100, true), 3);
        d.set(76 / 4, d.get(76 / 4).longValue() | 1L << 8); // byte 77: layered
        d.set(80 / 4, 2L);
        List<Number> texels = floats(0, 1, 2, 3, 4, 5, 6, 7, 100, 101, 102, 103, 104, 105, 106, 107, 10, 11, 110, 111, 20, 120);
        String body = coords() + "mov.u32 %r9, 1;\nmov.f32 %f12, " + imm(1f) + ";\n"
                + "tex.level.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r9, %f10, %f11, %f11}], %f12;\nmov.b32 %r1, %f1;\n" + w(0, "%r1");
        assertEquals(111f, out(run(d, ScalarType.U32, texels, body), 0));
        assertEquals(106f, out(run(d, ScalarType.U32, texels, body.replace(imm(1f) + ";", imm(0f) + ";")), 0));
        assertEquals(120f, out(run(d, ScalarType.U32, texels, body.replace(imm(1f) + ";", imm(2f) + ";")), 0));
        LaunchedRun past = run(d, ScalarType.U32, texels, body.replace("mov.u32 %r9, 1;", "mov.u32 %r9, 2;"));
        assertEquals(List.of("texture-layer-range"), codes(past), past.summary());
    }

    @Test
    void aCubemapMipmapLevelHoldsEveryFaceAndGradientsAreTheFaceCoordinatesDerivativesInTexels() {
        // 2 x 2 faces (texel face * 10 + j * 2 + i), then level 1 of 1 x 1 faces (100 + face).
        List<Number> d = withLevels(CubeTextureTest.cube(2, 1, false, false), 2);
        d.set(56 / 4, d.get(56 / 4).longValue() | 1L << 16); // byte 58: normalized coordinates, as the runtime requires
        List<Number> texels = new ArrayList<>(CubeTextureTest.faces(2, 1));
        for (int f = 0; f < 6; f++) texels.add(Float.floatToRawIntBits(100f + f) & 0xFFFFFFFFL);
        String dir = "mov.f32 %f10, " + imm(0.1f) + ";\nmov.f32 %f11, " + imm(-0.2f) + ";\nmov.f32 %f12, " + imm(3f) + ";\n";
        String lvl = dir + "mov.f32 %f13, " + imm(1f) + ";\ntex.level.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11, %f12, %f12}], %f13;\n"
                + "mov.b32 %r1, %f1;\n" + w(0, "%r1");
        assertEquals(104f, out(run(d, ScalarType.U32, texels, lvl), 0), "face 4 of level 1");
        assertEquals(43f, out(run(d, ScalarType.U32, texels, lvl.replace(imm(1f) + ";", imm(0f) + ";")), 0), "face 4 of level 0 at (1, 1)");
        // Face 4 (+z): s = x, m = z = 3. dPdx = (g, 0, 0): du = g * 3 / (2 * 9) per unit, times 2 texels: g = 3 gives 1 texel (level 0), g = 6 two (level 1).
        String grad = dir + "mov.f32 %f13, " + imm(6f) + ";\nmov.f32 %f14, " + imm(0f) + ";\n"
                + "tex.grad.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11, %f12, %f12}], {%f13, %f14, %f14, %f14}, {%f14, %f14, %f14, %f14};\n"
                + "mov.b32 %r1, %f1;\n" + w(0, "%r1");
        assertEquals(104f, out(run(d, ScalarType.U32, texels, grad), 0));
        assertEquals(43f, out(run(d, ScalarType.U32, texels, grad.replace(imm(6f) + ";", imm(3f) + ";")), 0));
    }
}
