package io.barrierscope.runtime;

import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.check.RaceDetector;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Memory;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.Policy;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.PtxException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One kernel launch of the program on the engine: the entry's parameters decoded from the raw
 * argument bytes by its {@code .param} list, a fresh machine over the program's one device memory
 * (nothing copied), run to its end with the session's options. A launch that does not complete
 * prints the same explanation `run` prints and becomes a CUDA error for the program.
 */
final class KernelLaunch {
    /**
     * What the program is told (status), what the summary keeps (line), `run`'s exit code for it,
     * and the launch bundle written for it (null: none).
     */
    record Result(int status, long cycles, String line, int exitCode, java.nio.file.Path bundle) {}

    private final DeviceSession session;
    private final DeviceModule module;
    private final String entry;
    private final int[] dims;
    private final int dynShared;
    private final byte[] args;
    private final int number;
    private final LaunchOptions options;
    private final PrintWriter out;
    private final PrintWriter err;

    private long gridWorkspace;
    private HostMirrors.Tracker mirrors;

    /** Watches the launch's writes to mirrored memory (HostMirrors), or null when nothing is mirrored. */
    void mirrors(HostMirrors.Tracker t) { mirrors = t; }

    /** A cooperative launch: the workspace its grid.sync() uses (Machine.gridWorkspace). */
    void gridWorkspace(long address) { gridWorkspace = address; }

