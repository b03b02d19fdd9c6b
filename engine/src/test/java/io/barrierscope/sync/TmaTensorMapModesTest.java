package io.barrierscope.sync;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Tensor-map fields beyond swizzle (the CUDA driver's cuTensorMapEncodeTiled: elementStrides,
 * interleave, oobFill; PTX ISA 5.5 tensor bounding box, traversal stride, OOB fill) and 1-5
 * dimensions, on nvcc PTX (tma_swizzle.cu, tma_modes.cu). References are computed here from
 * the coordinates alone.
 */
class TmaTensorMapModesTest {
    static LaunchedRun run(String file, String kernel, String json) throws Exception {
        Path ptx = Path.of(TmaTensorMapModesTest.class.getResource("/ptx-corpus/" + file).toURI());
        LaunchSpec spec = LaunchValidation.checkJson(ptx.resolveSibling("t.json"), "{\"ptx\": \"" + file + "\", \"kernel\": \"" + kernel + "\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n" + json + "}");
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        return r;
    }

    /** tma_swizzle over a 40x24 tensor of {@code type} (iota), box boxX x boxY at (c0, c1), with extra map fields. */
    private static LaunchedRun load2d(String type, String fields, int boxX, int boxY, int c0, int c1, int bytes) throws Exception {
        return run("tma_swizzle.ptx", "tma_swizzle",
                "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [40, 24], \"box\": [" + boxX + ", " + boxY + "]" + fields + "}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": " + c0 + ", \"type\": \"s32\"}, {\"value\": " + c1 + ", \"type\": \"s32\"}, {\"value\": " + bytes
                + ", \"type\": \"s32\"}],\n\"buffers\": [{\"buffer\": \"t\", \"type\": \"" + type + "\", \"count\": 960, \"init\": \"iota\"}]");
    }

    private static int out(LaunchedRun r, int i) { return r.buffers().get("out").get(i).intValue(); }

    @Test
    void aTraversalStrideLoadsEveryKthRowAndShrinksTheBox() throws Exception {
        // box 8 x 8 with strides [1, 3]: rows c1, c1+3, c1+6 (ceil(8/3) = 3), 96 bytes.
        LaunchedRun r = load2d("s32", ", \"elementStrides\": [1, 3]", 8, 8, 4, 2, 96);
        for (int k = 0; k < 3; k++) {
            for (int x = 0; x < 8; x++) assertEquals((2 + 3 * k) * 40 + 4 + x, out(r, k * 8 + x), "row " + k + " col " + x);
        }
        assertEquals(0, out(r, 24), "nothing past the 3 rows delivered");
    }

    @Test
    void withoutInterleaveTheStrideOfDimensionZeroMustBeOne() {
        // PTX ISA 5.5.3.2: "For non-interleaved layout, the traversal stride in dimension 0 must always be 1."
        String m = refusal("s32", ", \"elementStrides\": [4, 1]", "[40, 24]", "[8, 2]");
        assertTrue(m.contains("traversal stride of dimension 0 must be 1"), m);
    }

    @Test
    void aDecodedMapWithoutInterleaveIgnoresTheStrideOfDimensionZeroAsTheDriverDoes() {
        // Maps not from a launch file (the CUDA runtime's cuTensorMapEncodeTiled ignores elementStrides[0] without interleave).
        TensorMap tm = new TensorMap(2, 0, 4, new long[] {40, 24}, new long[] {160}, new int[] {8, 2}, 0, new int[] {4, 1}, 0, false, null);
        assertEquals(1, tm.traversalStride(0));
        assertEquals(64, tm.boxBytes());
    }

