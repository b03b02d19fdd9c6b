package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.f32;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * tex, suld/sust, txq and suq on hand-built texture and surface objects (PTX ISA 9.7.10, 9.7.11;
 * docs/semantics.md, "Textures and surfaces"). The kernel writes the texels' address into the
 * descriptor (byte 8) before using it, since buffers get their addresses at launch.
 */
class TextureSurfaceTest {
    static final int WRAP = 0, CLAMP = 1, MIRROR = 2, BORDER = 3;

    /** A descriptor in the engine's layout (TextureObject), as 32 u32 words; the address is filled in by the kernel. */
    static List<Number> desc(boolean surface, int dims, int[] ext, int[] bits, int kind, int[] modes, boolean linear,
                             boolean normRead, boolean normCoords, float[] border) {
        byte[] b = new byte[128];
        put(b, 0, surface ? TextureObject.SURFACE_MAGIC : TextureObject.TEXTURE_MAGIC);
        put(b, 4, dims);
        int texel = 0;
        for (int x : bits) texel += x / 8;
        put(b, 16, ext[0]);
        put(b, 20, ext[1]);
        put(b, 24, ext[2]);
        put(b, 28, texel);
        put(b, 32, ext[0] * texel);
        put(b, 40, ext[0] * ext[1] * texel);
        for (int c = 0; c < 4; c++) b[48 + c] = (byte) bits[c];
        b[52] = (byte) kind;
        for (int d = 0; d < 3; d++) b[53 + d] = (byte) modes[d];
        b[56] = (byte) (linear ? 1 : 0);
        b[57] = (byte) (normRead ? 1 : 0);
        b[58] = (byte) (normCoords ? 1 : 0);
        b[59] = 1; // gathers allowed
        for (int c = 0; c < 4; c++) put(b, 60 + 4 * c, Float.floatToRawIntBits(border[c]));
        List<Number> words = new ArrayList<>();
        for (int i = 0; i < 32; i++) words.add((b[4 * i] & 0xFFL) | (b[4 * i + 1] & 0xFFL) << 8 | (b[4 * i + 2] & 0xFFL) << 16 | (b[4 * i + 3] & 0xFFL) << 24);
        return words;
    }

