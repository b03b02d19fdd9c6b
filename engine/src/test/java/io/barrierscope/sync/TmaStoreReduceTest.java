package io.barrierscope.sync;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * TMA tensor stores and reductions shared::cta -> global in bulk groups (PTX ISA 9.7.9.25.5.2,
 * 9.7.9.25.5.3), plain bulk reductions (9.7.9.25.4.2) and the prefetch forms, on nvcc PTX
 * (tma_modes.cu). The references are computed here from the kernels' tile formulas.
 */
class TmaStoreReduceTest {
    private static final int W = 40, H = 24, BX = 32, BY = 8, C0 = 20, C1 = 20;

    private static LaunchedRun launch(String kernel, String json, Outcome want) throws Exception {
        Path ptx = Path.of(TmaStoreReduceTest.class.getResource("/ptx-corpus/tma_modes.ptx").toURI());
        LaunchSpec spec = LaunchValidation.checkJson(ptx.resolveSibling("t.json"), "{\"ptx\": \"tma_modes.ptx\", \"kernel\": \"" + kernel + "\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n" + json + "}");
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(want, r.interpreter().outcome(), r.summary());
        return r;
    }

    /** A box of 32 x 8 at (20, 20) over a 40 x 24 tensor of {@code type} (iota): its lower right part lies outside. */
    private static LaunchedRun tensorKernel(String kernel, String type, String swizzle, Outcome want) throws Exception {
        return launch(kernel, "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [" + W + ", " + H + "], \"box\": [" + BX + ", " + BY + "]"
                + (swizzle == null ? "" : ", \"swizzle\": \"" + swizzle + "\"") + "}},\n"
                + "{\"value\": " + C0 + ", \"type\": \"s32\"}, {\"value\": " + C1 + ", \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"" + type + "\", \"count\": " + W * H + ", \"init\": \"iota\"}]", want);
    }

    private static long t(LaunchedRun r, int i) { return r.buffers().get("t").get(i).longValue(); }

    /** Runs a tensor-writing kernel and compares every tensor element with {@code f(old, shared value)} inside the box, old outside. */
    private static void checkBox(LaunchedRun r, java.util.function.LongBinaryOperator f, java.util.function.IntUnaryOperator shared, int swizzle) {
        for (int gy = 0; gy < H; gy++) {
            for (int gx = 0; gx < W; gx++) {
                long old = gy * W + gx;
                int x = gx - C0;
                int y = gy - C1;
                long want = old;
                if (x >= 0 && x < BX && y >= 0 && y < BY) {
                    int n = y * BX + x; // element n of the dense box; where it sits in the shared tile depends on the swizzle
                    int sharedIndex = TmaSwizzleTest.place(n * 4, swizzle) / 4;
                    want = f.applyAsLong(old, shared.applyAsInt(sharedIndex));
                }
                assertEquals(want, t(r, gy * W + gx), "element (" + gx + ", " + gy + ")");
            }
        }
    }

    @Test
    void aTensorStoreWritesTheBoxAndNothingOutsideTheTensor() throws Exception {
        LaunchedRun r = tensorKernel("tma_store2d", "s32", null, Outcome.COMPLETED);
        checkBox(r, (old, v) -> v, i -> 1000 + i, 0);
    }

    @Test
    void aTensorStoreReadsSharedMemoryThroughTheSwizzle() throws Exception {
        LaunchedRun r = tensorKernel("tma_store2d", "s32", "128B", Outcome.COMPLETED);
        checkBox(r, (old, v) -> v, i -> 1000 + i, 128);
    }

    private static long u(long v) { return v & 0xFFFFFFFFL; }

