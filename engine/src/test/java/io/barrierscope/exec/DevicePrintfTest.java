package io.barrierscope.exec;

import io.barrierscope.launch.LaunchValidation;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Device printf (the runtime's vprintf) and __assertfail. Expected text is written out by hand
 * from C's printf rules, never produced by Java's formatter.
 */
class DevicePrintfTest {
    private static final String VPRINTF = ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n"
            + ".param .b64 vprintf_param_1\n)\n;\n";

    /** A .global .b8 array holding {@code s} NUL-terminated, as nvcc emits string literals. */
    private static String cstring(String name, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        StringBuilder sb = new StringBuilder(".global .align 1 .b8 " + name + "[" + (b.length + 1) + "] = {");
        for (byte c : b) sb.append(c).append(", ");
        return sb.append("0};\n").toString();
    }

    /**
     * A kernel that packs arguments into a local depot with {@code stores} (st.local into [depot+off])
     * and calls vprintf(fmt, depot); the return value goes to w[0].
     */
    private static ExecKernel printf(String fmt, String stores) {
        String body = ".local .align 8 .b8 depot[256];\nmov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\n" + stores
                + "mov.u64 %rd3, fmt;\ncvta.global.u64 %rd4, %rd3;\n{\n.param .b64 param0;\nst.param.b64 [param0], %rd4;\n"
                + ".param .b64 param1;\nst.param.b64 [param1], %rd2;\n.param .b32 retval0;\n"
                + "call.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r9, [retval0];\n}\n" + w(0, "%r9");
        return ExecKernel.of(body).header(VPRINTF + cstring("fmt", fmt));
    }

    private static String only(LaunchedRun r) {
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        assertEquals(1, r.interpreter().printfLines().size());
        return r.interpreter().printfLines().get(0).text();
    }

    @Test
    void committedPrintfCorpusProducesTheExpectedLines() throws URISyntaxException {
        Path ptx = Path.of(getClass().getResource("/ptx-corpus/printf_debug.ptx").toURI());
        // printf_debug.cu: i = blockIdx.x * blockDim.x + threadIdx.x; thread 0 prints the header; every i < n
        // with x[i] < 0 prints a line with tag odd/even from labels[i] & 1; thread 0 of each block prints "done".
        List<Number> xs = List.of(1.5f, -2.25f, 3f, -0.5f, 0f, -0.001f, -9f, -4f);
        List<Number> labels = List.of(0L, 1L, 2L, 7L, 4L, 10L, 6L, 7L);
        List<ArgSpec> args = List.of(new ArgSpec("x", ScalarType.F32, 8, "data", xs, null),
                new ArgSpec("labels", ScalarType.S32, 8, "data", labels, null), new ArgSpec(null, ScalarType.U32, 0, null, null, 6L));
        LaunchSpec spec = new LaunchSpec(ptx.resolveSibling("printf_debug.json"), ptx, "debug_print", new Dim3(2, 1, 1),
                new Dim3(4, 1, 1), null, args, 0, null, "round-robin", 0, 1_000_000, List.of());
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        List<String> got = new ArrayList<>(r.interpreter().printfLines().stream().map(PrintfLine::text).toList());
        List<String> expected = new ArrayList<>(List.of(
                "debug_print: n=6 grid=2 block=4\n",
                "thread 1: x=-2.250000 (odd, label 1) is negative, |x|=2.250000e+00\n",
                "thread 3: x=-0.500000 (odd, label 7) is negative, |x|=5.000000e-01\n",
                "thread 5: x=-0.001000 (even, label 10) is negative, |x|=1.000000e-03\n",
                "block 0 done\n",
                "block 1 done\n"));
        got.sort(null);
        expected.sort(null);
        assertEquals(expected, got);
        // the header comes from thread 0 of CTA 0
        PrintfLine head = r.interpreter().printfLines().stream().filter(p -> p.text().startsWith("debug_print")).findFirst()
                .orElseThrow();
        assertEquals(0, head.slot());
    }

    @Test
    void integerConversionsFlagsAndWidths() {
        String stores = "st.local.u32 [depot], 42;\nst.local.u32 [depot+4], -42;\nst.local.u32 [depot+8], 255;\n"
                + "st.local.u32 [depot+12], 65;\nst.local.u64 [depot+16], -2;\nst.local.u32 [depot+24], 7;\n"
                + "st.local.u32 [depot+28], 3;\nst.local.u64 [depot+32], 0x123456789ab;\nst.local.u32 [depot+40], 5;\n";
        LaunchedRun r = printf("[%5d][%-5d][%x][%c][%lld][%03d][%+d][%lx][%i]%%", stores).run();
        assertEquals("[   42][-42  ][ff][A][-2][007][+3][123456789ab][5]%", only(r));
    }

    @Test
    void unsignedAndHexOfNegativeValues() {
        String stores = "st.local.u32 [depot], -1;\nst.local.u32 [depot+4], -1;\nst.local.u32 [depot+8], 10;\n"
                + "st.local.u64 [depot+16], -1;\n";
        LaunchedRun r = printf("%u %X %o %llu", stores).run();
        assertEquals("4294967295 FFFFFFFF 12 18446744073709551615", only(r));
    }

    @Test
    void zeroPaddedUnsignedDoesNotCrashTheEngine() {
        LaunchedRun r = printf("<%05u|%08x>", "st.local.u32 [depot], 42;\nst.local.u32 [depot+4], 48879;\n").run();
        assertEquals("<00042|0000beef>", only(r));
    }

    @Test
    void floatingConversionsFollowC() {
        // floats are passed as doubles
        String stores = "st.local.f64 [depot], 0d3FF8000000000000;\nst.local.f64 [depot+8], 0d3FF8000000000000;\n"
                + "st.local.f64 [depot+16], 0d3F1A36E2EB1C432D;\nst.local.f64 [depot+24], 0d40FE240C9FBE76C9;\n"
                + "st.local.f64 [depot+32], 0d400921FB54442D18;\n";
        LaunchedRun r = printf("%g %e %g %g %.3f", stores).run();
        // 1.5, 1.5, 1e-4, 123456.789, pi
        assertEquals("1.5 1.500000e+00 0.0001 123457 3.142", only(r));
    }

    private static String doubles(double... vs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < vs.length; i++) sb.append("st.local.f64 [depot+").append(8 * i).append("], ").append(ExecKernel.imm(vs[i])).append(";\n");
        return sb.toString();
    }

    @Test
    void hexExponentAndGeneralFloatForms() {
        LaunchedRun r = printf("%a|%a|%A|%e|%.2e|%E|%g|%g|%G|%#g|%g|%g|%g",
                doubles(1.5, 0.0, 255.0, 0.0, 9.996, 12345.678, 1e-5, 123456789.0, 1e-10, 1.5, 100000.0, 1000000.0, 0.0)).run();
        assertEquals("0x1.8p+0|0x0p+0|0X1.FEP+7|0.000000e+00|1.00e+01|1.234568E+04|1e-05|1.23457e+08|1E-10|1.50000|100000|1e+06|0",
                only(r));
        assertEquals(13L, w(r, 0));
    }

    @Test
    void fixedRoundingSignsAndPadding() {
        // %.Nf rounds the exact binary value: 2.5 -> 2, 3.5 -> 4, 0.125 -> 0.12 (ties to even), 0.05 is above 0.05 -> 0.1
        LaunchedRun r = printf("%.0f|%.0f|%.2f|%.1f|%#.0f|%f|%+.1e|%08.3f|%-8.2f|",
                doubles(2.5, 3.5, 0.125, 0.05, 3.0, -0.0, 1.0, -3.14159, 1.0)).run();
        assertEquals("2|4|0.12|0.1|3.|-0.000000|+1.0e+00|-003.142|1.00    |", only(r));
    }

    @Test
    void integerFlagsPrecisionLengthStarAndPointers() {
        String stores = "st.local.u32 [depot], 255;\nst.local.u32 [depot+4], 8;\nst.local.u32 [depot+8], 0;\n"
                + "st.local.u32 [depot+12], 0;\nst.local.u32 [depot+16], -42;\nst.local.u32 [depot+20], 42;\n"
                + "st.local.u32 [depot+24], 70000;\nst.local.u32 [depot+28], 257;\nst.local.u32 [depot+32], 6;\n"
                + "st.local.u32 [depot+36], 42;\nst.local.u32 [depot+40], -6;\nst.local.u32 [depot+44], 42;\n"
                + "st.local.u64 [depot+48], 0x1234;\nst.local.u64 [depot+56], 0;\n";
        LaunchedRun r = printf("%#x|%#o|%#x|%.0d|%.5d|% d|%hd|%hhu|%*d|%-*d|%p|%p", stores).run();
        assertEquals("0xff|010|0||-00042| 42|4464|1|    42|42    |0x1234|(nil)", only(r));
        assertEquals(14L, w(r, 0), "12 conversions and 2 '*' widths");
    }

    @Test
    void atMost32ArgumentsAreFormatted() {
        StringBuilder stores = new StringBuilder();
        for (int i = 0; i < 33; i++) stores.append("st.local.u32 [depot+").append(4 * i).append("], ").append(i).append(";\n");
        LaunchedRun r = printf("%d,".repeat(33), stores.toString()).run();
        StringBuilder e = new StringBuilder();
        for (int i = 0; i < 32; i++) e.append(i).append(',');
        assertEquals(e + "%d,", only(r));
        assertEquals(32L, w(r, 0));
    }

    @Test
    void infinityAndNaNPrintAsC() {
        String stores = "st.local.f64 [depot], 0d7FF0000000000000;\nst.local.f64 [depot+8], 0dFFF0000000000000;\n"
                + "st.local.f64 [depot+16], 0d7FF8000000000000;\n";
        LaunchedRun r = printf("%f %f %f", stores).run();
        assertEquals("inf -inf nan", only(r));
    }

    @Test
    void formattingIgnoresTheHostLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            LaunchedRun r = printf("%.2f %d", "st.local.f64 [depot], 0d3FF8000000000000;\nst.local.u32 [depot+8], 1234567;\n").run();
            assertEquals("1.50 1234567", only(r));
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void stringsAndPointers() {
        String body = ".local .align 8 .b8 depot[64];\nmov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\n"
                + "mov.u64 %rd5, msg;\ncvta.global.u64 %rd6, %rd5;\nst.local.u64 [depot], %rd6;\nst.local.u64 [depot+8], %rd6;\n"
                + "st.local.u64 [depot+16], 0;\n"
                + "mov.u64 %rd3, fmt;\ncvta.global.u64 %rd4, %rd3;\n{\n.param .b64 param0;\nst.param.b64 [param0], %rd4;\n"
                + ".param .b64 param1;\nst.param.b64 [param1], %rd2;\n.param .b32 retval0;\n"
                + "call.uni (retval0), vprintf, (param0, param1);\n}\n";
        LaunchedRun r = ExecKernel.of(body).header(VPRINTF + cstring("fmt", "<%s|%6.3s|%s>") + cstring("msg", "hello")).run();
        assertEquals("<hello|   hel|(null)>", only(r));
    }

    @Test
    void vprintfReturnsTheNumberOfArgumentsLikeCudaPrintf() {
        // CUDA: "printf() returns the number of arguments parsed", not the number of characters.
        LaunchedRun r = printf("a=%d b=%d\n", "st.local.u32 [depot], 1;\nst.local.u32 [depot+4], 2;\n").run();
        assertEquals("a=1 b=2\n", only(r));
        assertEquals(2L, w(r, 0));
        r = printf("no args\n", "").run();
        assertEquals(0L, w(r, 0));
    }

    @Test
    void aNullFormatPrintsNothingAndReturnsMinusOne() {
        String body = "{\n.param .b64 param0;\nst.param.b64 [param0], 0;\n.param .b64 param1;\nst.param.b64 [param1], 0;\n"
                + ".param .b32 retval0;\ncall.uni (retval0), vprintf, (param0, param1);\nld.param.b32 %r9, [retval0];\n}\n"
                + w(0, "%r9");
        LaunchedRun r = ExecKernel.of(body).header(VPRINTF).ok();
        assertEquals(0, r.interpreter().printfLines().size());
        assertEquals(0xFFFFFFFFL, w(r, 0));
    }

    @Test
    void aBadStringPointerIsAMemoryFaultOfTheThreadThatPassedIt() {
        // lane 3 passes 8 as its %s pointer; the others pass a real string
        String body = ".local .align 8 .b8 depot[16];\nmov.u64 %rd1, depot;\ncvta.local.u64 %rd2, %rd1;\n"
                + "mov.u64 %rd5, msg;\ncvta.global.u64 %rd6, %rd5;\nmov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 3;\n"
                + "selp.b64 %rd7, 8, %rd6, %p1;\nst.local.u64 [depot], %rd7;\n"
                + "mov.u64 %rd3, fmt;\ncvta.global.u64 %rd4, %rd3;\n{\n.param .b64 param0;\nst.param.b64 [param0], %rd4;\n"
                + ".param .b64 param1;\nst.param.b64 [param1], %rd2;\n.param .b32 retval0;\n"
                + "call.uni (retval0), vprintf, (param0, param1);\n}\n";
        LaunchedRun r = ExecKernel.of(body).header(VPRINTF + cstring("fmt", "%s\n") + cstring("msg", "ok")).threads(8).run();
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        assertEquals(List.of(3), r.interpreter().diagnostics().get(0).threads());
    }

    @Test
    void printfFromManyThreadsKeepsEachThreadsValues() {
        String stores = "mov.u32 %r1, %tid.x;\nst.local.u32 [depot], %r1;\n";
        LaunchedRun r = printf("t%d\n", stores).threads(40).run();
        assertEquals(40, r.interpreter().printfLines().size());
        for (PrintfLine p : r.interpreter().printfLines()) {
            int tid = r.machine().tidOfSlot(p.slot());
            assertEquals("t" + tid + "\n", p.text());
            assertTrue(p.thread().contains("(" + tid + ",0,0)"), p.thread());
        }
    }

    @Test
    void assertfailIsADiagnosticWithMessageFileAndLine() {
        String header = ".extern .func __assertfail\n(\n.param .b64 __assertfail_param_0,\n.param .b64 __assertfail_param_1,\n"
                + ".param .b32 __assertfail_param_2,\n.param .b64 __assertfail_param_3,\n.param .b64 __assertfail_param_4\n)\n;\n"
                + cstring("msg", "x < n") + cstring("file", "kernel.cu") + cstring("fn", "void k()");
        String body = "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 6;\n@%p1 bra OK;\n"
                + "mov.u64 %rd1, msg;\ncvta.global.u64 %rd2, %rd1;\nmov.u64 %rd3, file;\ncvta.global.u64 %rd4, %rd3;\n"
                + "mov.u64 %rd5, fn;\ncvta.global.u64 %rd6, %rd5;\n{\n.param .b64 p0;\nst.param.b64 [p0], %rd2;\n.param .b64 p1;\n"
                + "st.param.b64 [p1], %rd4;\n.param .b32 p2;\nst.param.b32 [p2], 17;\n.param .b64 p3;\nst.param.b64 [p3], %rd6;\n"
                + ".param .b64 p4;\nst.param.b64 [p4], 1;\ncall.uni __assertfail, (p0, p1, p2, p3, p4);\n}\nOK:\n";
        LaunchedRun r = ExecKernel.of(body).header(header).threads(8).run();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals(List.of("assert-failed"), codes(r));
        Diagnostic d = r.interpreter().diagnostics().get(0);
        assertTrue(d.message().contains("x < n") && d.message().contains("kernel.cu:17"), d.message());
        assertEquals(List.of(6), d.threads());
    }

    @Test
    void arbitraryFormatStringsNeverCrashTheEngine() {
        // Undefined printf uses (bad pointers, odd flag mixes) may fault, but never throw out of the engine.
        String alphabet = "%%%-+ #0123456789.*hlLqjztdiouxXcsfFeEgGaApn";
        java.util.Random rnd = new java.util.Random(1234);
        StringBuilder stores = new StringBuilder();
        for (int i = 0; i < 32; i++) stores.append("st.local.u64 [depot+").append(8 * i).append("], ").append(i % 5 == 0 ? 0 : 3 * i).append(";\n");
        for (int n = 0; n < 150; n++) {
            StringBuilder f = new StringBuilder();
            int len = 1 + rnd.nextInt(14);
            for (int i = 0; i < len; i++) f.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            LaunchedRun r = printf(f.toString(), stores.toString()).run();
            Outcome o = r.interpreter().outcome();
            assertTrue(o == Outcome.COMPLETED || (o == Outcome.DIAGNOSED && codes(r).equals(List.of("memory-fault"))),
                    "format '" + f + "': " + r.summary());
        }
    }

    @Test
    void hugeWidthsAreCappedInsteadOfExhaustingMemory() {
        LaunchedRun r = printf("%2147483647d|%.2147483640f", "st.local.u32 [depot], 1;\nst.local.f64 [depot+8], 0d3FF0000000000000;\n").run();
        String t = only(r);
        assertTrue(t.length() <= 4096, "length " + t.length());
        assertTrue(t.startsWith("    "), t.substring(0, 8));
    }
}
