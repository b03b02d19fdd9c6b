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
 * The layered geometries of tex, suld and sust ({@code .a1d}, {@code .a2d}; PTX ISA 9.7.10.3,
 * 9.7.11.1, 9.7.11.2) on hand-built layered objects (descriptor byte 77 set, the number of layers
 * at 80; docs/semantics.md section 16): the layer index is the first coordinate element, read as
 * .u32, and selects layer l at address + l * slice.
 */
class LayeredTextureTest {
    /** desc made layered with the given number of layers; a 1d one's slice is one row. */
    static List<Number> layered(List<Number> desc, int layers) {
        List<Number> d = new ArrayList<>(desc);
        d.set(77 / 4, d.get(77 / 4).longValue() | 1L << 8 * (77 % 4));
        d.set(80 / 4, (long) layers);
        if (d.get(1).longValue() == 1) d.set(40 / 4, d.get(32 / 4)); // slice = row pitch
        return d;
    }

    /** A float texture of extent ext and the given layers. */
    static List<Number> layeredFloatTex(int dims, int[] ext, int layers, boolean linear) {
        return layered(floatTex(dims, ext, CLAMP, linear, false, NO_BORDER), layers);
    }

    /** tex.a1d (two elements) or tex.a2d (four) at layer {@code layer} and f32 coordinates c, x into w[0]. */
    static String fetch(int dims, long layer, float... c) {
        StringBuilder s = new StringBuilder("mov.u32 %r9, " + layer + ";\n");
        List<String> regs = new ArrayList<>(List.of("%r9"));
        for (int i = 0; i < (dims == 1 ? 1 : 3); i++) {
            s.append("mov.f32 %f").append(10 + i).append(", ").append(imm(i < c.length ? c[i] : 0f)).append(";\n");
            regs.add("%f" + (10 + i));
        }
        s.append("tex.a").append(dims).append("d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {").append(String.join(", ", regs)).append("}];\n");
        return s.append("mov.b32 %r1, %f1;\n").append(w(0, "%r1")).toString();
    }

    @Test
    void aOneDimensionalLayeredFetchTakesTheLayerFromTheFirstElement() {
        // 3 texels by 2 layers: layer 1 is 10, 11, 12.
        List<Number> d = layeredFloatTex(1, new int[] {3, 0, 0}, 2, false);
        LaunchedRun r = run(d, ScalarType.U32, floats(0, 1, 2, 10, 11, 12), fetch(1, 1, 1.5f));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(11f, out(r, 0));
        LaunchedRun clamp = run(d, ScalarType.U32, floats(0, 1, 2, 10, 11, 12), fetch(1, 0, 7f));
        assertEquals(2f, out(clamp, 0), "x clamps within layer 0; it does not run on into layer 1");
    }

    @Test
    void twoDimensionalLayeredLinearFilteringBlendsWithinOneLayerOnly() {
        // 2 x 2 texels by 2 layers; (1, 1) is the centre: the mean of the layer's four texels.
        List<Number> d = layeredFloatTex(2, new int[] {2, 2, 0}, 2, true);
        List<Number> texels = floats(1, 2, 3, 4, 100, 200, 300, 500);
        LaunchedRun r = run(d, ScalarType.U32, texels, fetch(2, 1, 1f, 1f, 99f));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(275f, out(r, 0), "the fourth element is ignored");
        LaunchedRun edge = run(d, ScalarType.U32, texels, fetch(2, 0, 1f, 2f));
        assertEquals(3.5f, out(edge, 0), "at the bottom edge the clamped row is layer 0's last, not layer 1's first");
    }

    @Test
    void aLayerIndexNotBelowTheNumberOfLayersIsTextureLayerRange() {
        List<Number> d = layeredFloatTex(2, new int[] {2, 2, 0}, 2, false);
        LaunchedRun r = run(d, ScalarType.U32, floats(1, 2, 3, 4, 5, 6, 7, 8), fetch(2, 2, 0.5f, 0.5f));
        assertEquals(List.of("texture-layer-range"), codes(r), r.summary());
        assertTrue(r.summary().contains("layer 2 of a layered object with 2 layer(s)"), r.summary());
        LaunchedRun minusOne = run(d, ScalarType.U32, floats(1, 2, 3, 4, 5, 6, 7, 8), fetch(2, -1, 0.5f, 0.5f));
        assertEquals(List.of("texture-layer-range"), codes(minusOne), "-1 read as .u32 is 4294967295\n" + minusOne.summary());
        assertTrue(minusOne.summary().contains("layer 4294967295"), minusOne.summary());
    }