    @Test
    void outOfBoundsElementsAreNaNWithNanFill() throws Exception {
        LaunchedRun r = load2d("f32", ", \"oobFill\": \"nan\"", 8, 4, 36, 22, 128);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 8; x++) {
                int gx = 36 + x;
                int gy = 22 + y;
                int want = gx < 40 && gy < 24 ? Float.floatToRawIntBits(gy * 40 + gx) : 0x7FFFFFFF;
                assertEquals(want, out(r, y * 8 + x), "x " + x + " y " + y);
            }
        }
    }

    @Test
    void outOfBoundsElementsAreZeroByDefaultAndWithZeroFill() throws Exception {
        LaunchedRun r = load2d("f32", ", \"oobFill\": \"zero\"", 8, 4, 36, 22, 128);
        assertEquals(0, out(r, 4));
        assertEquals(Float.floatToRawIntBits(22 * 40 + 36), out(r, 0));
    }

    @Test
    void aFiveDimensionalBoxWithStridesAndOutOfBoundsCorners() throws Exception {
        // 5-d tensor 8 x 3 x 4 x 2 x 3 of s32 iota, packed; box 4 x 2 x 2 x 2 x 2 at (4, 2, 3, 1, 2): partly outside.
        int[] dims = {8, 3, 4, 2, 3};
        int[] box = {4, 2, 2, 2, 2};
        int[] c = {4, 2, 3, 1, 2};
        LaunchedRun r = run("tma_modes.ptx", "tma_load5d",
                "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [8, 3, 4, 2, 3], \"box\": [4, 2, 2, 2, 2]}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": 4, \"type\": \"s32\"}, {\"value\": 2, \"type\": \"s32\"}, {\"value\": 3, \"type\": \"s32\"},"
                + "{\"value\": 1, \"type\": \"s32\"}, {\"value\": 2, \"type\": \"s32\"}, {\"value\": 256, \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 576, \"init\": \"iota\"}]");
        int n = 0;
        for (int i4 = 0; i4 < box[4]; i4++) for (int i3 = 0; i3 < box[3]; i3++) for (int i2 = 0; i2 < box[2]; i2++)
            for (int i1 = 0; i1 < box[1]; i1++) for (int i0 = 0; i0 < box[0]; i0++) {
                int[] g = {c[0] + i0, c[1] + i1, c[2] + i2, c[3] + i3, c[4] + i4};
                boolean in = true;
                int lin = 0;
                for (int d = 4; d >= 0; d--) {
                    in &= g[d] < dims[d];
                    lin = lin * dims[d] + g[d];
                }
                assertEquals(in ? lin : 0, out(r, n), "element " + n);
                n++;
            }
        assertEquals(-1, out(r, n), "the box ends at " + n + " ints");
    }

    private static String refusal(String type, String fields, String dims, String box) {
        Exception e = assertThrows(Exception.class, () -> run("tma_swizzle.ptx", "tma_swizzle",
                "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": " + dims + ", \"box\": " + box + fields + "}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"" + type + "\", \"count\": 4096, \"init\": \"iota\"}]"));
        return e.getMessage();
    }

    @Test
    void theDriversConstraintsAreRefusedAtTheirLaunchFileLocation() {
        String m = refusal("s32", ", \"elementStrides\": [1, 9]", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("/elementStrides/1") || m.contains("elementStrides"), m);
        m = refusal("s32", ", \"interleave\": \"16B\"", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("interleaved tensorMap needs 3 to 5 dimensions"), m);
        m = refusal("s32", ", \"interleave\": \"32B\"", "[8, 8, 8]", "[8, 8, 1]");
        assertTrue(m.contains("with interleave 32B the swizzle must be 32B"), m);
        m = refusal("s32", ", \"interleave\": \"64B\"", "[8, 8, 8]", "[8, 8, 1]");
        assertTrue(m.contains("unknown interleave '64B'"), m);
        m = refusal("s32", ", \"oobFill\": \"nan\"", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("NaN fill needs a floating-point buffer"), m);
        m = refusal("f32", ", \"oobFill\": \"one\"", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("unknown oobFill 'one'"), m);
        m = refusal("s32", ", \"mode\": \"im2col\"", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("an im2col tensorMap has no \"box\""), m); // its fields: TmaIm2colTest
        m = refusal("s32", ", \"mode\": \"gather4\"", "[40, 24]", "[8, 8]");
        assertTrue(m.contains("unknown tensorMap mode 'gather4' (expected tile or im2col)"), m);
        m = refusal("s32", ", \"mode\": \"tile\", \"swizzle\": \"32B\", \"interleave\": \"32B\", \"strides\": [48, 960]", "[4, 8, 2]", "[8, 8, 1]");
        assertTrue(m.contains("byte strides must be multiples of 32"), m);
        m = refusal("s32", ", \"interleave\": \"16B\"", "[4, 8, 8]", "[1, 1, 1]");
        assertTrue(m.contains("a bounding box must span a multiple of 16 bytes"), m);
        m = refusal("s32", "", "[40, 24]", "[3, 8]");
        assertTrue(m.contains("must span a multiple of 16 bytes") && m.contains("t.json:2:66:"), m); // at box[0]
    }

    @Test
    void aStrideSmallerThanThePreviousDimensionIsRefusedAtItsPlaceNotRunWithOverlappingRows() throws Exception {
        // 20 s32 per row (80 bytes) with a row stride of 16 ran with overlapping rows; the driver's
        // globalStrides include the previous dimension (globalStrides[0] = globalDim[0] * elementSize + padding).
        String m = refusal("s32", ", \"strides\": [16]", "[20, 24]", "[8, 8]");
        assertTrue(m.contains("t.json:2:") && m.contains("stride 16 of dimension 1 is smaller than the 80 bytes of dimension 0"), m);
        m = refusal("s32", ", \"strides\": [80, 160]", "[20, 4, 2]", "[8, 4, 1]");
        assertTrue(m.contains("stride 160 of dimension 2 is smaller than the 320 bytes of dimension 1 it must include (4 x stride 80)"), m);
        // a stride of exactly the row is the packed layout and runs: row 1 of the box starts at element 40
        LaunchedRun r = load2d("s32", ", \"strides\": [160]", 8, 8, 0, 0, 256);
        assertEquals(40, out(r, 8));
    }

    @Test
    void anInterleavedMapHonoursTheTraversalStrideOfDimensionZero() throws Exception {
        // 16B interleave over a 3-d tensor 4 x 10 x 6 (dimension 0: the four s32 of one 16-byte chunk), box 4 x 8 x 1
        // at (0, 1, 2) with traversal strides [2, 1, 1]: channels 0 and 2 of rows 1..8 of slab 2.
        LaunchedRun r = run("tma_modes.ptx", "tma_load5d", "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [4, 10, 6, 1, 1],"
                + " \"box\": [4, 8, 1, 1, 1], \"interleave\": \"16B\", \"elementStrides\": [2, 1, 1, 1, 1]}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 1, \"type\": \"s32\"}, {\"value\": 2, \"type\": \"s32\"},"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 64, \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 240, \"init\": \"iota\"}]");
        for (int y = 0; y < 8; y++) {
            for (int k = 0; k < 2; k++) assertEquals(2 * 40 + (1 + y) * 4 + 2 * k, out(r, y * 2 + k), "row " + y + " channel " + 2 * k);
        }
        assertEquals(-1, out(r, 16), "16 elements delivered");
    }

    @Test
    void theNewTensorMapFieldsSurviveTheCanonicalJsonATraceCarries() throws Exception {
        String json = "{\"ptx\": \"tma_swizzle.ptx\", \"kernel\": \"tma_swizzle\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n"
                + "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [8, 8, 8], \"box\": [8, 8, 1], \"swizzle\": \"32B\","
                + " \"elementStrides\": [1, 2, 1], \"interleave\": \"32B\", \"oobFill\": \"nan\"}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"f32\", \"count\": 512, \"init\": \"iota\"}]}";
        Path dir = Path.of(TmaTensorMapModesTest.class.getResource("/ptx-corpus/tma_swizzle.ptx").toURI()).getParent();
        LaunchSpec s = LaunchValidation.checkJson(dir.resolve("a.json"), json);
        String canonical = io.barrierscope.launch.LaunchSpecJson.write(s, "round-robin", 0, 1000);
        LaunchSpec again = LaunchValidation.checkJson(dir.resolve("b.json"), canonical);
        assertEquals(s.args().get(0).tensorMap(), again.args().get(0).tensorMap());
        assertEquals(java.util.List.of(1, 2, 1), again.args().get(0).tensorMap().elementStrides());
        assertEquals(32, again.args().get(0).tensorMap().interleave());
        assertTrue(again.args().get(0).tensorMap().oobNan());
    }

    @Test
    void aMapWithTheDefaultsEncodesAsBeforeTheNewFieldsAndTheNewFieldsRoundTrip() {
        TensorMap plain = new TensorMap(2, 0x1000, 4, new long[] {40, 24}, new long[] {160}, new int[] {8, 8}, 128);
        byte[] b = plain.encode();
        for (int i = 120; i < 128; i++) assertEquals(0, b[i], "byte " + i + " of a default map (recorded traces hash these bytes)");
        TensorMap full = new TensorMap(3, 0x2000, 2, new long[] {8, 8, 8}, new long[] {16, 128}, new int[] {8, 8, 1}, 32,
                new int[] {2, 3, 1}, 32, true, io.barrierscope.ptx.ScalarType.BF16);
        TensorMap back = TensorMap.decode(full.encode());
        assertEquals(java.util.List.of(2, 3, 1), java.util.Arrays.stream(back.elementStrides()).boxed().toList());
        assertEquals(32, back.interleave());
        assertTrue(back.oobNan());
        assertEquals(io.barrierscope.ptx.ScalarType.BF16, back.type());
        assertEquals(0x7FFF, back.oobValue());
        assertEquals(2L * 4 * 3 * 1, back.boxBytes(), "ceil(8/2) * ceil(8/3) * 1 elements of 2 bytes");
    }
}
