package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.Space;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Launch-file struct parameters (a {@code .param .align A .b8 name[N]} blob described by fields)
 * and what launch bundles add: buffers at fixed addresses with exact bytes, and module state.
 * The kernel is nvcc's PTX of resources/launch/struct_param.cu.
 */
class StructParamLaunchTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void ptx() throws Exception {
        Files.copy(Path.of("src/test/resources/launch/struct_param.ptx"), tmp.resolve("k.ptx"));
    }

    private Path launch(String args, String buffers, String extra) throws Exception {
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": 1, \"block\": 32,\n \"args\": [" + args + "],\n \"buffers\": [" + buffers + "]"
                + extra + "}");
        return l;
    }

    private static final String FIELDS = "{\"struct\": {\"bytes\": 24, \"fields\": [\n"
            + " {\"offset\": 0, \"pointer\": \"in\"}, {\"offset\": 8, \"pointer\": \"out\", \"plus\": 8},\n"
            + " {\"offset\": 16, \"type\": \"s32\", \"value\": 20}, {\"offset\": 20, \"type\": \"f32\", \"value\": 3.0}]}}";
    private static final String BUFFERS = "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 32, \"init\": \"iota\"},"
            + " {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 32}";

    @Test
    void aStructParameterIsBuiltFromPointerAndScalarFieldsAtTheirOffsets() throws Exception {
        LaunchedRun r = LaunchValidation.validate(launch(FIELDS, BUFFERS, "")).start();
        assertEquals(Outcome.COMPLETED, r.runToEnd());
        List<Number> out = r.buffers().get("out");
        // out was passed 8 bytes (two ints) in: element k+2 holds in[k] * 3 for the first 20.
        for (int k = 0; k < 20; k++) assertEquals(3L * k, out.get(k + 2).longValue(), "out[" + (k + 2) + "]");
        assertEquals(0L, out.get(0).longValue());
    }

    @Test
    void aStructOfTheWrongSizeIsRefusedAtItsPlaceInTheLaunchFile() throws Exception {
        Path l = launch("{\"struct\": {\"bytes\": 16}}", BUFFERS, "");
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
        assertTrue(e.contains("launch.json:2:22:") && e.contains("is a struct of 16 bytes but parameter _Z10scale_copy6Params_param_0 has 24 bytes"), e);
    }

    @Test
    void aFieldPastTheEndOfTheStructIsRefused() throws Exception {
        Path l = launch("{\"struct\": {\"bytes\": 24, \"fields\": [{\"offset\": 20, \"pointer\": \"in\"}]}}", BUFFERS, "");
        String e = assertThrows(BadInputException.class, () -> LaunchJsonChecks.read(l)).getMessage();
        assertTrue(e.contains("a 8-byte field at offset 20 does not fit the 24-byte struct"), e);
    }

    @Test
    void aScalarFieldValueMustFitItsTypeExactlyNotBeTruncated() throws Exception {
        for (String v : new String[] {"2.5", "1099511627776", "1e-99999"}) {
            Path l = launch("{\"struct\": {\"bytes\": 24, \"fields\": [{\"offset\": 16, \"type\": \"s32\", \"value\": " + v + "}]}}",
                    BUFFERS, "");
            String e = assertThrows(BadInputException.class, () -> LaunchJsonChecks.read(l), v).getMessage();
            assertTrue(e.contains("launch.json:2:") && (e.contains("takes integers") || e.contains("outside the range of .s32")), e);
        }
    }

    @Test
    void aFieldPointingToAnUnknownBufferIsRefused() throws Exception {
        Path l = launch("{\"struct\": {\"fields\": [{\"offset\": 0, \"pointer\": \"nowhere\"}]}}", BUFFERS, "");
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
        assertTrue(e.contains("field points to buffer 'nowhere'"), e);
    }

    @Test
    void exactBytesAtFixedAddressesReproduceRawParameterBytes() throws Exception {
        long in = Space.GLOBAL_BASE + 0x10000;
        long out = Space.GLOBAL_BASE + 0x20000;
        byte[] inBytes = new byte[32 * 4];
        for (int i = 0; i < 32; i++) inBytes[4 * i] = (byte) (i + 1);
        java.nio.ByteBuffer p = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        p.putLong(in).putLong(out).putInt(32).putFloat(2f);
        Files.write(tmp.resolve("in.bin"), inBytes);
        String args = "{\"struct\": {\"base64\": \"" + Base64.getEncoder().encodeToString(p.array()) + "\"}}";
        String buffers = "{\"buffer\": \"in\", \"type\": \"s32\", \"address\": \"0x" + Long.toHexString(in) + "\", \"file\": \"in.bin\"},"
                + " {\"buffer\": \"out\", \"type\": \"u8\", \"address\": " + out + ", \"base64\": \"" + Base64.getEncoder().encodeToString(new byte[128]) + "\"}";
        LaunchedRun r = LaunchValidation.validate(launch(args, buffers, "")).start();
        assertEquals(Outcome.COMPLETED, r.runToEnd());
        byte[] got = r.machine().memory.global.byName("out").data();
        for (int i = 0; i < 32; i++) assertEquals(2 * (i + 1), got[4 * i], "out[" + i + "]");
    }

    @Test
    void fixedAddressesMustAscend() throws Exception {
        String buffers = "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 32, \"address\": \"0x" + Long.toHexString(Space.GLOBAL_BASE + 0x20000) + "\"},"
                + " {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 32, \"address\": \"0x" + Long.toHexString(Space.GLOBAL_BASE + 0x10000) + "\"}";
        Path l = launch(FIELDS, buffers, "");
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
        assertTrue(e.contains("overlaps the module's globals or an earlier buffer"), e);
    }

    @Test
    void aGlobalBaseOutsideDeviceGlobalMemoryIsRefusedAtItsPlaceNotAtTheKernelName() throws Exception {
        for (String base : List.of("0", "\"0x8000000000\"", "\"0x" + Long.toHexString(Space.SHARED_WINDOW) + "\"")) {
            Path l = launch(FIELDS, BUFFERS, ",\n \"globalBase\": " + base);
            String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l)).getMessage();
            assertTrue(e.contains("launch.json:6:16:") && e.contains("\"globalBase\" must lie in device global memory"), e);
        }
    }

    @Test
    void aFixedAddressWhoseBytesReachPastGlobalMemoryIsRefusedNotWrappedPast2To63() throws Exception {
        for (long at : List.of(Long.MAX_VALUE, 0x7fff_ffff_ffff_f000L, Space.SHARED_WINDOW - 64)) {
            String buffers = "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 32, \"init\": \"iota\"},"
                    + " {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 32, \"address\": \"0x" + Long.toHexString(at) + "\"}";
            Path l = launch(FIELDS, buffers, "");
            String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l)).getMessage();
            assertTrue(e.contains("launch.json:5:") && e.contains("(128 bytes) reaches past 0xffffffffffff"), e);
        }
        // The last 128 bytes below the windows are device global memory still.
        String buffers = "{\"buffer\": \"in\", \"type\": \"s32\", \"count\": 32, \"init\": \"iota\"},"
                + " {\"buffer\": \"out\", \"type\": \"s32\", \"count\": 32, \"address\": \"0x" + Long.toHexString(Space.SHARED_WINDOW - 128) + "\"}";
        LaunchValidation.validate(launch(FIELDS, buffers, ""));
    }

    @Test
    void aStructLaunchSurvivesTheCanonicalJsonATraceCarries() throws Exception {
        LaunchSpec s = LaunchJsonChecks.read(launch(FIELDS, BUFFERS, ", \"globalBase\": \"0x" + Long.toHexString(Space.GLOBAL_BASE) + "\""));
        String json = LaunchSpecJson.write(s, "round-robin", 0, 1000);
        LaunchSpec again = LaunchJsonChecks.readText(tmp.resolve("again.json"), json);
        assertEquals(LaunchSpecJson.write(again, "round-robin", 0, 1000), json);
        assertTrue(again.args().get(0).isStruct());
        assertEquals(4, again.args().get(0).extras().struct().fields().size());
        assertEquals(Space.GLOBAL_BASE, again.device().globalBase());
    }
}