    @Test
    void aLayeredFetchOfAPlainObjectAndAPlainFetchOfALayeredOneAreTextureMisuse() {
        LaunchedRun r = run(floatTex(2, new int[] {2, 2, 1}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(1, 2, 3, 4), fetch(2, 0, 0.5f, 0.5f));
        assertEquals(List.of("texture-misuse"), codes(r), r.summary());
        LaunchedRun s = run(layeredFloatTex(2, new int[] {2, 2, 0}, 1, false), ScalarType.U32, floats(1, 2, 3, 4),
                TextureSurfaceTest.fetch(2, 0.5f, 0.5f));
        assertEquals(List.of("texture-misuse"), codes(s), s.summary());
        assertTrue(s.summary().contains("on a a2d texture object"), s.summary());
    }

    static List<Number> layeredSurface(int dims, int w, int h, int layers) {
        return layered(TextureSurfaceTest.desc(true, dims, new int[] {w, h, 0}, new int[] {32, 0, 0, 0}, TextureObject.UNSIGNED, new int[3],
                false, false, false, NO_BORDER), layers);
    }

    @Test
    void aLayeredSurfaceStoreAndLoadSelectTheLayerAndTakeAByteX() {
        // 2 x 2 texels of 4 bytes by 3 layers: (x = 4 bytes, y = 1, layer 2) is word 2 * 4 + 1 * 2 + 1 = 11.
        List<Number> zeros = new ArrayList<>();
        for (int i = 0; i < 12; i++) zeros.add(0L);
        LaunchedRun r = run(layeredSurface(2, 2, 2, 3), ScalarType.U32, zeros,
                "mov.u32 %r7, 2;\nmov.u32 %r8, 4;\nmov.u32 %r9, 1;\nmov.u32 %r5, 77;\n"
                        + "sust.b.a2d.b32.trap [%rd1, {%r7, %r8, %r9, %r9}], {%r5};\n"
                        + "suld.b.a2d.b32.trap {%r1}, [%rd1, {%r7, %r8, %r9, %r9}];\n" + w(0, "%r1")
                        + "ld.global.u32 %r2, [%rd2+44];\n" + w(1, "%r2"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(77L, ExecKernel.w(r, 0));
        assertEquals(77L, ExecKernel.w(r, 1));
        // 1d layered: 2 texels by 2 layers; (x = 4 bytes, layer 1) is word 3.
        LaunchedRun a1 = run(layeredSurface(1, 2, 0, 2), ScalarType.U32, List.of(0L, 0L, 0L, 0L),
                "mov.u32 %r7, 1;\nmov.u32 %r8, 4;\nmov.u32 %r5, 55;\nsust.b.a1d.b32.trap [%rd1, {%r7, %r8}], {%r5};\n"
                        + "ld.global.u32 %r2, [%rd2+12];\n" + w(0, "%r2"));
        assertEquals(List.of(), codes(a1), a1.summary());
        assertEquals(55L, ExecKernel.w(a1, 0));
    }

    @Test
    void aLayeredSurfaceLayerOutOfRangeIsTextureLayerRangeWhateverTheMode() {
        for (String mode : List.of("trap", "clamp", "zero")) {
            LaunchedRun r = run(layeredSurface(1, 2, 0, 2), ScalarType.U32, List.of(0L, 0L, 0L, 0L),
                    "mov.u32 %r7, 2;\nmov.u32 %r8, 0;\nsuld.b.a1d.b32." + mode + " {%r1}, [%rd1, {%r7, %r8}];\n" + w(0, "%r1"));
            assertEquals(List.of("texture-layer-range"), codes(r), mode + "\n" + r.summary());
        }
    }

    @Test
    void aLayeredSurfaceCoordinateOutOfRangeFollowsTheModeWithinTheLayer() {
        // x = 8 bytes is past a 2-texel row: .zero loads 0 instead of the next layer's first texel.
        LaunchedRun r = run(layeredSurface(1, 2, 0, 2), ScalarType.U32, List.of(1L, 2L, 3L, 4L),
                "mov.u32 %r7, 0;\nmov.u32 %r8, 8;\nsuld.b.a1d.b32.zero {%r1}, [%rd1, {%r7, %r8}];\n" + w(0, "%r1")
                        + "suld.b.a1d.b32.clamp {%r2}, [%rd1, {%r7, %r8}];\n" + w(1, "%r2"));
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(0L, ExecKernel.w(r, 0));
        assertEquals(2L, ExecKernel.w(r, 1));
    }

    @Test
    void aLayeredGatherTakesTheLayerFromTheFirstElementAndGathersWithinIt() {
        // 2 x 2 texels by 2 layers; at the centre (1, 1) the footprint is the layer's four texels,
        // counter-clockwise from the lower left: (0, 1), (1, 1), (1, 0), (0, 0).
        List<Number> d = layeredFloatTex(2, new int[] {2, 2, 0}, 2, false);
        String body = "mov.u32 %r9, 1;\nmov.f32 %f10, " + imm(1f) + ";\nmov.f32 %f11, " + imm(1f) + ";\n"
                + "tld4.r.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r9, %f10, %f11, %f11}];\n"
                + "mov.b32 %r1, %f1;\nmov.b32 %r2, %f2;\nmov.b32 %r3, %f3;\nmov.b32 %r4, %f4;\n"
                + w(0, "%r1") + w(1, "%r2") + w(2, "%r3") + w(3, "%r4");
        LaunchedRun r = run(d, ScalarType.U32, floats(1, 2, 3, 4, 100, 200, 300, 500), body);
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(300f, 500f, 200f, 100f), List.of(out(r, 0), out(r, 1), out(r, 2), out(r, 3)));
        LaunchedRun past = run(d, ScalarType.U32, floats(1, 2, 3, 4, 100, 200, 300, 500), body.replace("mov.u32 %r9, 1;", "mov.u32 %r9, 2;"));
        assertEquals(List.of("texture-layer-range"), codes(past), past.summary());
        LaunchedRun plain = run(floatTex(2, new int[] {2, 2, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(1, 2, 3, 4), body);
        assertEquals(List.of("texture-misuse"), codes(plain), "tld4.a2d needs a layered object\n" + plain.summary());
    }

    @Test
    void arraySizeIsTheNumberOfLayersAndIsTextureMisuseOnAnObjectThatIsNoArray() {
        String q = "txq.array_size.b32 %r1, [%rd1];\n" + w(0, "%r1");
        LaunchedRun r = run(layeredFloatTex(2, new int[] {2, 2, 0}, 3, false), ScalarType.U32, floats(0), q);
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(3L, ExecKernel.w(r, 0));
        LaunchedRun plain = run(floatTex(2, new int[] {2, 2, 0}, CLAMP, false, false, NO_BORDER), ScalarType.U32, floats(0), q);
        assertEquals(List.of("texture-misuse"), codes(plain), plain.summary());
        assertTrue(plain.summary().contains("no texture array"), plain.summary());
    }
}
