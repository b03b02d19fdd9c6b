package io.barrierscope.sync;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * TMA im2col loads (PTX ISA 5.5.4, 9.7.9.25.5.2) on nvcc PTX ({@code ptx-corpus/tma_im2col.cu}),
 * checked against a naive im2col written here: the rows of the convolution-as-GEMM matrix of an
 * NHWC (NWC, NDHWC) tensor, one row per output pixel, for one filter tap. A map whose bounding box
 * is the set of filter bases of a padded, strided convolution, copied from the filter base of an
 * output pixel with the tap as im2col offsets, delivers those rows, the pixels past the last image
 * (and channels past the last) as the fill.
 */
class TmaIm2colTest {
    private static final int TILE = 1024;

    /** A convolution over an N x spatial... x C tensor (spatial W first), its padding, kernel and stride per spatial dimension. */
    record Conv(int n, int[] spatial, int c, int[] pad, int[] kernel, int[] stride) {
        int out(int j) { return (spatial[j] + 2 * pad[j] - kernel[j]) / stride[j] + 1; }

        int rows() {
            int r = n;
            for (int j = 0; j < spatial.length; j++) r *= out(j);
            return r;
        }

        /** Linear NHWC index of (n, x[] (W first), ch), or -1 outside the tensor. */
        long index(int img, int[] x, int ch) {
            if (img < 0 || img >= n || ch < 0 || ch >= c) return -1;
            long lin = img;
            for (int j = spatial.length - 1; j >= 0; j--) {
                if (x[j] < 0 || x[j] >= spatial[j]) return -1;
                lin = lin * spatial[j] + x[j];
            }
            return lin * c + ch;
        }

        /**
         * Naive im2col: row m of the GEMM matrix (m = ((img * outD + od) * outH + oh) * outW + ow),
         * channel ch, for filter tap {@code tap} (W first): the input element the tap reads for that
         * output pixel, its NHWC index, or -1 for padding and for rows past the last image.
         */
        long reference(int m, int[] tap, int ch) {
            if (m >= rows()) return -1;
            int[] o = new int[spatial.length];
            int rest = m;
            for (int j = 0; j < spatial.length; j++) {
                o[j] = rest % out(j);
                rest /= out(j);
            }
            int[] x = new int[spatial.length];
            for (int j = 0; j < spatial.length; j++) x[j] = o[j] * stride[j] - pad[j] + tap[j];
            return index(rest, x, ch);
        }

        /** The filter base of row m (the tensor coordinates W.., N of its output pixel's window corner). */
        int[] base(int m) {
            int[] b = new int[spatial.length + 1];
            int rest = m;
            for (int j = 0; j < spatial.length; j++) {
                b[j] = (rest % out(j)) * stride[j] - pad[j];
                rest /= out(j);
            }
            b[spatial.length] = rest;
            return b;
        }

        /** The launch file's im2col map: lower corner -pad, upper corner the last filter base relative to the last coordinate. */
        String map(String extra, int cpp, int ppc) {
            StringBuilder dims = new StringBuilder("[" + c);
            StringBuilder lo = new StringBuilder("[");
            StringBuilder hi = new StringBuilder("[");
            StringBuilder es = new StringBuilder("[1");
            for (int j = 0; j < spatial.length; j++) {
                dims.append(", ").append(spatial[j]);
                lo.append(j == 0 ? "" : ", ").append(-pad[j]);
                hi.append(j == 0 ? "" : ", ").append(-pad[j] + (out(j) - 1) * stride[j] - (spatial[j] - 1));
                es.append(", ").append(stride[j]);
            }
            dims.append(", ").append(n).append("]");
            return "{\"tensorMap\": {\"buffer\": \"t\", \"mode\": \"im2col\", \"dims\": " + dims + ", \"lowerCorner\": " + lo + "], "
                    + "\"upperCorner\": " + hi + "], \"elementStrides\": " + es + ", 1], \"channelsPerPixel\": " + cpp
                    + ", \"pixelsPerColumn\": " + ppc + extra + "}}";
        }

        long elements() { return (long) n * c * java.util.Arrays.stream(spatial).reduce(1, (a, b) -> a * b); }
    }

