package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launch-file values from an untrusted file: paths checked as text, numbers exact and in range, text strict UTF-8. */
class UntrustedLaunchInputTest {
    @TempDir
    Path tmp;

    private static final String PTX = ".version 9.0\n.target sm_90a\n.address_size 64\n"
            + ".visible .entry k(.param .u64 p, .param .u32 n)\n{\nret;\n}\n";

    private Path write(String json) throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), PTX);
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, json);
        return l;
    }

    private String readError(String json) throws Exception {
        Path l = write(json);
        return assertThrows(BadInputException.class, () -> LaunchJsonChecks.read(l)).getMessage();
    }

    private String openError(String json) throws Exception {
        Path l = write(json);
        return assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
    }

    private static final String ARGS = "\"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}, {\"value\": 1, \"type\": \"u32\"}]";

    @Test
    void aNulInThePtxPathIsRefusedAtItsPlace() throws Exception {
        String e = readError("{\"ptx\": \"k.ptx\\u0000x\"}");
        assertTrue(e.contains("launch.json:1:9: error"), e);
        assertTrue(e.contains("control character U+0000"), e);
    }

    @Test
    void aNulInATracesEmbeddedLaunchIsRefusedAtItsPlace() {
        String e = assertThrows(BadInputException.class,
                () -> LaunchJsonChecks.readText(tmp.resolve("launch.json"), "{\"ptx\": \"a\\u0000b.ptx\"}")).getMessage();
        assertTrue(e.contains("control character U+0000"), e);
    }

    @Test
    void aNegativeZeroFloatKeepsItsSignThoughIntegersAreReadExactly() throws Exception {
        // Floats are read as decimals for the integer checks, and a decimal has no -0: the sign must come from the text.
        Path l = write("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"f32\", \"data\": [-0.0, 0.0, -0e0, -1.5]},"
                + " {\"value\": -0.0, \"type\": \"f64\"}]}");
        LaunchSpec s = LaunchJsonChecks.read(l);
        java.util.List<Number> d = s.args().get(0).data();
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(d.get(0).doubleValue()), "data[0] " + d.get(0));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(d.get(1).doubleValue()), "data[1] " + d.get(1));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(d.get(2).doubleValue()), "data[2] " + d.get(2));
        assertEquals(-1.5, d.get(3).doubleValue());
        Number v = s.args().get(1).value();
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(v.doubleValue()), "value " + v);
        // Integers stay exact: a negative zero written as a float is the integer 0.
        LaunchSpec i = LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": -0.0, \"type\": \"u32\"}]}"));
        assertEquals(0L, i.args().get(0).value().longValue());
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 1e-99999, \"type\": \"u32\"}]}").contains("takes integers"));
    }

    @Test
    void aKeyGivenTwiceIsRefusedAtItsSecondPlaceNotReadAsTheLastOne() throws Exception {
        String e = readError("{\"ptx\": \"k.ptx\",\n\"grid\": [4, 1, 1], \"grid\": [1, 1, 1]}");
        assertTrue(e.contains("launch.json:2:") && e.contains("Duplicate field 'grid'"), e);
    }

    @Test
    void textAfterTheLaunchObjectIsRefusedNotIgnored() throws Exception {
        String e = readError("{\"ptx\": \"k.ptx\"}\n{\"ptx\": \"other.ptx\"}");
        assertTrue(e.contains("launch.json:2:") && e.contains("invalid JSON"), e);
        assertTrue(readError("{\"ptx\": \"k.ptx\"} x").contains("invalid JSON"));
    }

    @Test
    void aNumberIsAnIntegerOnlyAsWrittenNotAfterADoubleRoundsIt() throws Exception {
        for (String v : new String[] {"1e-99999", "1.0000000000000001", "4294967295.5"}) {
            String e = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}, {\"value\": " + v
                    + ", \"type\": \"u32\"}]}");
            assertTrue(e.contains(".u32 takes integers; ") && e.contains(" is not one"), v + ": " + e);
        }
        // A huge exponent is refused by its digit count, never expanded into a number of a billion digits.
        String e = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}, {\"value\": 1e999999999, \"type\": \"u64\"}]}");
        assertTrue(e.contains("outside the range of .u64") || e.contains("invalid JSON"), e);
        // Written as a decimal, an integer value is still one.
        Path l = write("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}, {\"value\": 7.0e0, \"type\": \"u32\"}]}");
        assertEquals(7L, LaunchJsonChecks.read(l).args().get(1).value().longValue());
    }

    @Test
    void aBuffersFileThatIsADeviceOrFolderIsNamedAsSuchNotSaidToBeMissing() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));
        String dev = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"file\": \"/dev/zero\"}]}");
        assertTrue(dev.contains("/dev/zero is not a regular file") && !dev.contains("no such file"), dev);
        String dir = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"file\": \".\"}]}");
        assertTrue(dir.contains("is a directory, not a file"), dir);
    }

    @Test
    void aBuffersFileTooLargeToHoldIsRefusedWithTheNumbersBeforeItIsRead() {
        // Two 150 MB files ran a 256 MB heap out of memory while the launch was read, before its memory was counted.
        String e = LaunchJsonChecks.tooLargeToHold(Path.of("big.bin"), 150L << 20, 200L << 20, 256L << 20);
        assertEquals("big.bin is 150 MiB; holding it and its copy in the emulated memory takes about 300 MiB but this Java has about"
                + " 200 MiB free of 256 MiB: give it more with -Xmx", e);
        assertEquals(null, LaunchJsonChecks.tooLargeToHold(Path.of("small.bin"), 10L << 20, 200L << 20, 256L << 20));
    }

    @Test
    void aMissingKeyIsLocatedAtTheObjectThatLacksItNotAtTheFilesStart() throws Exception {
        String e = readError("{\"ptx\": \"k.ptx\",\n\"args\": [\n  {\"buffer\": \"b\", \"count\": 4}]}");
        assertTrue(e.contains("launch.json:3:3: error: missing \"type\""), e);
    }

    @Test
    void anEmptyPtxPathIsRefused() throws Exception {
        assertTrue(readError("{\"ptx\": \"\"}").contains("\"ptx\" is empty"));
    }

    @Test
    void aPtxPathThatIsADeviceIsSaidToBeNoRegularFileNotToBeMissing() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/null")));
        String e = readError("{\"ptx\": \"/dev/null\"}");
        assertTrue(e.contains("not a regular file"), e);
        assertTrue(!e.contains("does not exist"), e);
    }

    @Test
    void aPtxPathThatIsADirectoryIsSaidToBeADirectory() throws Exception {
        Files.createDirectories(tmp.resolve("dir"));
        assertTrue(readError("{\"ptx\": \"dir\"}").contains("is a directory"));
    }

    @Test
    void aGridWhoseThreadCountWouldWrapALongIsRefused() throws Exception {
        String e = openError("{\"ptx\": \"k.ptx\", \"grid\": [1048576, 1048576, 1048576], \"block\": [128, 1, 1]}");
        assertTrue(e.contains("error: the launch has 147573952589676412928 threads"), e);
        assertTrue(e.contains("launch.json:1:"), e);
    }

    @Test
    void tensorMapDimensionsWhoseExtentWouldWrapAreRefusedBeforeRunning() throws Exception {
        Files.writeString(tmp.resolve("t.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .align 64 .b8 tm[128])\n{\nret;\n}\n");
        Path l = tmp.resolve("t.json");
        Files.writeString(l, "{\"ptx\": \"t.ptx\", \"buffers\": [{\"buffer\": \"t\", \"type\": \"f32\", \"count\": 64}],\n"
                + "\"args\": [{\"tensorMap\": {\"buffer\": \"t\", \"dims\": [4294967296, 4294967296, 4294967296], \"box\": [8, 8, 1]}}]}");
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
        assertTrue(e.contains("t.json:2:"), e);
        assertTrue(e.contains("tensorMap over 't'"), e);
    }

    @Test
    void anOutOfRangeIntegerValueIsRefusedNotTruncated() throws Exception {
        String e = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 1099511627776, \"type\": \"s32\"}]}");
        assertTrue(e.contains("value 1099511627776 is outside the range of .s32"), e);
        e = readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u8\", \"data\": [1, 300]}]}");
        assertTrue(e.contains("launch.json:1:") && e.contains("value 300 is outside the range of .u8 (0..255)"), e);
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": -1, \"type\": \"u32\"}]}").contains("outside the range of .u32"));
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 2.5, \"type\": \"s32\"}]}").contains("takes integers"));
    }

    @Test
    void theWholeRangeOfEachIntegerTypeIsAccepted() throws Exception {
        LaunchSpec s = LaunchJsonChecks.read(write("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 18446744073709551615, \"type\": \"u64\"},"
                + "{\"value\": -2147483648, \"type\": \"s32\"}, {\"value\": 255, \"type\": \"u8\"}]}"));
        assertEquals(-1L, s.args().get(0).value().longValue());
        assertEquals(-2147483648L, s.args().get(1).value().longValue());
        assertEquals(255L, s.args().get(2).value().longValue());
    }

    @Test
    void aNumberBeyondDoubleRangeIsRefusedNotTakenAsInfinity() throws Exception {
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 1e999, \"type\": \"f64\"}]}").contains("must be finite"));
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 1e300, \"type\": \"f32\"}]}").contains("outside the range of .f32"));
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"f32\", \"data\": [1e999]}]}")
                .contains("must be finite"));
        assertTrue(readError("{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"f32\", \"count\": 1}],"
                + " \"expect\": {\"buffers\": {\"b\": [-1e999]}}}").contains("beyond the range"));
    }

    @Test
    void invalidUtf8IsRefusedAtItsLineAndColumn() throws Exception {
        Path l = tmp.resolve("bad.json");
        Files.write(l, new byte[] {'{', '\n', ' ', '"', (byte) 0xC3, '"', '}'});
        String e = assertThrows(BadInputException.class, () -> LaunchJsonChecks.read(l)).getMessage();
        assertTrue(e.contains("bad.json:2:3: error: not UTF-8 text: byte 0xC3"), e);
        Path p = tmp.resolve("bad.ptx");
        Files.write(p, new byte[] {'.', 'v', '\n', (byte) 0xFF});
        e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(p).start()).getMessage();
        assertTrue(e.contains("bad.ptx:2:1: error: not UTF-8 text: byte 0xFF"), e);
    }

    @Test
    void argumentsAgainstParametersAreCheckedInTheOneValidationHome() throws Exception {
        String e = openError("{\"ptx\": \"k.ptx\", \"args\": [{\"value\": 1, \"type\": \"u32\"}]}");
        assertTrue(e.contains("takes 2 parameters but the launch file gives 1 args"), e);
        LaunchValidation.validate(write("{\"ptx\": \"k.ptx\", " + ARGS + "}")).start();
    }

    @Test
    void aTraceCarriesOnlySourceFilesThePtxNamesNeverOtherFiles() throws Exception {
        Files.writeString(tmp.resolve("kernel.cu"), "__global__ void k() {}\n");
        Files.writeString(tmp.resolve("secret"), "not for a trace\n");
        String ptx = ".version 9.0\n.target sm_90a\n.address_size 64\n.file 1 \"kernel.cu\"\n.file 2 \"secret\"\n"
                + ".file 3 \"" + tmp.resolve("secret").toAbsolutePath() + "\"\n"
                + ".visible .entry k()\n{\n.loc 1 1 1\nret;\n}\n";
        Files.writeString(tmp.resolve("k.ptx"), ptx);
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"kernel\": \"k\"}");
        assertEquals(java.util.List.of("kernel.cu"), java.util.List.copyOf(LaunchValidation.validate(l).start().cudaSources().keySet()));
        assertTrue(LaunchedRun.isSourceName("dir.v2/kernel.CUH"));
        assertTrue(!LaunchedRun.isSourceName("/home/me/.ssh/id_rsa") && !LaunchedRun.isSourceName("dir.cu/secret")
                && !LaunchedRun.isSourceName(".cu"));
    }
}
