package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launch's grid, block and cluster are CUDA's unsigned dimensions, checked against CUDA's limits
 * (cudaErrorInvalidConfiguration, named) before anything runs: read as ints, {@code dim3(0xFFFFFFFF)}
 * was a negative grid and a block of (0xFFFFFFFF, 0xFFFFFFFF, 1) a block of one thread, which passed
 * the checks. A grid of 65536 in z (a GPU refuses it too) was blamed on the emulator's thread limit.
 */
class LaunchShapeTest {
    @TempDir
    static Path bundles;

    private final StringWriter err = new StringWriter();
    /** A launch that fails writes its bundle into a temporary folder, not the working directory. */
    private final DeviceSession session = new DeviceSession(LaunchOptions.defaults().withBundles(bundles, false),
            new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    private boolean loaded;

    private static ByteBuffer le(int n) { return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN); }

    private static byte[] string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return le(4 + b.length).putInt(b.length).put(b).array();
    }

    private int handle(int op, byte[] payload) {
        return session.handle(new RuntimeProtocol.Request(op, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN)), 1).status();
    }

    /** The status of a launch of HostMirrorsTest's kernel with these nine dimensions (grid, block, cluster), storing at {@code p}. */
    private int launch(int... dims) { return launchAt(0, dims); }

    private int launchAt(long p, int... dims) {
        if (!loaded) assertEquals(CudaError.SUCCESS, handle(RuntimeProtocol.MODULE, string(HostMirrorsTest.PTX)));
        loaded = true;
        byte[] entry = string("put");
        ByteBuffer b = le(4 + entry.length + 11 * 4 + 12).putInt(0).put(entry);
        for (int d : dims) b.putInt(d);
        b.putInt(0).putInt(0).putLong(p).putInt(0);
        return handle(RuntimeProtocol.LAUNCH, b.array());
    }

    @Test
    void dimensionsPastCudasLimitsAreRefusedAsAnInvalidConfigurationNotReadAsNegativeInts() {
        int[][] bad = {
            {-1, 1, 1, 1, 1, 1, 0, 0, 0}, // grid x 2^32-1
            {1 << 31, 1, 1, 1, 1, 1, 0, 0, 0}, // grid x 2^31
            {1, 1, 65536, 32, 1, 1, 0, 0, 0}, // grid z 65536
            {1, 65536, 1, 32, 1, 1, 0, 0, 0},
            {1, 1, 1, -1, -1, 1, 0, 0, 0}, // a block whose product as ints is 1
            {1, 1, 1, 1, 1, 65, 0, 0, 0},
            {1, 1, 1, 1025, 1, 1, 0, 0, 0},
            {2, 1, 1, 1, 1, 1, -1, -1, 1}, // a cluster whose product as ints is 1
            {2, 1, 1, 1, 1, 1, 2, 0, 1},
        };
        for (int[] d : bad) {
            assertEquals(CudaError.INVALID_CONFIGURATION, launch(d), java.util.Arrays.toString(d) + "\n" + err);
        }
        String said = err.toString();
        assertTrue(said.contains("grid (4294967295,1,1): CUDA takes 1 to 2147483647 CTAs in x and 1 to 65535 in y and z"), said);
        assertTrue(said.contains("grid (1,1,65536): CUDA takes"), said);
        assertTrue(said.contains("block (4294967295,4294967295,1): CUDA takes 1 to 1024 threads per block"), said);
        assertTrue(said.contains("cluster (4294967295,4294967295,1): a cluster has 1 to 16 CTAs"), said);
    }

    /** A "Blocks as Clusters" entry (what nvcc emits for __block_size__((32,1,1), (1,2,1))): its grid counts clusters. */
    private static final String PAIRS = """
            .version 8.0
            .target sm_90a
            .address_size 64
            .visible .entry pairs()
            .blocksareclusters
            .reqntid 32, 1, 1
            .reqnctapercluster 1, 2, 1
            {
                ret;
            }
            """;

    @Test
    void aBlocksAsClustersGridIsCheckedAgainstCudasLimitsAsTheBlocksItRunsNotTheClustersItCounts() {
        DeviceSession.Reply m = session.handle(new RuntimeProtocol.Request(RuntimeProtocol.MODULE,
                ByteBuffer.wrap(string(PAIRS)).order(ByteOrder.LITTLE_ENDIAN)), 1);
        assertEquals(CudaError.SUCCESS, m.status(), err.toString());
        int module = ByteBuffer.wrap(m.payload()).order(ByteOrder.LITTLE_ENDIAN).getInt();
        byte[] entry = string("pairs");
        ByteBuffer b = le(4 + entry.length + 11 * 4).putInt(module).put(entry);
        for (int d : new int[] {1, 40000, 1, 32, 1, 1, 0, 0, 0}) b.putInt(d); // 40000 clusters of 2 in y: 80000 blocks
        b.putInt(0).putInt(0);
        assertEquals(CudaError.INVALID_CONFIGURATION, handle(RuntimeProtocol.LAUNCH, b.array()), err.toString());
        assertTrue(err.toString().contains("grid (1,80000,1): CUDA takes 1 to 2147483647 CTAs in x and 1 to 65535 in y and z"), err.toString());
    }

    @Test
    void shapesAtCudasLimitsPassTheShapeCheck() {
        assertNull(KernelLaunch.shapeOutsideCuda(new int[] {Integer.MAX_VALUE, 65535, 65535, 1024, 1, 1, 0, 0, 0}));
        assertNull(KernelLaunch.shapeOutsideCuda(new int[] {16, 1, 1, 1, 1, 64, 16, 1, 1}));
        byte[] name = string("cudaMalloc");
        ByteBuffer m = le(8 + name.length).putLong(64).put(name);
        DeviceSession.Reply r = session.handle(new RuntimeProtocol.Request(RuntimeProtocol.MALLOC, ByteBuffer.wrap(m.array()).order(ByteOrder.LITTLE_ENDIAN)), 1);
        long a = ByteBuffer.wrap(r.payload()).order(ByteOrder.LITTLE_ENDIAN).getLong();
        assertEquals(CudaError.SUCCESS, launchAt(a, 1, 1, 1, 1, 1, 1, 0, 0, 0), err.toString());
    }
}