    static LaunchedRun run(String kernel, String json, int block) throws Exception {
        Path ptx = Path.of(TmaIm2colTest.class.getResource("/ptx-corpus/tma_im2col.ptx").toURI());
        LaunchSpec spec = LaunchValidation.checkJson(ptx.resolveSibling("t.json"), "{\"ptx\": \"tma_im2col.ptx\", \"kernel\": \"" + kernel + "\", \"grid\": [" + block + ", 1, 1], \"block\": [256, 1, 1],\n" + json + "}");
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        return r;
    }

    /** Runs the copy of {@code ppc} rows from row m0 for {@code tap} with channels from c0; the tile as ints. */
    static LaunchedRun copy(Conv cv, String type, String extra, int cpp, int ppc, int m0, int c0, int[] tap, String kernel, int ctas) throws Exception {
        int[] b = cv.base(m0);
        List<String> args = new ArrayList<>();
        args.add(cv.map(extra, cpp, ppc));
        args.add("{\"buffer\": \"out\", \"type\": \"s32\", \"count\": " + TILE * ctas + ", \"init\": \"zero\"}");
        args.add("{\"value\": " + c0 + ", \"type\": \"s32\"}");
        for (int v : b) args.add("{\"value\": " + v + ", \"type\": \"s32\"}");
        for (int t : tap) args.add("{\"value\": " + t + ", \"type\": \"u16\"}");
        args.add("{\"value\": " + (cpp * ppc * 4) + ", \"type\": \"s32\"}");
        return run(kernel, "\"args\": [" + String.join(",\n", args) + "],\n\"buffers\": [{\"buffer\": \"t\", \"type\": \"" + type
                + "\", \"count\": " + cv.elements() + ", \"init\": \"iota\"}]", ctas);
    }

    private static int out(LaunchedRun r, int i) { return r.buffers().get("out").get(i).intValue(); }

    /** Each tile element against the reference: value(index) where in the tensor, else the fill; -1 past the box. */
    private static void check(LaunchedRun r, Conv cv, int cpp, int ppc, int m0, int c0, int[] tap, int base,
                              java.util.function.LongUnaryOperator value, int fill, java.util.function.IntUnaryOperator place) {
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        for (int p = 0; p < ppc; p++) {
            for (int k = 0; k < cpp; k++) {
                long idx = cv.reference(m0 + p, tap, c0 + k);
                int want = idx < 0 ? fill : (int) value.applyAsLong(idx);
                assertEquals(want, out(r, base + place.applyAsInt(p * cpp + k)), "pixel " + p + " channel " + k);
            }
        }
        for (int i = ppc * cpp; i < TILE; i++) assertEquals(-1, out(r, base + i), "nothing past the box, int " + i);
    }

    private static final java.util.function.IntUnaryOperator DENSE = i -> i;

