package io.barrierscope.exec;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.ScalarType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a hand-written kernel body for the instruction tests of this package. The kernel {@code k}
 * gets two result buffers: {@code w} (64 u32 slots, address in %rd40) and {@code x} (64 u64
 * slots, address in %rd41), plus any extra parameters. Registers %p, %h (b16), %r (b32),
 * %rd (b64), %f (f32), %fd (f64) are declared; %rd40-%rd47 are reserved.
 */
final class ExecKernel {
    static final String REGS = ".reg .pred %p<16>;\n.reg .b16 %h<16>;\n.reg .b32 %r<64>;\n.reg .b64 %rd<48>;\n"
            + ".reg .f32 %f<32>;\n.reg .f64 %fd<32>;\n";
    static final String PRE = REGS + "ld.param.u64 %rd40, [w];\ncvta.to.global.u64 %rd40, %rd40;\n"
            + "ld.param.u64 %rd41, [x];\ncvta.to.global.u64 %rd41, %rd41;\n";

    private final String body;
    private String header = "";
    private String funcs = "";
    private Dim3 grid = Dim3.ONE;
    private Dim3 block = Dim3.ONE;
    private Dim3 cluster = null;
    private int wSlots = 64;
    private final List<ArgSpec> args = new ArrayList<>();
    private String params = "";
    private boolean ret = true;
    private String target = "sm_90a";
    private String version = "9.0";

    private ExecKernel(String body) { this.body = body; }

    static ExecKernel of(String body) { return new ExecKernel(body); }

    ExecKernel header(String h) { header = h; return this; }
    /** Functions placed after the module header and before the kernel. */
    ExecKernel funcs(String f) { funcs = f; return this; }
    ExecKernel grid(Dim3 g) { grid = g; return this; }
    ExecKernel block(Dim3 b) { block = b; return this; }
    /** Launches with this cluster shape (none unless given). */
    ExecKernel cluster(Dim3 c) { cluster = c; return this; }
    ExecKernel threads(int n) { block = new Dim3(n, 1, 1); return this; }
    ExecKernel wSlots(int n) { wSlots = n; return this; }
    /** The module's {@code .target} (sm_90a unless given). */
    ExecKernel target(String t) { target = t; return this; }
    /** The module's {@code .version} (9.0 unless given). */
    ExecKernel version(String v) { version = v; return this; }
    /** Leaves out the final {@code ret} of the kernel body. */
    ExecKernel noRet() { ret = false; return this; }

    ExecKernel buffer(String name, ScalarType t, List<Number> data) {
        args.add(new ArgSpec(name, t, data.size(), "data", data, null));
        params += ", .param .u64 " + name;
        return this;
    }

    ExecKernel value(String name, ScalarType t, long v) {
        args.add(new ArgSpec(null, t, 0, null, null, v));
        params += ", .param ." + t.ptxName() + " " + name;
        return this;
    }

    private boolean races = true;

    /** Turns race detection off, for a kernel that races on purpose while testing another rule. */
    ExecKernel racy() {
        races = false;
        return this;
    }

    String ptx() {
        return ".version " + version + "\n.target " + target + "\n.address_size 64\n" + header + "\n" + funcs + "\n.visible .entry k(.param .u64 w, "
                + ".param .u64 x" + params + ")\n{\n" + PRE + body + (ret ? "\nret;" : "") + "\n}\n";
    }

    LaunchedRun launch() {
        try {
            Path dir = Files.createTempDirectory("bs-exec");
            Path ptx = dir.resolve("k.ptx");
            Files.writeString(ptx, ptx());
            List<ArgSpec> all = new ArrayList<>();
            all.add(new ArgSpec("w", ScalarType.U32, wSlots, "zero", null, null));
            all.add(new ArgSpec("x", ScalarType.U64, 64, "zero", null, null));
            all.addAll(args);
            LaunchSpec spec = new LaunchSpec(dir.resolve("launch.json"), ptx, "k", grid, block, cluster, all, 0, null,
                    "round-robin", 0, 1_000_000, List.of());
            return LaunchValidation.validate(spec).start(null, null).raceDetection(races);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    LaunchedRun run() {
        LaunchedRun r = launch();
        r.runToEnd();
        return r;
    }

    /** Runs and asserts a clean completion. */
    LaunchedRun ok() {
        LaunchedRun r = run();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        assertEquals(List.of(), codes(r), r.summary());
        return r;
    }

    /** Stores 32-bit register {@code reg} into w[i]. */
    static String w(int i, String reg) { return "st.global.u32 [%rd40+" + 4 * i + "], " + reg + ";\n"; }

    /** Stores 64-bit register {@code reg} into x[i]. */
    static String x(int i, String reg) { return "st.global.u64 [%rd41+" + 8 * i + "], " + reg + ";\n"; }

    /** Stores predicate {@code p} as 0/1 into w[i] (uses %r63). */
    static String wp(int i, String p) { return "selp.u32 %r63, 1, 0, " + p + ";\n" + w(i, "%r63"); }

    static long w(LaunchedRun r, int i) { return r.buffers().get("w").get(i).longValue(); }

    static long x(LaunchedRun r, int i) { return r.buffers().get("x").get(i).longValue(); }

    static List<String> codes(LaunchedRun r) {
        return r.interpreter().diagnostics().stream().map(Diagnostic::code).map(c -> c.code()).toList();
    }

    static long u32(int v) { return v & 0xFFFFFFFFL; }

    static long f32(float f) { return Float.floatToRawIntBits(f) & 0xFFFFFFFFL; }

    static long f64(double d) { return Double.doubleToRawLongBits(d); }

    /** A PTX f32 immediate (0fXXXXXXXX) with the exact bits of {@code f}. */
    static String imm(float f) { return String.format("0f%08X", Float.floatToRawIntBits(f)); }

    /** A PTX f64 immediate (0dXXXXXXXXXXXXXXXX) with the exact bits of {@code d}. */
    static String imm(double d) { return String.format("0d%016X", Double.doubleToRawLongBits(d)); }

    /** {@code body} (one line) is refused at load as a PtxException pointing at its own line, with {@code detail} in the message. */
    static void assertRefusedAtLine(String body, String detail) {
        BadInputException e = assertThrows(BadInputException.class, () -> of(body).launch(), body);
        assertTrue(e.getCause() instanceof PtxException, "cause: " + e.getCause());
        PtxException p = (PtxException) e.getCause();
        String[] lines = of(body).ptx().split("\n", -1);
        assertEquals(body, lines[p.pos().line() - 1].trim(), e.getMessage());
        assertTrue(p.detail().contains(detail), p.detail());
    }
}
