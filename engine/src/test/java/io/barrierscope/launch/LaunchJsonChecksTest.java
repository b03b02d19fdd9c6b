package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.ptx.ScalarType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launch files (README, "Command line"): defaults, every init, and located refusals. */
class LaunchJsonChecksTest {
    @TempDir
    Path tmp;

    private Path write(String json) throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, json);
        return l;
    }

    private String error(String json) throws Exception {
        Path l = write(json);
        return assertThrows(BadInputException.class, () -> LaunchJsonChecks.read(l)).getMessage();
    }

    @Test
    void pathsAreRelativeToTheLaunchFileAndDefaultsApply() throws Exception {
        LaunchSpec s = LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\"}"));
        assertEquals(tmp.resolve("k.ptx").toAbsolutePath(), s.ptx());
        assertEquals(1, s.grid().volume());
        assertEquals(32, s.block().volume());
        assertEquals("round-robin", s.policy());
        assertEquals(LaunchSpec.DEFAULT_MAX_STEPS, s.maxSteps());
    }

    @Test
    void runSettingsAreRead() throws Exception {
        LaunchSpec s = LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"run\": {\"policy\": \"random\", \"seed\": 7, \"maxSteps\": 99}}"));
        assertEquals("random", s.policy());
        assertEquals(7, s.seed());
        assertEquals(99, s.maxSteps());
    }

    @Test
    void aLatencyIsAFixedNumberOfCyclesOrARange() throws Exception {
        assertEquals(null, LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\"}")).latency());
        assertEquals(new io.barrierscope.exec.AsyncLatency(500, 500),
                LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"run\": {\"latency\": 500}}")).latency());
        assertEquals(new io.barrierscope.exec.AsyncLatency(20, 900),
                LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"run\": {\"latency\": {\"min\": 20, \"max\": 900}}}")).latency());
    }

    @Test
    void aLatencyRangeUpsideDownIsRefusedAtItsLine() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"run\": {\"latency\":\n {\"min\": 90, \"max\": 20}}}");
        assertTrue(e.contains("launch.json:2:21") && e.contains("max 20 is below min 90"), e);
        assertTrue(error("{\"ptx\": \"k.ptx\", \"run\": {\"latency\": 0}}").contains("outside"));
        assertTrue(error("{\"ptx\": \"k.ptx\", \"run\": {\"latency\": {\"min\": 5}}}").contains("both"));
    }

    @Test
    void initFillsBuffersAsNamed() {
        assertEquals(List.of(0L, 1L, 2L, 3L), BufferCodec.decode(BufferCodec.initial(new ArgSpec("b", ScalarType.S32, 4, "iota", null, null)), ScalarType.S32));
        assertEquals(List.of(0L, 0L), BufferCodec.decode(BufferCodec.initial(new ArgSpec("b", ScalarType.U16, 2, "zero", null, null)), ScalarType.U16));
        assertEquals(List.of(5L, -6L, 0L), BufferCodec.decode(BufferCodec.initial(new ArgSpec("b", ScalarType.S64, 3, "data", List.of(5L, -6L), null)), ScalarType.S64));
        assertEquals(List.of(1.5), BufferCodec.decode(BufferCodec.initial(new ArgSpec("b", ScalarType.F32, 1, "data", List.of(1.5), null)), ScalarType.F32));
    }

    @Test
    void randomInitIsDeterministicPerSeed() {
        ArgSpec a = new ArgSpec("b", ScalarType.U32, 64, "random:3", null, null);
        ArgSpec b = new ArgSpec("b", ScalarType.U32, 64, "random:4", null, null);
        assertEquals(BufferCodec.decode(BufferCodec.initial(a), ScalarType.U32), BufferCodec.decode(BufferCodec.initial(a), ScalarType.U32));
        assertTrue(!BufferCodec.decode(BufferCodec.initial(a), ScalarType.U32).equals(BufferCodec.decode(BufferCodec.initial(b), ScalarType.U32)));
    }

    @Test
    void anUnknownKeyIsRefusedAtItsLine() throws Exception {
        String e = error("{\n\"ptx\": \"k.ptx\",\n\"grdi\": [1]\n}");
        assertTrue(e.contains("launch.json:3:") && e.contains("unknown key \"grdi\""), e);
    }

    @Test
    void anUnknownElementTypeIsRefusedAtItsLine() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\",\n \"args\": [\n  {\"buffer\": \"a\", \"type\": \"i32\", \"count\": 4}]}");
        assertTrue(e.contains("launch.json:3:") && e.contains("unknown type 'i32'"), e);
    }

    @Test
    void aBufferWithoutCountOrDataIsRefused() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"a\", \"type\": \"u32\"}]}");
        assertTrue(e.contains("needs a \"count\""), e);
    }

    @Test
    void anOversizeBufferIsRefusedBeforeAllocating() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"a\", \"type\": \"u32\", \"count\": 99999999999}]}");
        assertTrue(e.contains("outside"), e);
    }

    @Test
    void aMissingPtxFileIsNamed() throws Exception {
        String e = error("{\"ptx\": \"nothere.ptx\"}");
        assertTrue(e.contains("nothere.ptx") && e.contains("does not exist"), e);
    }

    @Test
    void anUnknownExpectedOutcomeIsRefused() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"expect\": {\"outcome\": \"hang\"}}");
        assertTrue(e.contains("unknown outcome 'hang'"), e);
    }

    @Test
    void aRunningOrErrorOutcomeCannotBeExpected() throws Exception {
        assertTrue(error("{\"ptx\": \"k.ptx\", \"expect\": {\"outcome\": \"running\"}}").contains("unknown outcome 'running'"));
        assertTrue(error("{\"ptx\": \"k.ptx\", \"expect\": {\"outcome\": \"error\"}}").contains("unknown outcome 'error'"));
    }

    @Test
    void aMisspeltExpectedDiagnosticCodeIsRefusedAtItsLine() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\",\n \"expect\": {\"diagnostics\": [\n  \"barrier-divergance\"]}}");
        assertTrue(e.contains("launch.json:3:3") && e.contains("unknown diagnostic code 'barrier-divergance'"), e);
    }

    /** A launch with buffer {@code b} of {@code type}, expecting {@code value} as its element 1 on line 3. */
    private String expecting(String type, String value) {
        return "{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"" + type + "\", \"count\": 2}],\n"
                + " \"expect\": {\"buffers\": {\"b\": [\n  0, " + value + "]}}}";
    }

    @Test
    void anExpectedValueItsIntegerBufferCanNeverHoldIsRefusedAtItsLine() throws Exception {
        String[][] never = {{"u32", "0.5"}, {"u32", "4294967296"}, {"u32", "-1"}, {"s32", "2147483648"}, {"s32", "1e-400"},
            {"u8", "256"}, {"s8", "-129"}, {"u16", "65536"}, {"s16", "32768"}, {"u64", "-1"}, {"s32", "1E+400"}};
        for (String[] c : never) {
            String e = error(expecting(c[0], c[1]));
            assertTrue(e.contains("launch.json:3:6") && e.contains("expected value") && e.contains("buffer 'b'")
                    && e.contains("." + c[0] + " holds the integers"), c[0] + " " + c[1] + ": " + e);
        }
        assertTrue(error(expecting("u8", "256")).contains(".u8 holds the integers 0..255"));
        // Values of the type are taken, written however JSON allows.
        String[][] fine = {{"u32", "4294967295"}, {"s32", "-1"}, {"s32", "2.0"}, {"s32", "-0.0"}, {"u8", "255"}, {"s8", "-128"},
            {"u64", "18446744073709551615"}, {"f32", "0.5"}, {"f32", "1e39"}};
        for (String[] c : fine) LaunchJsonChecks.read(write(expecting(c[0], c[1])));
    }

    @Test
    void anExpectedBufferTheLaunchDoesNotHaveIsRefusedAtItsPlaceNotReportedNotMetAfterTheRun() throws Exception {
        // A misspelt name ran the whole launch to "expect: NOT met ... no such buffer in the launch" (exit 6).
        String launch = "{\"ptx\": \"k.ptx\", \"args\": [],\n\"buffers\": [{\"buffer\": \"out\", \"type\": \"u32\", \"count\": 2}],\n"
                + "\"expect\": {\"buffers\": {\"%s\": [1]}}}";
        for (String name : new String[] {"Out", "nosuch", "", "a/b~0"}) {
            String e = error(launch.formatted(name));
            assertTrue(e.contains("launch.json:3:") && e.contains("the launch has no buffer named '" + name + "' (its buffers: out)"), e);
        }
        LaunchJsonChecks.read(write(launch.formatted("out")));
    }

    @Test
    void aJsonSyntaxErrorIsSaidInJsonsTermsNotWithTheParsersSettings() throws Exception {
        // It was "Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow" and
        // "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]".
        String[][] cases = {{"{\"ptx\": NaN}", "Non-standard token 'NaN' (JSON does not allow it)"},
            {"{\"ptx\": +1}", "(JSON does not allow it)"}, {"{\"ptx\": \"k.ptx\" /* c */}", "(JSON has no comments)"},
            {"[", "expected close marker for Array (opened at line 1, column 1)"},
            {"{\"ptx\": \"k.ptx\"}}", "(for the value opened at line 1)"}};
        for (String[] c : cases) {
            String e = error(c[0]);
            assertTrue(e.contains("launch.json:1:") && e.contains("invalid JSON: ") && e.contains(c[1]), e);
            for (String java : new String[] {"Feature", "enable `", "Source:", "REDACTED", "parser"}) assertTrue(!e.contains(java), e);
        }
    }

    @Test
    void aRandomSeedBeyond64BitsIsRefusedAtItsLine() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"args\": [\n {\"buffer\": \"a\", \"type\": \"u32\", \"count\": 4, \"init\": \"random:9999999999999999999\"}]}");
        assertTrue(e.contains("launch.json:2:") && e.contains("not a 64-bit signed integer"), e);
    }

    @Test
    void aMessageShowsTheOffendingLineWithACaretUnderItsColumn() throws Exception {
        String e = error("{\n\"ptx\": \"k.ptx\",\n  \"grid\": [1, 0, 1]\n}");
        String[] lines = e.split("\n");
        assertEquals(3, lines.length, e);
        assertTrue(lines[0].contains("launch.json:3:15: error: value 0 is outside"), e);
        assertEquals("    \"grid\": [1, 0, 1]", lines[1]);
        assertEquals("  " + " ".repeat(14) + "^", lines[2]); // under the 0
    }

    @Test
    void deeplyNestedJsonIsRefusedNotAStackOverflow() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"x\": " + "[".repeat(5000) + "]".repeat(5000) + "}");
        assertTrue(e.contains("launch.json:1:"), e);
    }

    @Test
    void aTensorMapArgumentAndExtraBuffersAreRead() throws Exception {
        LaunchSpec s = LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"args\": [{\"tensorMap\": {\"buffer\": \"t\", "
                + "\"dims\": [64, 32], \"box\": [16, 8], \"strides\": [256]}}],"
                + " \"buffers\": [{\"buffer\": \"t\", \"type\": \"f32\", \"count\": 2048}]}"));
        assertTrue(s.args().get(0).isTensorMap());
        assertEquals(List.of(64L, 32L), s.args().get(0).tensorMap().dims());
        assertEquals(List.of(16, 8), s.args().get(0).tensorMap().box());
        assertEquals("t", s.buffers().get(0).buffer());
    }

    @Test
    void aTensorMapBoxLargerThan256IsRefusedAtItsLine() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\",\n\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [1024],\n\"box\": [512]}}]}");
        assertTrue(e.contains("launch.json:3:") && e.contains("outside 1..256"), e);
    }

    @Test
    void aTensorStrideThatIsNotAMultipleOf16IsRefused() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [8, 8], \"box\": [8, 8], "
                + "\"strides\": [40]}}]}");
        assertTrue(e.contains("multiples of 16"), e);
    }
}