    @Test
    void a4dCopyDeliversTheIm2colRowsOfAPaddedConvolutionAcrossImagesAndFillsPastTheLastImage() throws Exception {
        // 2 images 5 x 6 x 8 channels, 3x3 filter, padding 1: 60 rows; tap (s=0, r=2); rows 20..83.
        Conv cv = new Conv(2, new int[] {6, 5}, 8, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        int[] tap = {0, 2};
        LaunchedRun r = copy(cv, "s32", "", 8, 64, 20, 0, tap, "tma_im2col4d", 1);
        check(r, cv, 8, 64, 20, 0, tap, 0, i -> i, 0, DENSE);
    }

    @Test
    void aPaddedLoadAcrossTwoImagesGivesThePixelsAHopperGpuGives() throws Exception {
        // Two 4 x 4 images, box [-1, 2] in H and W (lower and upper corner -1), 16 pixels from the
        // filter base (n 0, h 1, w 2) with offsets 0: the pixel numbers (1 + index) a Hopper GPU
        // loads in this case (Triton's TMA im2col tutorial), 0 for padding.
        Conv cv = new Conv(2, new int[] {4, 4}, 4, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        int[] tap = {0, 0};
        LaunchedRun r = copy(cv, "s32", "", 4, 16, 2 * 4 + 3, 0, tap, "tma_im2col4d", 1);
        int[] pixels = {7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22};
        for (int p = 0; p < 16; p++) assertEquals(pixels[p] == 0 ? 0 : (pixels[p] - 1) * 4, out(r, p * 4), "pixel " + p);
        check(r, cv, 4, 16, 11, 0, tap, 0, i -> i, 0, DENSE);
    }

    /**
     * End to end: ptx-corpus/tma_im2col.json (nvcc PTX of tma_im2col.cu, a launch file with an im2col
     * map) meets its expect block, a naive im2col computed apart from the engine, under every
     * policy and several seeds.
     */
    @Test
    void theIm2colLaunchFileMeetsItsExpectBlockUnderEveryPolicy() throws Exception {
        Path launch = Path.of(TmaIm2colTest.class.getResource("/ptx-corpus/tma_im2col.json").toURI());
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 0; seed < 3; seed++) {
                LaunchedRun r = LaunchValidation.validate(launch).start(policy, seed);
                r.runToEnd();
                assertEquals(List.of(), r.expectDifferences(), policy + " seed " + seed + "\n" + r.summary());
                assertEquals(List.of(), io.barrierscope.testing.PtxRun.codes(r), r.summary());
            }
        }
    }

    @Test
    void traversalStridesStepTheFilterBaseAndOutOfBoundsPixelsAreNaNWithNanFill() throws Exception {
        // 7 x 7 x 4 f32, 3x3 filter, padding 1, stride 2 (elementStrides [1, 2, 2, 1]): 4 x 4 outputs per image.
        Conv cv = new Conv(2, new int[] {7, 7}, 4, new int[] {1, 1}, new int[] {3, 3}, new int[] {2, 2});
        int[] tap = {2, 1};
        LaunchedRun r = copy(cv, "f32", ", \"oobFill\": \"nan\"", 4, 32, 5, 0, tap, "tma_im2col4d", 1);
        check(r, cv, 4, 32, 5, 0, tap, 0, i -> Float.floatToRawIntBits(i), 0x7FFFFFFF, DENSE);
    }

    @Test
    void a3dCopyReadsChannelsFromItsChannelCoordinateAndFillsChannelsPastTheLast() throws Exception {
        // NWC: 3 images of width 10, 6 channels; filter 4 wide, padding 2; channels 4..7 of which 6, 7 are outside.
        Conv cv = new Conv(3, new int[] {10}, 6, new int[] {2}, new int[] {4}, new int[] {1});
        int[] tap = {3};
        LaunchedRun r = copy(cv, "s32", "", 4, 40, 7, 4, tap, "tma_im2col3d", 1);
        check(r, cv, 4, 40, 7, 4, tap, 0, i -> i, 0, DENSE);
    }

    @Test
    void a5dCopyWalksWThenHThenDThenTheImage() throws Exception {
        // NDHWC: 2 images 3 x 3 x 4, 4 channels, 2x2x2 filter, padding 1: 4 x 4 x 5 outputs per image.
        Conv cv = new Conv(2, new int[] {4, 3, 3}, 4, new int[] {1, 1, 1}, new int[] {2, 2, 2}, new int[] {1, 1, 1});
        int[] tap = {1, 0, 1};
        LaunchedRun r = copy(cv, "s32", "", 4, 100, 30, 0, tap, "tma_im2col5d", 1);
        check(r, cv, 4, 100, 30, 0, tap, 0, i -> i, 0, DENSE);
    }

