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
 * TMA tensor maps with swizzle none/32B/64B/128B (the launch file's {@code "swizzle"}; the CUDA
 * driver's CU_TENSOR_MAP_SWIZZLE_*): tma_swizzle.cu (nvcc PTX) loads one box and dumps its shared
 * tile; the reference here places each element by the swizzle atoms as the CUDA documentation
 * draws them.
 */
class TmaSwizzleTest {
    /**
     * Where byte {@code off} of the dense box lands: shared memory is a stack of 128-byte lines of
     * eight 16-byte chunks. With swizzle S, the chunks of a line form groups of S/16; inside its
     * group, a chunk's position is XORed with the line number modulo S/16 (128B: the eight chunks
     * of line L permuted by XOR with L mod 8; the pattern repeats every 8 lines).
     */
    static int place(int off, int swizzleBytes) {
        if (swizzleBytes == 0) return off;
        int line = off / 128;
        int chunk = (off % 128) / 16;
        int n = swizzleBytes / 16;
        int group = chunk / n;
        int within = (chunk % n) ^ (line % n);
        return line * 128 + (group * n + within) * 16 + off % 16;
    }

    private static LaunchedRun run(String swizzle, int boxX, int boxY, int c0, int c1) throws Exception {
        Path ptx = Path.of(TmaSwizzleTest.class.getResource("/ptx-corpus/tma_swizzle.ptx").toURI());
        String sw = swizzle == null ? "" : ", \"swizzle\": \"" + swizzle + "\"";
        String json = "{\"ptx\": \"tma_swizzle.ptx\", \"kernel\": \"tma_swizzle\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n"
                + "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [40, 24], \"box\": [" + boxX + ", " + boxY + "]" + sw + "}},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"},\n"
                + "{\"value\": " + c0 + ", \"type\": \"s32\"}, {\"value\": " + c1 + ", \"type\": \"s32\"}, {\"value\": " + boxX * boxY * 4
                + ", \"type\": \"s32\"}],\n\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 960, \"init\": \"iota\"}]}";
        LaunchSpec spec = LaunchValidation.checkJson(ptx.resolveSibling("tma_swizzle.json"), json);
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        return r;
    }

    private static void check(String swizzle, int bytes, int boxX, int boxY, int c0, int c1) throws Exception {
        LaunchedRun r = run(swizzle, boxX, boxY, c0, c1);
        int[] want = new int[256];
        for (int y = 0; y < boxY; y++) {
            for (int x = 0; x < boxX; x++) {
                int gx = c0 + x;
                int gy = c1 + y;
                int v = gx < 40 && gy < 24 ? gy * 40 + gx : 0; // out of bounds: zero fill
                want[place((y * boxX + x) * 4, bytes) / 4] = v;
            }
        }
        for (int i = 0; i < 256; i++) {
            assertEquals(want[i], r.buffers().get("out").get(i).intValue(), "swizzle " + swizzle + " box " + boxX + "x" + boxY + " int " + i);
        }
    }

    @Test
    void noSwizzleLaysTheBoxOutDensely() throws Exception {
        check(null, 0, 32, 8, 4, 2);
        check("none", 0, 32, 8, 4, 2);
    }

    @Test
    void swizzle128BPermutesTheChunksOfEachLineByItsIndex() throws Exception {
        check("128B", 128, 32, 8, 0, 0);
        check("128B", 128, 32, 8, 20, 20); // partly outside: the zero fill is swizzled too
    }

    @Test
    void swizzle64BAnd32B() throws Exception {
        check("64B", 64, 16, 16, 3, 1);
        check("32B", 32, 8, 32, 0, 5);
    }

    @Test
    void aBoxWiderThanTheSwizzleSpanIsRefusedInTheLaunchFile() {
        Exception e = assertThrows(Exception.class, () -> run("64B", 32, 8, 0, 0));
        assertTrue(e.getMessage().contains("swizzle 64B") && e.getMessage().contains("box"), e.getMessage());
    }

    @Test
    void anUnknownSwizzleIsRefusedInTheLaunchFile() {
        Exception e = assertThrows(Exception.class, () -> run("256B", 32, 8, 0, 0));
        assertTrue(e.getMessage().contains("unknown swizzle '256B'"), e.getMessage());
    }
}