    @Test
    void tensorReductionsOnSigned32BitElements() throws Exception {
        checkBox(tensorKernel("tma_reduce_add", "s32", null, Outcome.COMPLETED), (o, v) -> (int) (o + v), i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_min", "s32", null, Outcome.COMPLETED), (o, v) -> Math.min(o, v), i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_max", "s32", null, Outcome.COMPLETED), (o, v) -> Math.max(o, v), i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_and", "s32", null, Outcome.COMPLETED), (o, v) -> (int) (o & v), i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_or", "s32", null, Outcome.COMPLETED), (o, v) -> (int) (o | v), i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_xor", "s32", null, Outcome.COMPLETED), (o, v) -> (int) (o ^ v), i -> i - 100, 0);
    }

    @Test
    void tensorIncAndDecOnUnsigned32BitElementsWrapAtTheSourceValue() throws Exception {
        // inc: old >= src ? 0 : old + 1; dec: old == 0 || old > src ? src : old - 1 (unsigned; the tile holds i - 100).
        checkBox(tensorKernel("tma_reduce_inc", "u32", null, Outcome.COMPLETED),
                (o, v) -> Long.compareUnsigned(o, u(v)) >= 0 ? 0 : o + 1, i -> i - 100, 0);
        checkBox(tensorKernel("tma_reduce_dec", "u32", null, Outcome.COMPLETED),
                (o, v) -> o == 0 || o > u(v) ? u(v) : o - 1, i -> i - 100, 0);
    }

    @Test
    void aTensorReductionTheIsaDoesNotListForTheMapsTypeIsADiagnostic() throws Exception {
        LaunchedRun r = tensorKernel("tma_reduce_inc", "s32", null, Outcome.DIAGNOSED);
        assertTrue(r.summary().contains("tensor-map-invalid") && r.summary().contains("no .inc for a tensor of .s32"), r.summary());
    }

    @Test
    void aPlainBulkReductionAddsSharedMemoryIntoGlobalMemory() throws Exception {
        LaunchedRun r = launch("bulk_reduce_add", "\"args\": [{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 256, \"init\": \"iota\"}]",
                Outcome.COMPLETED);
        for (int i = 0; i < 256; i++) assertEquals(i + 3 * i + 1, r.buffers().get("out").get(i).intValue(), "element " + i);
    }

    @Test
    void aPlainBulkReductionIntoSharedClusterMemoryCompletesOnTheMbarrier() throws Exception {
        LaunchedRun r = launch("bulk_reduce_shared", "\"args\": [{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 256, \"init\": \"zero\"}]",
                Outcome.COMPLETED);
        for (int i = 0; i < 256; i++) assertEquals(Math.min(7 * i, i), r.buffers().get("out").get(i).intValue(), "element " + i);
    }

    @Test
    void thePrefetchFormsRunAndChangeNoMemory() throws Exception {
        LaunchedRun r = launch("tma_prefetch", "\"args\": [{\"tensorMap\": {\"buffer\": \"in\", \"dims\": [16, 16], \"box\": [8, 8]}},\n"
                + "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 256, \"init\": \"iota\"},\n"
                + "{\"buffer\": \"out\", \"type\": \"s32\", \"count\": 256, \"init\": \"zero\"}]", Outcome.COMPLETED);
        for (int i = 0; i < 256; i++) {
            assertEquals(i, r.buffers().get("in").get(i).intValue());
            assertEquals(i, r.buffers().get("out").get(i).intValue());
        }
    }

    /**
     * End to end: tma_store.json (nvcc PTX of tma_modes.cu) writes a tile to shared memory, fences
     * it for the async proxy and stores it with 128B swizzle; its expect block (computed apart from
     * the engine) is met bit for bit under every policy and several seeds, race detection on.
     */
    @Test
    void theTmaStoreLaunchMeetsItsExpectBlockUnderEveryPolicy() throws Exception {
        Path launch = Path.of(TmaStoreReduceTest.class.getResource("/ptx-corpus/tma_store.json").toURI());
        for (String policy : java.util.List.of("round-robin", "random", "adversarial")) {
            for (long seed = 0; seed < 4; seed++) {
                LaunchedRun r = LaunchValidation.validate(launch).start(policy, seed);
                r.runToEnd();
                assertEquals(java.util.List.of(), r.expectDifferences(), policy + " seed " + seed + "\n" + r.summary());
            }
        }
    }

    /**
     * The store reads its shared source when it completes: a thread overwriting the source before
     * {@code cp.async.bulk.wait_group.read} races with the copy (tma_modes.cu's store kernel with
     * one store moved before the wait; the unmodified kernel runs race-free above).
     */
    @Test
    void overwritingTheSourceOfATensorStoreBeforeItsReadWaitIsARace(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String ptx = java.nio.file.Files.readString(Path.of(TmaStoreReduceTest.class.getResource("/ptx-corpus/tma_modes.ptx").toURI()));
        String wait = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r1, %r2}], [%r6];";
        assertTrue(ptx.contains(wait));
        java.nio.file.Files.writeString(dir.resolve("racy.ptx"), ptx.replace(wait, wait + "\n\tst.shared.u32 [%r6], 7;"));
        LaunchSpec spec = LaunchValidation.checkJson(dir.resolve("t.json"), "{\"ptx\": \"racy.ptx\", \"kernel\": \"tma_store2d\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n"
                + "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [40, 24], \"box\": [32, 8]}},"
                + " {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"}],\n"
                + "\"buffers\": [{\"buffer\": \"t\", \"type\": \"s32\", \"count\": 960, \"init\": \"iota\"}]}");
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
        assertTrue(r.summary().contains("race"), r.summary());
    }

    /**
     * cp.async.bulk.wait_group.read orders the store's source reads only (PTX ISA 9.7.9.25.6.2): the
     * storing thread reading the tensor's global memory after it (tma_modes.cu's store kernel given the
     * tensor's buffer too) races with the store's write; after the plain wait_group it does not.
     */
    @Test
    void readingTheDestinationOfATensorStoreAfterOnlyItsReadWaitIsARace(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String ptx = java.nio.file.Files.readString(Path.of(TmaStoreReduceTest.class.getResource("/ptx-corpus/tma_modes.ptx").toURI()));
        String param = ".param .u32 tma_store2d_param_2\n)";
        String waits = "cp.async.bulk.wait_group.read 0;\n\t// end inline asm\n\t.loc\t1 53 9\n\t// begin inline asm\n\tcp.async.bulk.wait_group 0;";
        assertTrue(ptx.contains(param) && ptx.contains(waits));
        String load = "ld.param.u64 %rd3, [tma_store2d_param_3];\n\tcvta.to.global.u64 %rd3, %rd3;\n\tld.global.u32 %r8, [%rd3];\n\t";
        ptx = ptx.replace(param, ".param .u32 tma_store2d_param_2,\n\t.param .u64 tma_store2d_param_3\n)");
        java.nio.file.Files.writeString(dir.resolve("read.ptx"), ptx.replace(waits, "cp.async.bulk.wait_group.read 0;\n\t" + load + "cp.async.bulk.wait_group 0;"));
        java.nio.file.Files.writeString(dir.resolve("plain.ptx"), ptx.replace(waits, "cp.async.bulk.wait_group.read 0;\n\tcp.async.bulk.wait_group 0;\n\t" + load));
        for (String f : List.of("read", "plain")) {
            LaunchSpec spec = LaunchValidation.checkJson(dir.resolve(f + ".json"), "{\"ptx\": \"" + f + ".ptx\", \"kernel\": \"tma_store2d\", \"grid\": [1, 1, 1], \"block\": [256, 1, 1],\n"
                    + "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [40, 24], \"box\": [32, 8]}},"
                    + " {\"value\": 0, \"type\": \"s32\"}, {\"value\": 0, \"type\": \"s32\"},"
                    + " {\"buffer\": \"t\", \"type\": \"s32\", \"count\": 960, \"init\": \"iota\"}]}");
            LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
            r.runToEnd();
            if (f.equals("plain")) {
                assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
            } else {
                assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
                assertTrue(r.summary().contains("race") && r.summary().contains("without .read"), r.summary());
            }
        }
    }
}