    @Test
    void anIm2colBoxLandsThroughThe128ByteSwizzle() throws Exception {
        // 32 f32 channels per pixel: each pixel is one 128-byte line; line L's 16-byte chunks are XORed with L mod 8.
        Conv cv = new Conv(1, new int[] {4, 4}, 32, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        int[] tap = {1, 1};
        LaunchedRun r = copy(cv, "s32", ", \"swizzle\": \"128B\"", 32, 16, 0, 0, tap, "tma_im2col4d", 1);
        check(r, cv, 32, 16, 0, 0, tap, 0, i -> i, 0, i -> {
            int line = i / 32;
            int chunk = (i % 32) / 4;
            return line * 32 + ((chunk ^ (line % 8)) * 4) + i % 4;
        });
    }

    @Test
    void aMulticastIm2colCopyLandsInEveryCtaOfTheMask() throws Exception {
        Conv cv = new Conv(1, new int[] {6, 5}, 8, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        int[] tap = {2, 1};
        LaunchedRun r = copy(cv, "s32", "", 8, 24, 3, 0, tap, "tma_im2col4d_multicast", 2);
        for (int cta = 0; cta < 2; cta++) check(r, cv, 8, 24, 3, 0, tap, cta * TILE, i -> i, 0, DENSE);
    }

    /** The tensor after an .im2col_no_offs store (or add reduction) of the tile 1000 + i from row m0's filter base. */
    private static void storeOrReduce(String kernel, boolean add) throws Exception {
        // 2 images 5 x 6 x 8 channels, 3x3 filter, padding 1; 40 pixels from row 7: padding and
        // rows past the last image are not written.
        Conv cv = new Conv(2, new int[] {6, 5}, 8, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        int m0 = 37;
        int ppc = 40;
        int[] b = cv.base(m0);
        String json = "\"args\": [" + cv.map("", 8, ppc) + ", {\"value\": 0, \"type\": \"s32\"}, {\"value\": " + b[0]
                + ", \"type\": \"s32\"}, {\"value\": " + b[1] + ", \"type\": \"s32\"}, {\"value\": " + b[2] + ", \"type\": \"s32\"}],"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": " + cv.elements() + ", \"init\": \"iota\"}]";
        LaunchedRun r = run(kernel, json, 1);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        assertEquals(List.of(), io.barrierscope.testing.PtxRun.codes(r), r.summary());
        long[] want = new long[(int) cv.elements()];
        for (int i = 0; i < want.length; i++) want[i] = i;
        int written = 0;
        for (int p = 0; p < ppc; p++) {
            for (int k = 0; k < 8; k++) {
                long idx = cv.reference(m0 + p, new int[] {0, 0}, k);
                if (idx < 0) continue;
                want[(int) idx] = add ? want[(int) idx] + 1000 + p * 8 + k : 1000 + p * 8 + k;
                written++;
            }
        }
        assertTrue(written > 0 && written < ppc * 8, "some pixels are padding or past the last image");
        for (int i = 0; i < want.length; i++) assertEquals(want[i], r.buffers().get("t").get(i).longValue(), "element " + i);
    }

    @Test
    void anIm2colStoreWritesTheBoxsPixelsAndNothingOutsideTheTensor() throws Exception {
        storeOrReduce("tma_im2col_store4d", false);
    }

    @Test
    void anIm2colReductionAddsTheBoxIntoItsPixels() throws Exception {
        storeOrReduce("tma_im2col_reduce_add4d", true);
    }

    private static List<String> codes(LaunchedRun r) {
        return io.barrierscope.testing.PtxRun.codes(r).stream().distinct().toList();
    }

    @Test
    void aFilterBaseOutsideTheBoundingBoxIsADiagnostic() throws Exception {
        // Box along W: [-1, 4] (6 wide, 3-wide filter, padding 1); a base at W = 5 is outside it (PTX ISA 5.5.4.1).
        Conv cv = new Conv(1, new int[] {6, 5}, 8, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        String json = "\"args\": [" + cv.map("", 8, 8) + ", {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024},"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 5, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"},"
                + "{\"value\": 0, \"type\": \"u16\"}, {\"value\": 0, \"type\": \"u16\"}, {\"value\": 256, \"type\": \"s32\"}],"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 240, \"init\": \"iota\"}]";
        LaunchedRun r = run("tma_im2col4d", json, 1);
        assertEquals(List.of("tensor-im2col-range"), codes(r), r.summary());
        assertTrue(r.summary().contains("outside the bounding box [-1, 4]"), r.summary());
    }

    @Test
    void anIm2colOffsetBeyondItsBitsIsADiagnostic() throws Exception {
        // 4-d copies have 8-bit offsets: 256 is out of range.
        Conv cv = new Conv(1, new int[] {6, 5}, 8, new int[] {1, 1}, new int[] {3, 3}, new int[] {1, 1});
        String json = "\"args\": [" + cv.map("", 8, 8) + ", {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024},"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"},"
                + "{\"value\": 256, \"type\": \"u16\"}, {\"value\": 0, \"type\": \"u16\"}, {\"value\": 256, \"type\": \"s32\"}],"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 240, \"init\": \"iota\"}]";
        LaunchedRun r = run("tma_im2col4d", json, 1);
        assertEquals(List.of("tensor-im2col-range"), codes(r), r.summary());
        assertTrue(r.summary().contains("beyond the 8 bits"), r.summary());
    }

    @Test
    void anIm2colCopyThroughATileModeMapIsATensorMapDiagnostic() throws Exception {
        String json = "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [8, 6, 5, 1], \"box\": [8, 4, 2, 1]}},"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024},"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"},"
                + "{\"value\": 0, \"type\": \"u16\"}, {\"value\": 0, \"type\": \"u16\"}, {\"value\": 256, \"type\": \"s32\"}],"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 240, \"init\": \"iota\"}]";
        LaunchedRun r = run("tma_im2col4d", json, 1);
        assertEquals(List.of("tensor-map-invalid"), codes(r), r.summary());
        assertTrue(r.summary().contains("hold a tile-mode tensor map, not the im2col map"), r.summary());
    }

    /** The load error of a launch whose im2col map has {@code fields}; asserts it is located where {@code before} ends on line 2. */
    private static String refusal(String fields, String before) {
        String line2 = "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"mode\": \"im2col\", " + fields + "}},";
        String json = line2 + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024},"
                + "{\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"},"
                + "{\"value\": 0, \"type\": \"u16\"}, {\"value\": 0, \"type\": \"u16\"}, {\"value\": 256, \"type\": \"s32\"}],"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 240, \"init\": \"iota\"}]";
        String m = assertThrows(Exception.class, () -> run("tma_im2col4d", json, 1)).getMessage();
        int col = line2.indexOf(before) + before.length() + 1;
        assertTrue(line2.contains(before) && m.contains("t.json:2:" + col + ": error"), "located at 2:" + col + ": " + m);
        return m;
    }