    KernelLaunch(DeviceSession session, DeviceModule module, String entry, int[] dims, int dynShared, byte[] args, int number,
                 LaunchOptions options, PrintWriter out, PrintWriter err) {
        this.session = session;
        this.module = module;
        this.entry = entry;
        this.dims = dims;
        this.dynShared = dynShared;
        this.args = args;
        this.number = number;
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Writes this launch's bundle and says where, or why not; the bundle's folder, null when none was written. */
    private java.nio.file.Path bundle(Program program, byte[] params, LaunchBundle.Before before, Outcome o, long steps) {
        String base = "launch-" + number + "-" + entry.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (base.length() > 100) base = base.substring(0, 100);
        java.nio.file.Path dir = options.bundleDir().resolve(base);
        for (int k = 2; java.nio.file.Files.exists(dir); k++) dir = options.bundleDir().resolve(base + "-" + k);
        try {
            String note = LaunchBundle.write(dir, module, program, entry, dims, dynShared, params, before, options, o, steps);
            err.println("barrierscope: launch bundle " + dir + " (reproduce: barrierscope run " + dir.resolve("launch.json")
                    + "; step through: barrierscope gui " + dir + ")");
            if (note != null) err.println("barrierscope: note: " + note);
        } catch (java.io.IOException | RuntimeException e) {
            err.println("barrierscope: could not write the launch bundle " + dir + ": " + e.getMessage());
            dir = null;
        }
        err.flush();
        return dir;
    }

    private String title() {
        return "launch " + number + " of " + Demangler.of(entry) + " <<<(" + dims[0] + "," + dims[1] + "," + dims[2] + "), (" + dims[3] + ","
                + dims[4] + "," + dims[5] + ")>>>";
    }

    /** The most threads a block of the entry may have: its .maxntid or .reqntid (PTX ISA 11.4), else 1024. */
    static int maxThreads(io.barrierscope.ptx.Directives d) {
        int[] n = d.reqntid() != null ? d.reqntid() : d.maxntid();
        if (n == null) return 1024;
        long v = (long) n[0] * n[1] * n[2];
        return (int) Math.min(v, 1024);
    }

    /** A launch CUDA itself refuses: the program gets the error and decides (its exit code stands). */
    private Result refuse(int status, String why) {
        String line = title() + ": " + why + " (" + CudaError.name(status) + ")";
        err.println("barrierscope: " + line);
        return new Result(status, 0, line, 0, null);
    }

    /** A launch a GPU would run but BarrierScope cannot: counts as a failed launch (exit code 2). */
    private Result beyondUs(int status, String why) {
        Result r = refuse(status, why);
        return new Result(r.status(), 0, r.line(), io.barrierscope.cli.Main.BAD_INPUT, null);
    }

    /** One watch telling both a bundle's watch and the mirrors' tracker (either may be null). */
    private static io.barrierscope.exec.GlobalMemory.WriteWatch both(LaunchBundle.Watch bundle, HostMirrors.Tracker t) {
        if (bundle == null || t == null) return bundle != null ? bundle : t;
        return new io.barrierscope.exec.GlobalMemory.WriteWatch() {
            @Override
            public void beforeWrite(io.barrierscope.exec.GlobalMemory.Segment s, int offset, int size) {
                bundle.beforeWrite(s, offset, size);
                t.beforeWrite(s, offset, size);
            }
        };
    }

    /**
     * What is wrong with a launch's shape by CUDA's own limits (grid x 1 to 2^31-1, y and z 1 to
     * 65535; a block of 1 to 1024 threads, x and y at most 1024, z at most 64; a cluster of at most 16
     * CTAs or none), or null. The wire's dimensions are unsigned: read as ints, {@code dim3(0xFFFFFFFF)}
     * was a negative grid and a block of (-1, -1, 1) one thread, run as such.
     */
    static String shapeOutsideCuda(int[] dims) {
        long[] u = new long[9];
        for (int i = 0; i < 9; i++) u[i] = Integer.toUnsignedLong(dims[i]);
        if (u[0] == 0 || u[1] == 0 || u[2] == 0 || u[0] > Integer.MAX_VALUE || u[1] > 65535 || u[2] > 65535) {
            return "grid (" + u[0] + "," + u[1] + "," + u[2] + "): CUDA takes 1 to 2147483647 CTAs in x and 1 to 65535 in y and z";
        }
        if (u[3] == 0 || u[4] == 0 || u[5] == 0 || u[3] > 1024 || u[4] > 1024 || u[5] > 64 || u[3] * u[4] * u[5] > 1024) {
            return "block (" + u[3] + "," + u[4] + "," + u[5] + "): CUDA takes 1 to 1024 threads per block, x and y at most 1024, z at most 64";
        }
        boolean none = u[6] == 0 && u[7] == 0 && u[8] == 0;
        if (!none && (u[6] == 0 || u[7] == 0 || u[8] == 0 || u[6] > 16 || u[7] > 16 || u[8] > 16 || u[6] * u[7] * u[8] > 16)) {
            return "cluster (" + u[6] + "," + u[7] + "," + u[8] + "): a cluster has 1 to 16 CTAs in all (or is not given: 0,0,0)";
        }
        return null;
    }

    Result run() {
        Program program;
        try {
            program = module.program(entry);
        } catch (PtxException | IllegalArgumentException e) {
            return beyondUs(CudaError.INVALID_DEVICE_FUNCTION, e.getMessage());
        }
        int[] perCluster = program.kernel.directives().reqnctapercluster();
        if (perCluster != null && dims[6] == 0 && module.blocksAreClusters(entry)) {
            // "Blocks as Clusters" (__block_size__ with a cluster, PTX .blocksareclusters): the launch's
            // grid counts clusters; the GPU runs grid x cluster blocks. Scaled here, in place, so the
            // messages and a bundle's launch.json show the blocks that run. Scaling only grows a grid
            // (saturating), so checking the scaled one below also refuses every bad grid as given.
            for (int i = 0; i < 3; i++) dims[i] = (int) Math.min(Integer.toUnsignedLong(dims[i]) * perCluster[i], 0xFFFFFFFFL);
        }
        String shape = shapeOutsideCuda(dims);
        if (shape != null) return refuse(CudaError.INVALID_CONFIGURATION, shape);
        Dim3 grid = new Dim3(dims[0], dims[1], dims[2]);
        Dim3 block = new Dim3(dims[3], dims[4], dims[5]);
        Function k = program.kernel;
        int bound = maxThreads(k.directives());
        if (block.volume() > bound) {
            // The CUDA Programming Guide: a launch with more threads per block than the kernel's
            // launch bound fails; the driver reports it as too many resources requested.
            return refuse(CudaError.LAUNCH_OUT_OF_RESOURCES, "a block of " + block.volume() + " threads, more than the kernel's "
                    + "launch bound of " + bound + " (__launch_bounds__, PTX .maxntid/.reqntid; cudaFuncGetAttributes' maxThreadsPerBlock)");
        }
        int[] d = k.directives().reqnctapercluster() != null ? k.directives().reqnctapercluster() : k.directives().clusterDim();
        Dim3 cluster = dims[6] != 0 ? new Dim3(dims[6], dims[7], dims[8]) : d != null ? new Dim3(d[0], d[1], d[2]) : Dim3.ONE;
        if (grid.x() % cluster.x() != 0 || grid.y() % cluster.y() != 0 || grid.z() % cluster.z() != 0 || cluster.volume() > 16) {
            return refuse(CudaError.INVALID_CONFIGURATION, "grid " + grid + " is not a multiple of the cluster " + cluster + " (at most 16 CTAs)");
        }
        long threads = grid.volume() * block.volume();
        if (threads > LaunchedRun.MAX_THREADS) {
            return beyondUs(CudaError.INVALID_CONFIGURATION, threads + " threads; BarrierScope emulates at most " + LaunchedRun.MAX_THREADS
                    + " per launch (64 CTAs x 1024): shrink the problem for the debugging run");
        }
        if ((long) program.staticSharedBytes + dynShared > ProgramBuilder.MAX_SHARED) {
            return refuse(CudaError.INVALID_VALUE, "static plus dynamic shared memory exceeds " + ProgramBuilder.MAX_SHARED + " bytes per CTA");
        }
        if (program.usesDeviceHeap && session.deviceHeap(title()) == null) {
            return refuse(CudaError.MEMORY_ALLOCATION, "the device heap (cudaLimitMallocHeapSize) does not fit in the device's memory");
        }
        byte[] params = new byte[Math.max(program.kernelParamBytes, 1)];
        ByteBuffer a = ByteBuffer.wrap(args).order(ByteOrder.LITTLE_ENDIAN);
        for (Program.KernelParam kp : program.kernelParams) {
            if (a.remaining() < kp.size()) return refuse(CudaError.INVALID_VALUE, "the argument buffer is shorter than the entry's .params");
            a.get(params, kp.offset(), kp.size());
        }
        int ctas = (int) grid.volume();
        int warpsPerCta = (int) ((block.volume() + 31) / 32);
        Memory memory = new Memory(session.device(), module.constBankFor(program), ctas, program.staticSharedBytes + dynShared,
                program.staticSharedBytes, ctas * warpsPerCta * 32, warpsPerCta * 32, program.localPerThread, program.paramPerThread,
                params, program.symbols);
        // A bundle needs the memory as the launch found it: segments are kept as they were before their first write.
        Boolean named = options.bundleDir() != null ? options.kernelMatches(entry) : Boolean.FALSE;
        if (named == null) {
            err.println("barrierscope: --kernel: matching '" + options.kernels().pattern() + "' against " + entry
                    + " took too long (a pattern with nested repetition, such as (a+)+, backtracks without end); this launch gets no bundle");
            err.flush();
        }
        LaunchBundle.Watch watch = Boolean.TRUE.equals(named) ? new LaunchBundle.Watch() : null;
        session.device().watchWrites(both(watch, mirrors));
        Machine machine = new Machine(program, grid, block, cluster, memory);
        machine.explicitCluster = dims[6] != 0 || k.directives().explicitCluster() || k.directives().reqnctapercluster() != null;
        machine.gridWorkspace = gridWorkspace;
        Interpreter in = new Interpreter(machine, Policy.byName(options.policy(), options.seed(), null));
        if (options.race()) RaceDetector.attach(in);
        Outcome o;
        try {
            do {
                o = in.run(options.maxSteps());
            } while (o == Outcome.RUNNING && machine.steps < options.maxSteps());
        } finally {
            session.device().watchWrites(null);
        }
        LaunchBundle.Before before = watch == null ? null : watch.before(session.device(), module);
        for (PrintfLine p : in.printfLines()) out.print(p.text());
        out.flush();
        if (o == Outcome.COMPLETED) {
            if (options.bundles(entry, false)) bundle(program, params, before, o, machine.steps);
            return new Result(CudaError.SUCCESS, machine.cycles, "", 0, null);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(title()).append(": ").append(o.jsonName()).append(" after ").append(machine.steps).append(" warp steps (")
                .append(machine.cycles).append(" cycles), policy ").append(in.policy().name()).append('\n');
        boolean fault = false, assertFailed = false;
        for (Diagnostic dg : in.diagnostics()) {
            sb.append(dg.severity().jsonName()).append(" [").append(dg.code().code()).append("] ").append(dg.message());
            if (!dg.ptxLocations().isEmpty()) sb.append(" (").append(dg.ptxLocations().get(0)).append(')');
            sb.append('\n');
            fault |= dg.code() == DiagnosticCode.MEMORY_FAULT;
            assertFailed |= dg.code() == DiagnosticCode.ASSERT_FAILED;
        }
        if (o == Outcome.DEADLOCK) sb.append(DeadlockExplainer.explain(in).text());
        if (o == Outcome.STEP_LIMIT) sb.append("The step limit of ").append(options.maxSteps()).append(" warp steps was reached.\n");
        int status = switch (o) {
            case DEADLOCK, STEP_LIMIT -> CudaError.LAUNCH_TIMEOUT;
            default -> fault ? CudaError.ILLEGAL_ADDRESS : assertFailed ? CudaError.ASSERT : CudaError.LAUNCH_FAILURE;
        };
        int exit = switch (o) {
            case DEADLOCK -> io.barrierscope.cli.Main.DEADLOCK;
            case STEP_LIMIT -> io.barrierscope.cli.Main.STEP_LIMIT;
            case DIAGNOSED -> io.barrierscope.cli.Main.DIAGNOSED;
            default -> io.barrierscope.cli.Main.TOOL_FAILURE;
        };
        err.print("barrierscope: " + sb);
        err.println("barrierscope: the program gets " + CudaError.name(status) + " from this launch and from every later call that uses the device"
                + " (sticky, as on a GPU: the program must end to use the device again)");
        err.flush();
        java.nio.file.Path written = options.bundles(entry, true) ? bundle(program, params, before, o, machine.steps) : null;
        return new Result(status, machine.cycles, title() + ": " + o.jsonName(), exit, written);
    }
}