    private static void put(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) b[at + i] = (byte) (v >>> (8 * i));
    }

    static final int[] F1 = {32, 0, 0, 0};
    static final float[] NO_BORDER = {0, 0, 0, 0};

    /** A float texture (one f32 channel) of extent ext with the given texels, one address mode for every dimension. */
    static List<Number> floatTex(int dims, int[] ext, int mode, boolean linear, boolean norm, float[] border) {
        return desc(false, dims, ext, F1, TextureObject.FLOAT, new int[] {mode, mode, mode}, linear, false, norm, border);
    }

    static List<Number> floats(float... v) {
        List<Number> l = new ArrayList<>();
        for (float f : v) l.add(f32(f));
        return l;
    }

    /** Kernel prologue: %rd1 the descriptor (the handle), %rd2 the texels, written into the descriptor. */
    static final String PRO = "ld.param.u64 %rd1, [desc];\ncvta.to.global.u64 %rd1, %rd1;\nld.param.u64 %rd2, [tx];\n"
            + "cvta.to.global.u64 %rd2, %rd2;\nst.global.u64 [%rd1+8], %rd2;\n";

    static LaunchedRun run(List<Number> desc, ScalarType texelType, List<Number> texels, String body) {
        return ExecKernel.of(PRO + body).buffer("desc", ScalarType.U32, desc).buffer("tx", texelType, texels).run();
    }

    /** tex.{dims}d.v4.f32.f32 at the given coordinates into w[0..3]. */
    static String fetch(int dims, float... c) {
        StringBuilder s = new StringBuilder();
        int n = dims == 3 ? 4 : dims;
        List<String> regs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.append("mov.f32 %f").append(10 + i).append(", ").append(imm(i < c.length ? c[i] : 0f)).append(";\n");
            regs.add("%f" + (10 + i));
        }
        s.append("tex.").append(dims).append("d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {").append(String.join(", ", regs)).append("}];\n");
        s.append("mov.b32 %r1, %f1;\nmov.b32 %r2, %f2;\nmov.b32 %r3, %f3;\nmov.b32 %r4, %f4;\n");
        for (int i = 0; i < 4; i++) s.append(w(i, "%r" + (i + 1)));
        return s.toString();
    }

    static float out(LaunchedRun r, int i) { return Float.intBitsToFloat((int) ExecKernel.w(r, i)); }

    static float point2d(int mode, boolean norm, float x, float y) {
        LaunchedRun r = run(floatTex(2, new int[] {2, 2, 1}, mode, false, norm, new float[] {-7, 0, 0, 0}), ScalarType.U32,
                floats(10, 11, 20, 21), fetch(2, x, y));
        assertEquals(List.of(), codes(r), r.summary());
        return out(r, 0);
    }

    @Test
    void pointSamplingTakesTexelFloorOfTheCoordinateAndAbsentChannelsReadZeroAndAlphaOne() {
        LaunchedRun r = run(floatTex(2, new int[] {2, 2, 1}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(10, 11, 20, 21), fetch(2, 1.5f, 0.99f));
        assertEquals(11f, out(r, 0));
        assertEquals(0f, out(r, 1));
        assertEquals(0f, out(r, 2));
        assertEquals(1f, out(r, 3));
    }

    @Test
    void clampTakesTheNearestEdgeTexel() {
        assertEquals(20f, point2d(CLAMP, false, -3f, 5f));
        assertEquals(21f, point2d(CLAMP, false, 9f, 1.2f));
    }

    @Test
    void borderGivesTheBorderColorOffTheTexture() {
        assertEquals(-7f, point2d(BORDER, false, -0.5f, 0.5f));
        assertEquals(21f, point2d(BORDER, false, 1.5f, 1.5f));
    }

    @Test
    void normalizedCoordinatesAreScaledByTheExtentAndWrapRepeats() {
        // u = 1.3 on 2 texels: x = 2.6, texel 2, wrapped to 0; v = 0.75: y = 1.5, row 1.
        assertEquals(20f, point2d(WRAP, true, 1.3f, 0.75f));
        assertEquals(21f, point2d(WRAP, true, -0.3f, 0.75f)); // x = -0.6: texel -1 is texel 1
    }

    @Test
    void mirrorReversesEveryOtherCopy() {
        // 4 texels; x = 4 * 1.3 = 5.2: texel 5 is in the reversed copy, texel 2; x = -0.8: texel -1 mirrors to 0.
        List<Number> d = floatTex(1, new int[] {4, 0, 0}, MIRROR, false, true, NO_BORDER);
        assertEquals(2f, out(run(d, ScalarType.U32, floats(0, 1, 2, 3), fetch(1, 1.3f)), 0));
        assertEquals(0f, out(run(d, ScalarType.U32, floats(0, 1, 2, 3), fetch(1, -0.2f)), 0));
    }

    @Test
    void wrapAndMirrorActAsClampWithoutNormalizedCoordinates() {
        // A descriptor (say from a launch file) asking for wrap or mirror with unnormalized coordinates:
        // x = 2.5 on 2 texels is texel 2, the edge texel 1 (wrap would give 0); x = -0.5 is texel -1, texel 0.
        assertEquals(21f, point2d(WRAP, false, 2.5f, 1.5f));
        assertEquals(20f, point2d(WRAP, false, -0.5f, 1.5f));
        assertEquals(11f, point2d(MIRROR, false, 3.5f, 0.5f)); // mirror would give texel 0
    }

    @Test
    void linearFilteringWeighsTwoTexelsWithAWeightOfEightFractionBits() {
        // x = 1.3: xB = 0.8, weight of texel 1 = rint(0.8 * 256) / 256 = 205/256.
        LaunchedRun r = run(floatTex(1, new int[] {2, 0, 0}, CLAMP, true, false, NO_BORDER), ScalarType.U32, floats(0, 1), fetch(1, 1.3f));
        assertEquals(205f / 256f, out(r, 0));
        assertEquals(1f, out(r, 3), "alpha of absent channels: 1 at every texel, 1 blended");
    }

    @Test
    void bilinearFilteringWeighsFourTexelsByProductsOfTheFixedPointWeights() {
        // (1.2, 1.1): xB = 0.7 -> a = rint(179.2) = 179; yB = 0.6 -> b = rint(153.6) = 154 (0.6f is a little below).
        LaunchedRun r = run(floatTex(2, new int[] {2, 2, 1}, CLAMP, true, false, NO_BORDER), ScalarType.U32, floats(10, 11, 20, 21), fetch(2, 1.2f, 1.1f));
        float xb = 1.2f - 0.5f, yb = 1.1f - 0.5f;
        int a = (int) Math.rint(xb * 256f), b = (int) Math.rint(yb * 256f);
        double sum = (256 - a) * (256 - b) * 10.0 + a * (256 - b) * 11.0 + (256 - a) * b * 20.0 + a * b * 21.0;
        assertEquals((float) (sum / 65536), out(r, 0));
        assertEquals(179, a);
    }

    @Test
    void linearFilteringWithWrapBlendsTheLastTexelIntoTheFirst() {
        // 4 texels, u = 0.0625: x = 0.25, xB = -0.25: texels -1 (wrapped to 3, value 3) and 0 (value 0), weight 192/256 on texel 0.
        LaunchedRun r = run(floatTex(1, new int[] {4, 0, 0}, WRAP, true, true, NO_BORDER), ScalarType.U32, floats(0, 1, 2, 3), fetch(1, 0.0625f));
        assertEquals(3f * 64 / 256, out(r, 0));
    }

    @Test
    void linearFilteringWithMirrorBlendsTheFirstTexelWithItself() {
        // texel -1 mirrors to texel 0: both texels are 5.
        LaunchedRun r = run(floatTex(1, new int[] {4, 0, 0}, MIRROR, true, true, NO_BORDER), ScalarType.U32, floats(5, 1, 2, 3), fetch(1, 0.0625f));
        assertEquals(5f, out(r, 0));
    }

    @Test
    void linearFilteringWithBorderBlendsTheBorderColorIn() {
        // x = 0.25: xB = -0.25, texels -1 (border 8) and 0 (value 0) with weight 192/256 on texel 0.
        LaunchedRun r = run(floatTex(1, new int[] {2, 0, 0}, BORDER, true, false, new float[] {8, 0, 0, 0}), ScalarType.U32, floats(0, 1), fetch(1, 0.25f));
        assertEquals(8f * 64 / 256, out(r, 0));
    }

    @Test
    void threeDimensionalPointFetchIndexesSlices() {
        List<Number> t = new ArrayList<>();
        for (int i = 0; i < 8; i++) t.add(f32(i));
        LaunchedRun r = run(floatTex(3, new int[] {2, 2, 2}, CLAMP, false, false, NO_BORDER), ScalarType.U32, t, fetch(3, 1.5f, 0.5f, 1.5f));
        assertEquals(5f, out(r, 0));
    }

    @Test
    void normalizedFloatReadModeDividesEightBitChannelsByTheirMaximum() {
        List<Number> d = desc(false, 1, new int[] {1, 0, 0}, new int[] {8, 8, 0, 0}, TextureObject.UNSIGNED, new int[3], false, true, false, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, List.of(0x80FFL), fetch(1, 0.5f));
        assertEquals(1f, out(r, 0));
        assertEquals(128f / 255f, out(r, 1));
        List<Number> s = desc(false, 1, new int[] {1, 0, 0}, new int[] {8, 8, 0, 0}, TextureObject.SIGNED, new int[3], false, true, false, NO_BORDER);
        LaunchedRun q = run(s, ScalarType.U32, List.of(0x4080L), fetch(1, 0.5f));
        assertEquals(-1f, out(q, 0), "-128 clamps to -1");
        assertEquals(64f / 127f, out(q, 1));
    }

    @Test
    void normalizedFloatReadModeLeavesThirtyTwoBitIntegersAsIntegers() {
        // The read mode promotes 8- and 16-bit integers only: a 32-bit texel reads as itself through tex...s32.
        List<Number> d = desc(false, 1, new int[] {1, 0, 0}, new int[] {32, 0, 0, 0}, TextureObject.SIGNED, new int[] {CLAMP, CLAMP, CLAMP},
                false, true, false, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, List.of(0xFFFFFFF9L),
                "mov.u32 %r9, 0;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r9}];\n" + w(0, "%r1"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(0xFFFFFFF9L, ExecKernel.w(r, 0));
    }

    @Test
    void halfFloatChannelsAreConvertedToF32() {
        List<Number> d = desc(false, 1, new int[] {1, 0, 0}, new int[] {16, 16, 0, 0}, TextureObject.FLOAT, new int[3], false, false, false, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, List.of(0xC0003C00L), fetch(1, 0.5f));
        assertEquals(List.of(1f, -2f, 0f, 1f), List.of(out(r, 0), out(r, 1), out(r, 2), out(r, 3)));
    }

    @Test
    void integerCoordinatesIndexTexelsAndElementTypeReadsSignExtend() {
        List<Number> d = desc(false, 1, new int[] {3, 0, 0}, new int[] {16, 0, 0, 0}, TextureObject.SIGNED, new int[3], false, false, false, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, List.of(0x80000005L, 0x7L),
                "mov.u32 %r9, 1;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r9}];\n" + w(0, "%r1") + w(3, "%r4"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(0xFFFF8000L, ExecKernel.w(r, 0));
        assertEquals(1L, ExecKernel.w(r, 3));
    }

    @Test
    void aResultTypeTheFormatDoesNotGiveIsTextureMisuse() {
        List<Number> d = desc(false, 1, new int[] {3, 0, 0}, new int[] {16, 0, 0, 0}, TextureObject.SIGNED, new int[3], false, false, false, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, List.of(0L, 0L), fetch(1, 0.5f));
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
        LaunchedRun s = run(floatTex(2, new int[] {2, 2, 1}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(0, 0, 0, 0), fetch(1, 0.5f));
        assertEquals(List.of("texture-misuse"), codes(s), "a 1d fetch of a 2d texture\n" + s.summary());
    }

    /** The descriptor with its linear-resource byte (76) set, as the runtime writes it for cudaResourceTypeLinear. */
    static List<Number> overLinearMemory(List<Number> d) {
        List<Number> out = new ArrayList<>(d);
        out.set(76 / 4, out.get(76 / 4).longValue() | 1L);
        return out;
    }

    /** tex.1d.v4.f32.s32 at texel index i into w[0]. */
    static String fetchIndex(int i) {
        return "mov.u32 %r9, " + i + ";\ntex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r9}];\nmov.b32 %r1, %f1;\n" + w(0, "%r1");
    }

    @Test
    void floatCoordinatesOnATextureOverLinearMemoryAreTextureMisuse() {
        List<Number> d = overLinearMemory(floatTex(1, new int[] {3, 0, 0}, CLAMP, false, false, NO_BORDER));
        LaunchedRun ok = run(d, ScalarType.U32, floats(4, 5, 6), fetchIndex(1));
        assertEquals(List.of(), codes(ok), "tex1Dfetch's integer index is what linear memory takes\n" + ok.summary());
        assertEquals(5f, out(ok, 0));
        LaunchedRun r = run(d, ScalarType.U32, floats(4, 5, 6), fetch(1, 1.5f));
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
        assertTrue(r.summary().contains("linear memory"), r.summary());
        LaunchedRun array = run(floatTex(1, new int[] {3, 0, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(4, 5, 6), fetch(1, 1.5f));
        assertEquals(List.of(), codes(array), "the same descriptor without byte 76 is an array: f32 coordinates are fine\n" + array.summary());
    }

    @Test
    void integerCoordinatesOnATextureWithNormalizedCoordinatesAreTextureMisuse() {
        LaunchedRun r = run(floatTex(1, new int[] {3, 0, 0}, CLAMP, false, true, NO_BORDER), ScalarType.U32, floats(4, 5, 6), fetchIndex(1));
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
        assertTrue(r.summary().contains("normalized coordinates"), r.summary());
        LaunchedRun ok = run(floatTex(1, new int[] {3, 0, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(4, 5, 6), fetchIndex(1));
        assertEquals(List.of(), codes(ok), ok.summary());
        assertEquals(5f, out(ok, 0));
    }

    @Test
    void gatherReturnsOneComponentOfTheFourFootprintTexelsCounterClockwiseFromLowerLeft() {
        // 3 x 2 texels of two channels; (1.6, 1.2): i = floor(1.1) = 1, j = floor(0.7) = 0.
        List<Number> d = desc(false, 2, new int[] {3, 2, 1}, new int[] {32, 32, 0, 0}, TextureObject.FLOAT, new int[] {CLAMP, CLAMP, CLAMP},
                false, false, false, NO_BORDER);
        List<Number> t = new ArrayList<>();
        for (int j = 0; j < 2; j++) for (int i = 0; i < 3; i++) { t.add(f32(10 * j + i)); t.add(f32(-(10 * j + i))); }
        String body = "mov.f32 %f10, " + imm(1.6f) + ";\nmov.f32 %f11, " + imm(1.2f) + ";\n"
                + "tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}];\n"
                + "mov.b32 %r1, %f1;\nmov.b32 %r2, %f2;\nmov.b32 %r3, %f3;\nmov.b32 %r4, %f4;\n" + w(0, "%r1") + w(1, "%r2") + w(2, "%r3") + w(3, "%r4");
        LaunchedRun r = run(d, ScalarType.U32, t, body);
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(-11f, -12f, -2f, -1f), List.of(out(r, 0), out(r, 1), out(r, 2), out(r, 3)));
    }

    @Test
    void gatherOnAnObjectWithoutGatherIsTextureMisuse() {
        List<Number> d = new ArrayList<>(floatTex(2, new int[] {2, 2, 1}, CLAMP, false, false, NO_BORDER));
        d.set(14, ((Number) d.get(14)).longValue() & ~0xFF000000L); // byte 59: gathers not allowed
        LaunchedRun r = run(d, ScalarType.U32, floats(0, 0, 0, 0), "mov.f32 %f10, 0f3F000000;\n"
                + "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f10}];\n");
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
    }

    static List<Number> surface2d(int w, int h, int texelBytes) {
        return desc(true, 2, new int[] {w, h, 1}, new int[] {texelBytes * 8, 0, 0, 0}, TextureObject.UNSIGNED, new int[3], false, false, false, NO_BORDER);
    }

    @Test
    void surfaceStoreAndLoadUseAByteXCoordinate() {
        LaunchedRun r = run(surface2d(2, 2, 4), ScalarType.U32, List.of(0L, 0L, 0L, 0L),
                "mov.u32 %r8, 4;\nmov.u32 %r9, 1;\nmov.u32 %r5, 77;\nsust.b.2d.b32.trap [%rd1, {%r8, %r9}], {%r5};\n"
                        + "suld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];\n" + w(0, "%r1")
                        + "ld.global.u32 %r2, [%rd2+12];\n" + w(1, "%r2"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(77L, ExecKernel.w(r, 0));
        assertEquals(77L, ExecKernel.w(r, 1), "texel (1, 1) is the fourth of a row-major 2 x 2 surface");
    }

    @Test
    void surfaceZeroModeLoadsZeroAndDropsStoresOutOfRange() {
        LaunchedRun r = run(surface2d(2, 2, 4), ScalarType.U32, List.of(5L, 6L, 7L, 8L),
                "mov.u32 %r8, 8;\nmov.u32 %r9, 0;\nmov.u32 %r5, 99;\nsust.b.2d.b32.zero [%rd1, {%r8, %r9}], {%r5};\n"
                        + "suld.b.2d.b32.zero {%r1}, [%rd1, {%r8, %r9}];\n" + w(0, "%r1") + "ld.global.u32 %r2, [%rd2+8];\n" + w(1, "%r2"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(0L, ExecKernel.w(r, 0));
        assertEquals(7L, ExecKernel.w(r, 1));
    }

    @Test
    void surfaceClampModeAccessesTheNearestLocation() {
        LaunchedRun r = run(surface2d(2, 2, 4), ScalarType.U32, List.of(5L, 6L, 7L, 8L),
                "mov.u32 %r8, 40;\nmov.u32 %r9, -3;\nsuld.b.2d.b32.clamp {%r1}, [%rd1, {%r8, %r9}];\n" + w(0, "%r1"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(6L, ExecKernel.w(r, 0));
    }

    @Test
    void surfaceTrapModeOutOfRangeIsAMemoryFault() {
        LaunchedRun r = run(surface2d(2, 2, 4), ScalarType.U32, List.of(5L, 6L, 7L, 8L),
                "mov.u32 %r8, 0;\nmov.u32 %r9, 2;\nsuld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];\n" + w(0, "%r1"));
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        assertTrue(r.summary().contains("outside the 2 x 2 surface"), r.summary());
    }

    @Test
    void aSurfaceAccessNotAlignedToItsSizeIsMisaligned() {
        LaunchedRun r = run(surface2d(2, 2, 4), ScalarType.U32, List.of(5L, 6L, 7L, 8L),
                "mov.u32 %r8, 2;\nmov.u32 %r9, 0;\nsuld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];\n" + w(0, "%r1"));
        assertEquals(List.of("misaligned-access"), codes(r), r.summary());
    }

    @Test
    void queriesGiveTheExtentAndSamplerState() {
        List<Number> d = floatTex(2, new int[] {3, 5, 1}, CLAMP, true, true, NO_BORDER);
        LaunchedRun r = run(d, ScalarType.U32, floats(0), "txq.width.b32 %r1, [%rd1];\ntxq.height.b32 %r2, [%rd1];\ntxq.depth.b32 %r3, [%rd1];\n"
                + "txq.filter_mode.b32 %r4, [%rd1];\ntxq.normalized_coords.b32 %r5, [%rd1];\n"
                + w(0, "%r1") + w(1, "%r2") + w(2, "%r3") + w(3, "%r4") + w(4, "%r5"));
        assertEquals(List.of(3L, 5L, 0L, 1L, 1L), List.of(ExecKernel.w(r, 0), ExecKernel.w(r, 1), ExecKernel.w(r, 2), ExecKernel.w(r, 3), ExecKernel.w(r, 4)));
        LaunchedRun s = run(surface2d(7, 2, 4), ScalarType.U32, floats(0), "suq.width.b32 %r1, [%rd1];\n" + w(0, "%r1"));
        assertEquals(7L, ExecKernel.w(s, 0));
        LaunchedRun t = run(surface2d(7, 2, 4), ScalarType.U32, floats(0), "txq.width.b32 %r1, [%rd1];\n" + w(0, "%r1"));
        assertEquals(List.of("memory-fault"), codes(t), "a surface is no texture\n" + t.summary());
    }

    @Test
    void formsNotModelledAreRefusedByName() {
        for (String insn : List.of("tex.2dms.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6, %r7, %r8}];",
                "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [%rd1, {%f10, %f11}];",
                "suld.p.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r1, %r2}];", "txq.channel_order.b32 %r1, [%rd1];")) {
            Exception e = assertThrows(Exception.class, () -> run(floatTex(1, new int[] {1, 0, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(0), insn));
            assertTrue(String.valueOf(e.getMessage()).contains("unsupported instruction"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void namingTwoGeometriesModesQueriesOrComponentsIsALoadErrorNotOnePicked() {
        for (String insn : List.of("tex.1d.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10}];",
                "tex.level.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}], %f12;",
                "tld4.r.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f10, %f11}];",
                "suld.b.1d.b32.clamp.zero %r1, [%rd1, {%r8}];", "sust.b.p.1d.b32.trap [%rd1, {%r8}], {%r5};",
                "txq.width.height.b32 %r1, [%rd1];", "suq.width.array_size.b32 %r1, [%rd1];")) {
            Exception e = assertThrows(Exception.class, () -> run(floatTex(1, new int[] {1, 0, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(0), insn));
            assertTrue(String.valueOf(e.getMessage()).contains(insn.substring(0, insn.indexOf(' ')) + " names more than one"), insn + ": " + e.getMessage());
        }
    }
}