    @Test
    void theLaunchFilesIm2colFieldsAreCheckedAtTheirLocation() {
        String ok = "\"dims\": [8, 6, 5, 1], \"channelsPerPixel\": 8, \"pixelsPerColumn\": 8, ";
        String m = refusal(ok + "\"lowerCorner\": [-1, -200], \"upperCorner\": [0, 0]", "\"lowerCorner\": [-1, ");
        assertTrue(m.contains("expected an integer from -128 to 127"), m);
        m = refusal(ok + "\"lowerCorner\": [-1], \"upperCorner\": [0, 0]", "\"lowerCorner\": ");
        assertTrue(m.contains("expected an array of 2 integers"), m);
        m = refusal(ok + "\"lowerCorner\": [0, 0], \"upperCorner\": [-6, 0]", "\"upperCorner\": [");
        assertTrue(m.contains("bounding box of dimension 1 is empty"), m);
        m = refusal("\"dims\": [8, 6, 5, 1], \"channelsPerPixel\": 8, \"lowerCorner\": [0, 0], \"upperCorner\": [0, 0]", "\"tensorMap\": ");
        assertTrue(m.contains("needs \"pixelsPerColumn\""), m);
        m = refusal(ok + "\"lowerCorner\": [0, 0], \"upperCorner\": [0, 0], \"box\": [8, 8, 1, 1]", "\"box\": ");
        assertTrue(m.contains("an im2col tensorMap has no \"box\""), m);
        m = refusal("\"dims\": [8, 6, 5, 1], \"channelsPerPixel\": 2, \"pixelsPerColumn\": 8, \"lowerCorner\": [0, 0], \"upperCorner\": [0, 0]",
                "\"channelsPerPixel\": ");
        assertTrue(m.contains("multiple of 16 bytes"), m);
        m = refusal("\"dims\": [80, 3], \"channelsPerPixel\": 8, \"pixelsPerColumn\": 8, \"lowerCorner\": [], \"upperCorner\": []", "\"dims\": ");
        assertTrue(m.contains("an im2col tensorMap has 3 to 5 dimensions"), m);
    }

