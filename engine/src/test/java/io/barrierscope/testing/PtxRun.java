package io.barrierscope.testing;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a small hand-written PTX kernel for a unit test of one rule. The kernel gets the
 * declared buffers (u32 unless said otherwise) as its parameters, in order.
 */
public final class PtxRun {
    private final String body;
    private Dim3 grid = Dim3.ONE;
    private Dim3 block = new Dim3(32, 1, 1);
    private Dim3 cluster;
    private final List<ArgSpec> args = new ArrayList<>();
    private String params = "";
    private String policy = "round-robin";
    private long seed;
    private long maxSteps = 1_000_000;
    private String header = "";
    private String target = "sm_90a";
    private String entryDirectives = "";
    private boolean races = true;
    private io.barrierscope.exec.AsyncLatency latency;

    private PtxRun(String body) { this.body = body; }

    /** A kernel {@code k} whose body is {@code body} (registers declared by the caller). */
    public static PtxRun kernel(String body) { return new PtxRun(body); }

    public PtxRun threads(int n) { block = new Dim3(n, 1, 1); return this; }
    public PtxRun block(Dim3 b) { block = b; return this; }
    public PtxRun grid(int n) { grid = new Dim3(n, 1, 1); return this; }
    /** A grid of {@code n} CTAs launched as clusters of {@code n}. */
    public PtxRun cluster(int n) { grid = new Dim3(n, 1, 1); cluster = new Dim3(n, 1, 1); return this; }
    /** A grid of {@code n} CTAs launched as clusters of {@code size} CTAs each. */
    public PtxRun clusters(int n, int size) { grid = new Dim3(n, 1, 1); cluster = new Dim3(size, 1, 1); return this; }
    /** A grid of {@code grid} CTAs launched as clusters of {@code cluster} CTAs (both may be 2D or 3D). */
    public PtxRun clusters(Dim3 grid, Dim3 cluster) { this.grid = grid; this.cluster = cluster; return this; }
    public PtxRun policy(String p, long s) { policy = p; seed = s; return this; }
    public PtxRun maxSteps(long n) { maxSteps = n; return this; }
    /** The launch's async latency model (launch file run.latency). */
    public PtxRun latency(long min, long max) { latency = new io.barrierscope.exec.AsyncLatency(min, max); return this; }

    /** Turns race detection off, for a kernel that races on purpose while testing another rule. */
    public PtxRun racy() { races = false; return this; }

    /** Module-scope declarations placed before the kernel (e.g. .shared arrays). */
    public PtxRun header(String h) { header = h; return this; }

    /** The module's .target (default sm_90a). */
    public PtxRun target(String t) { target = t; return this; }

    /** Performance-tuning directives of the entry, e.g. {@code .maxnreg 168}. */
    public PtxRun directives(String d) { entryDirectives = d; return this; }

    /** Adds a u32 buffer parameter named {@code name} with {@code count} zeroed elements. */
    public PtxRun buffer(String name, int count) { return buffer(name, count, ScalarType.U32, "zero"); }

    public PtxRun buffer(String name, int count, ScalarType t, String init) {
        args.add(new ArgSpec(name, t, count, init, null, null));
        params += (params.isEmpty() ? "" : ", ") + ".param .u64 " + name;
        return this;
    }

    public PtxRun value(String name, ScalarType t, long v) {
        args.add(new ArgSpec(null, t, 0, null, null, v));
        params += (params.isEmpty() ? "" : ", ") + ".param ." + t.ptxName() + " " + name;
        return this;
    }

    /** The full PTX text. */
    public String ptx() {
        return ".version 9.0\n.target " + target + "\n.address_size 64\n" + header + "\n.visible .entry k(" + params + ")\n" + (entryDirectives.isEmpty() ? "" : entryDirectives + "\n") + "{\n"
                + body + "\n}\n";
    }

    public LaunchedRun launch() { return launch(null); }

    /** Launches under a policy object of the test's (null: the named policy and seed). */
    public LaunchedRun launch(io.barrierscope.exec.Policy policyObject) {
        try {
            Path dir = Files.createTempDirectory("bs-test");
            Path ptx = dir.resolve("k.ptx");
            Files.writeString(ptx, ptx());
            LaunchSpec spec = new LaunchSpec(dir.resolve("launch.json"), ptx, "k", grid, block, cluster, args, 0, null, policy,
                    seed, maxSteps, List.of(), List.of(), latency);
            return (policyObject != null ? LaunchValidation.validate(spec).start(policyObject) : LaunchValidation.validate(spec).start(null, null))
                    .raceDetection(races);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Launches and runs to the end. */
    public LaunchedRun run() {
        LaunchedRun r = launch();
        r.runToEnd();
        return r;
    }

    public static List<String> codes(LaunchedRun r) {
        return r.interpreter().diagnostics().stream().map(Diagnostic::code).map(c -> c.code()).toList();
    }

    public static Outcome outcome(LaunchedRun r) { return r.interpreter().outcome(); }

    public static List<Long> u32(LaunchedRun r, String buffer) {
        return r.buffers().get(buffer).stream().map(Number::longValue).toList();
    }
}