    @Test
    void anInterleavedIm2colMapMeetsTheDriversRulesFirstAndIsThenRefusedAsNotModelled() {
        String ok = "\"dims\": [8, 6, 5, 1], \"channelsPerPixel\": 8, \"pixelsPerColumn\": 8, \"lowerCorner\": [0, 0], \"upperCorner\": [0, 0], ";
        // The driver refuses 32B interleave without a 32B swizzle: its reason, at the swizzle.
        String m = refusal(ok + "\"interleave\": \"32B\", \"swizzle\": \"64B\"", "\"swizzle\": ");
        assertTrue(m.contains("with interleave 32B the swizzle must be 32B"), m);
        // A map the driver accepts (16B interleave; channels need not span 16 bytes with interleave): not modelled, at the interleave.
        m = refusal("\"dims\": [4, 6, 5, 1], \"channelsPerPixel\": 2, \"pixelsPerColumn\": 8, \"lowerCorner\": [0, 0], \"upperCorner\": [0, 0], "
                + "\"interleave\": \"16B\"", "\"interleave\": ");
        assertTrue(m.contains("interleaved im2col tensorMaps are not modelled") && m.contains("chunk dimension"), m);
    }

    @Test
    void anIm2colMapRoundTripsThroughItsBytesAndATileMapsBytesAreUnchanged() {
        TensorMap tile = new TensorMap(4, 0x1000, 4, new long[] {8, 6, 5, 2}, new long[] {32, 192, 960}, new int[] {8, 4, 2, 1});
        assertNull(TensorMap.decode(tile.encode()).im2col());
        assertEquals(0, tile.encode()[126], "a tile map's flags stay 0");
        TensorMap im = new TensorMap(4, 0x1000, 4, new long[] {8, 6, 5, 2}, new long[] {32, 192, 960}, new int[] {8, 640, 1, 1}, 128,
                new int[] {1, 2, 2, 1}, 0, true, null, new TensorMap.Im2col(new int[] {-1, -3}, new int[] {-2, 4}));
        TensorMap back = TensorMap.decode(im.encode());
        assertNotNull(back);
        assertEquals(List.of(-1, -3), java.util.Arrays.stream(back.im2col().lower()).boxed().toList());
        assertEquals(List.of(-2, 4), java.util.Arrays.stream(back.im2col().upper()).boxed().toList());
        assertEquals(640, back.pixelsPerColumn());
        assertEquals(8, back.channelsPerPixel());
        assertEquals(8L * 640 * 4, back.boxBytes());
        assertTrue(back.oobNan());
        assertEquals(128, back.swizzle());
    }

    @Test
    void anIm2colMapOfALaunchFileRoundTripsThroughTheCanonicalLaunchJson() throws Exception {
        Conv cv = new Conv(2, new int[] {7, 7}, 4, new int[] {1, 1}, new int[] {3, 3}, new int[] {2, 2});
        String json = "{\"ptx\": \"tma_im2col.ptx\", \"kernel\": \"tma_im2col4d\", \"args\": [" + cv.map(", \"swizzle\": \"64B\"", 4, 32)
                + ", {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 1024}], \"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 392}]}";
        Path dir = Path.of(TmaIm2colTest.class.getResource("/ptx-corpus/tma_im2col.ptx").toURI()).getParent();
        LaunchSpec s = LaunchValidation.checkJson(dir.resolve("a.json"), json);
        String canonical = io.barrierscope.launch.LaunchSpecJson.write(s, "round-robin", 0, 1000);
        LaunchSpec again = LaunchValidation.checkJson(dir.resolve("b.json"), canonical);
        assertEquals(s.args().get(0).tensorMap(), again.args().get(0).tensorMap());
        assertEquals(List.of(-1, -1), again.args().get(0).tensorMap().im2col().lowerCorner());
        assertEquals(List.of(4, 32), again.args().get(0).tensorMap().box());
    }
}
