package io.barrierscope.launch;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.ptx.Cancellation;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.sync.TensorMap;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one home of launch validation: untrusted input (a launch file, a trace's embedded launch, a
 * bare .ptx or .cu, or a launch built in code) in, a {@link ValidatedLaunch} out, every check on
 * the way made here or in this class's parts, each located in the launch text at file:line:col
 * ({@link JsonLocations}). The parts: {@link LaunchJsonChecks} (the JSON's structure, kinds,
 * scalar ranges and the PTX path as text and on disk), the PTX read and parsed, then the kernel
 * chosen, arguments against the kernel's parameters, grid against cluster, the thread, memory and
 * heap limits (with the race detector and explore's machines as the caller will run them,
 * {@link Use}), every buffer's address, tensor maps against their buffers ({@link TensorMapChecks}),
 * struct parameters and a bundle's device image ({@link StructParams}). {@link LaunchedRun} only
 * places the plan: nothing past here can refuse a launch. Every size is computed exactly (long
 * arithmetic on bounded factors, or {@code Math.*Exact}), so no untrusted number can wrap past a limit.
 */
public final class LaunchValidation {
    /** Threads one launch may have (64 CTAs of 1024). */
    public static final long MAX_THREADS = 64L * 1024;
    /** Bytes of emulated state (memory and registers) one launch may use. */
    public static final long MEMORY_BUDGET = 1L << 30;
    /** PTX text larger than this is refused before it is parsed. */
    public static final long MAX_PTX_BYTES = 64L << 20;

    private LaunchValidation() {}

    /**
     * How the launch will run, for the memory it must fit (docs/reliability.md, "Memory is counted
     * before it is spent"): with the race detector on or off, and on {@code exploreJobs} machines
     * of explore (0: a single run), each schedule at most {@code exploreMaxSteps} warp steps (0: the
     * launch's step limit) under deviation bound {@code maxDeviations}. Its runs start with the
     * race detector as said here.
     */
    public record Use(boolean race, int exploreJobs, long exploreMaxSteps, int maxDeviations) {
        /** A single run with the race detector on: how a launch runs by default. */
        public static final Use RUN = new Use(true, 0);
        /** Explore's deviation bound when none is given (the command line's default). */
        public static final int DEFAULT_DEVIATIONS = 3;

        public Use {
            if (exploreJobs < 0 || exploreMaxSteps < 0 || maxDeviations < 0) {
                throw new IllegalArgumentException("use " + exploreJobs + ", " + exploreMaxSteps + ", " + maxDeviations);
            }
        }

        /** A single run ({@code exploreJobs} 0) or explore under the launch's step limit and the default deviation bound. */
        public Use(boolean race, int exploreJobs) { this(race, exploreJobs, 0, DEFAULT_DEVIATIONS); }
    }

    /** A launch file, or a .ptx or .cu with the defaults of {@link PtxDefaults}, validated for a single run with race detection. */
    public static ValidatedLaunch validate(Path file) { return validate(file, Use.RUN, Cancellation.NONE); }

    /** As {@link #validate(Path)}, its memory counted for {@code use}. */
    public static ValidatedLaunch validate(Path file, Use use) { return validate(file, use, Cancellation.NONE); }

    /** As {@link #validate(Path, Use)}, the PTX parse stopping when {@code cancel} is cancelled (the window's Cancel). */
    public static ValidatedLaunch validate(Path file, Use use, Cancellation cancel) {
        // An empty name was taken as the current folder ("...: the launch file is a directory").
        if (file.toString().isEmpty()) throw new BadInputException("error: the launch file's name is empty; name a launch file, a .ptx or a .cu");
        LaunchSpec spec = specOf(file);
        return validate(spec, readPtx(spec.ptx()), use, cancel);
    }

    /**
     * Launch JSON held in memory, with its PTX text (a trace carries both): {@code file} names the
     * launch in messages and anchors the PTX path, which need not exist on disk.
     */
    public static ValidatedLaunch validateText(Path file, String launchJson, String ptxText, Use use, Cancellation cancel) {
        return validate(LaunchJsonChecks.readText(file, launchJson), ptxText, use, cancel);
    }

    /**
     * Only the checks that need no PTX, on launch JSON held in memory: what {@link #validateText}
     * would refuse in the JSON itself (tests reading a launch they then change; the window's launch
     * editor validates its text whole, with {@link #validateText}).
     */
    public static LaunchSpec checkJson(Path file, String launchJson) { return LaunchJsonChecks.readText(file, launchJson); }

    /**
     * A launch built in code (the window's settings for a bare .ptx, a test's), its PTX read from
     * its path; it meets the launch file's JSON checks too, as the JSON it stands for.
     */
    public static ValidatedLaunch validate(LaunchSpec spec) { return validate(spec, readPtx(spec.ptx()), Use.RUN, Cancellation.NONE); }

    /** As {@link #validate(LaunchSpec)}, its memory counted for {@code use}. */
    public static ValidatedLaunch validate(LaunchSpec spec, Use use) { return validate(spec, readPtx(spec.ptx()), use, Cancellation.NONE); }

    /** As {@link #validate(LaunchSpec)} with the PTX text given. */
    public static ValidatedLaunch validate(LaunchSpec spec, String ptxText) { return validate(spec, ptxText, Use.RUN, Cancellation.NONE); }

    /** Every check of a launch against its PTX, and its plan: the one path every other entry point takes. */
    public static ValidatedLaunch validate(LaunchSpec spec, String ptxText, Use use, Cancellation cancel) {
        // A launch built in code meets the JSON checks too: as the launch file it stands for.
        if (spec.sourceText() == null) spec = asDocument(spec);
        Module module = parse(spec.ptx(), ptxText, cancel);
        Program program = program(spec, module);
        return plan(spec, ptxText, module, program, use);
    }

    /**
     * A launch built in code (the window's settings for a bare .ptx, the command line's defaults, a
     * test's): written as the launch file it stands for ({@link LaunchSpecJson}) and read back
     * through every check of {@link LaunchJsonChecks}, so it meets exactly the checks a file
     * meets, its mistakes located in that text. Its notes are kept.
     */
    private static LaunchSpec asDocument(LaunchSpec built) {
        Path file = built.file().toAbsolutePath().normalize();
        Path ptx = built.ptx().toAbsolutePath().normalize();
        LaunchSpec s = new LaunchSpec(file, ptx, built.kernel(), built.grid(), built.block(), built.cluster(), built.args(),
                built.dynamicSharedBytes(), built.expect(), built.policy(), built.seed(), built.maxSteps(), built.notes(), built.buffers(),
                built.latency(), null, built.device());
        String text = LaunchSpecJson.write(s, s.policy(), s.seed(), s.maxSteps());
        LaunchSpec r = LaunchJsonChecks.readText(file, text, JsonLocations.name(s));
        return new LaunchSpec(r.file(), r.ptx(), r.kernel(), r.grid(), r.block(), r.cluster(), r.args(), r.dynamicSharedBytes(), r.expect(),
                r.policy(), r.seed(), r.maxSteps(), built.notes(), r.buffers(), r.latency(), r.sourceText(), r.device());
    }

    /**
     * The launch a file stands for: a launch file as written; a .ptx, or a .cu compiled with nvcc
     * when it is installed (into a temporary directory, else the message says how), with the
     * defaults of {@link PtxDefaults} (README: the CLI defaults and says so).
     */
    static LaunchSpec specOf(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        if (name.endsWith(".ptx")) return PtxDefaults.spec(file);
        if (name.endsWith(".cu")) {
            LaunchSpec s = PtxDefaults.spec(NvccCompiler.compile(file));
            List<String> notes = new ArrayList<>(s.notes());
            notes.add(0, "compiled " + name + " with nvcc (sm_90a, line info)");
            return new LaunchSpec(s.file(), s.ptx(), s.kernel(), s.grid(), s.block(), s.cluster(), s.args(), s.dynamicSharedBytes(),
                    s.expect(), s.policy(), s.seed(), s.maxSteps(), notes, s.buffers(), s.latency());
        }
        return LaunchJsonChecks.read(file);
    }

    static String readPtx(Path ptx) { return Utf8Text.read(ptx, "PTX file", MAX_PTX_BYTES); }

    static Module parse(Path ptx) { return parse(ptx, readPtx(ptx), Cancellation.NONE); }

    static Module parse(Path ptx, String text, Cancellation cancel) {
        if (text.length() > MAX_PTX_BYTES) throw new BadInputException(ptx + ": error: PTX text larger than 64 MiB");
        try {
            return PtxParser.parse(ptx.toString(), text, cancel);
        } catch (PtxException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    static BadInputException located(LaunchSpec spec, String pointer, String msg) { return JsonLocations.error(spec, pointer, msg); }

    /** The kernel a launch names (or the PTX's only entry) built into a program; a mistake is located at "kernel" or "ptx". */
    static Program program(LaunchSpec spec, Module module) {
        String kernel = spec.kernel();
        if (kernel == null) {
            List<Function> entries = module.entries();
            if (entries.size() != 1) {
                throw located(spec, "/ptx", "the PTX has " + entries.size() + " entries ("
                        + String.join(", ", entries.stream().map(Function::name).toList()) + "); name one with \"kernel\"");
            }
            kernel = entries.get(0).name();
        }
        try {
            return spec.device() == null ? ProgramBuilder.build(module, kernel) : ProgramBuilder.build(module, kernel, spec.device().globalBase());
        } catch (PtxException e) {
            throw new BadInputException(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw located(spec, "/kernel", e.getMessage());
        }
    }

    /**
     * Why a launch past {@link #MEMORY_BUDGET} is refused, by its parts ({@code shared}: the bytes of
     * shared memory per CTA), and which part to shrink: a total alone does not say what to change.
     */
    static String stateBudgetExceeded(long bytes, long slots, long ctas, Program program, long shared, long buffers) {
        long perThread = program.regsPerThread * 8L + program.localPerThread + program.paramPerThread + 32;
        long threadBytes = slots * perThread, sharedBytes = ctas * shared;
        String largest = threadBytes >= sharedBytes && threadBytes >= buffers
                ? (program.localPerThread > program.regsPerThread * 8L ? "the .local arrays or the threads" : "the threads")
                : sharedBytes >= buffers ? "the CTAs or their shared memory" : "the buffers";
        return "the launch needs about " + (bytes >> 20) + " MiB of emulated state: " + slots + " thread slots of " + perThread
                + " bytes (registers " + program.regsPerThread * 8L + ", .local " + program.localPerThread + ", parameters "
                + program.paramPerThread + "), " + ctas + " CTAs of " + shared + " bytes of shared memory, " + buffers
                + " bytes of buffers; one launch may hold at most " + (MEMORY_BUDGET >> 20) + " MiB, whatever the heap:"
                + " shrink " + largest + " for the debugging run";
    }

    /** Checks the launch against its program and plans it; the result is what {@link LaunchedRun} places. */
    static ValidatedLaunch plan(LaunchSpec spec, String ptxText, Module ptx, Program program, Use use) {
        // The CTA limit: not a JSON range (each dimension may be up to 1024), a product of them.
        if (spec.block().volume() > 1024) {
            throw located(spec, "/block", "a CTA has at most 1024 threads; block " + spec.block() + " has " + spec.block().volume());
        }
        // The limits first: a launch too large to emulate is refused as such whatever else is wrong.
        MemoryEstimate memory = limits(spec, ptx, program, use);
        Dim3 cluster = clusterOf(spec, program.kernel);
        params(spec, program);
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            if (a.isTensorMap()) TensorMapChecks.tensorMapExtent(spec, a.tensorMap(), "/args/" + i + "/tensorMap");
        }
        GlobalMemory module = program.globalTemplate;
        List<ArgSpec> placed = new ArrayList<>();
        List<String> pointers = new ArrayList<>();
        for (int i = 0; i < spec.args().size(); i++) {
            if (spec.args().get(i).isBuffer()) {
                placed.add(spec.args().get(i));
                pointers.add("/args/" + i);
            }
        }
        for (int i = 0; i < spec.buffers().size(); i++) {
            placed.add(spec.buffers().get(i));
            pointers.add("/buffers/" + i);
        }
        long[] bases = addresses(spec, module.nextAddress(), placed, pointers);
        // Names resolve as the placed memory would: the module's own variables first, then the buffers in order.
        Map<String, Long> byName = new LinkedHashMap<>();
        for (GlobalMemory.Segment s : module.segments()) byName.putIfAbsent(s.name(), s.base());
        for (int k = 0; k < placed.size(); k++) byName.putIfAbsent(placed.get(k).buffer(), bases[k]);
        byte[] params = new byte[Math.max(program.kernelParamBytes, 1)];
        ByteBuffer pb = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        Map<Long, ScalarType> types = new LinkedHashMap<>();
        int nextBuffer = 0;
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            Program.KernelParam kp = program.kernelParams.get(i);
            if (a.isTensorMap() || a.isStruct()) continue;
            // A buffer argument passes its own address (placed in argument order), not whatever its name resolves to.
            long v = a.isBuffer() ? bases[nextBuffer++] : BufferCodec.bits(a.value(), a.type());
            switch (kp.size()) {
                case 1 -> pb.put(kp.offset(), (byte) v);
                case 2 -> pb.putShort(kp.offset(), (short) v);
                case 4 -> pb.putInt(kp.offset(), (int) v);
                default -> pb.putLong(kp.offset(), v);
            }
        }
        StructParams.Resolver names = name -> byName.get(name);
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            if (a.isTensorMap()) {
                String ptr = "/args/" + i + "/tensorMap";
                TensorMap tm = tensorMap(spec, a.tensorMap(), names, types, ptr);
                pb.put(program.kernelParams.get(i).offset(), tm.encode());
            }
            if (a.isStruct()) {
                StructParams.write(spec, a.extras().struct(), "/args/" + i + "/struct", pb, program.kernelParams.get(i),
                        (t, ptr) -> tensorMap(spec, t, names, types, ptr), names);
            }
        }
        if (spec.device() != null) StructParams.checkImage(spec, spec.device(), program);
        return new ValidatedLaunch(spec, ptxText, ptx, program, use, cluster, memory, bases, params, types);
    }

    /** A tensor map at its buffer's planned address (named as the placed memory resolves it), its element type noted. */
    private static TensorMap tensorMap(LaunchSpec spec, TensorMapSpec t, StructParams.Resolver names, Map<Long, ScalarType> types, String ptr) {
        ArgSpec buf = TensorMapChecks.tensorMapBuffer(spec, t, ptr);
        TensorMap tm = TensorMapChecks.build(spec, t, names.base(t.buffer()), ptr);
        types.put(tm.base(), buf.type());
        return tm;
    }

    /**
     * Every buffer's address: the next free one, or its fixed one (a bundle's buffers keep the
     * addresses the program saw), which must not overlap the module's globals or an earlier buffer.
     */
    private static long[] addresses(LaunchSpec spec, long next, List<ArgSpec> placed, List<String> pointers) {
        long[] bases = new long[placed.size()];
        for (int k = 0; k < placed.size(); k++) {
            ArgSpec a = placed.get(k);
            if (a.address() != null && a.address() < next) {
                throw located(spec, pointers.get(k) + "/address", "buffer '" + a.buffer() + "' at 0x" + Long.toHexString(a.address())
                        + " overlaps the module's globals or an earlier buffer (fixed addresses must ascend, at least 4 KiB apart)");
            }
            // A fixed range must end below the generic windows of the other spaces (as host memory a
            // program registers must): one reaching 2^63 wrapped, and was reported "ending -2048 bytes below".
            if (a.address() != null && Space.SHARED_WINDOW - a.address() < BufferCodec.bytes(a)) {
                throw located(spec, pointers.get(k) + "/address", "buffer '" + a.buffer() + "' at 0x" + Long.toHexString(a.address())
                        + " (" + BufferCodec.bytes(a) + " bytes) reaches past 0x" + Long.toHexString(Space.SHARED_WINDOW - 1)
                        + ": device global memory ends there (higher generic addresses are shared, local, constant and parameter memory)");
            }
            bases[k] = a.address() != null ? a.address() : next;
            next = GlobalMemory.after(bases[k], BufferCodec.bytes(a));
        }
        return bases;
    }

    private static void params(LaunchSpec spec, Program program) {
        String kernel = program.kernel.name();
        if (spec.args().size() != program.kernelParams.size()) {
            throw located(spec, "/args", "kernel " + kernel + " takes " + program.kernelParams.size()
                    + " parameters but the launch file gives " + spec.args().size() + " args");
        }
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            Program.KernelParam kp = program.kernelParams.get(i);
            if (a.isStruct()) {
                StructSpec st = a.extras().struct();
                if (st.bytes() != null ? st.bytes() != kp.size() : st.initial() != null && st.initial().length != kp.size()) {
                    throw located(spec, "/args/" + i + "/struct", "arg " + i + " is a struct of "
                            + (st.bytes() != null ? st.bytes() : st.initial().length) + " bytes but parameter " + kp.name() + " has " + kp.size() + " bytes");
                }
                for (int f = 0; f < st.fields().size(); f++) {
                    StructSpec.Field fl = st.fields().get(f);
                    if (fl.offset() + fl.size() > kp.size()) {
                        throw located(spec, "/args/" + i + "/struct/fields/" + f + "/offset", "a " + fl.size()
                                + "-byte field at offset " + fl.offset() + " does not fit parameter " + kp.name() + " (" + kp.size() + " bytes)");
                    }
                }
                continue;
            }
            if (a.isTensorMap()) {
                if (kp.size() != TensorMap.BYTES) {
                    throw located(spec, "/args/" + i, "arg " + i + " is a tensorMap (128 bytes) but parameter "
                            + kp.name() + " has " + kp.size() + " bytes");
                }
                continue;
            }
            if (a.isBuffer() && kp.size() != 8) {
                throw located(spec, "/args/" + i, "arg " + i + " is a buffer (a 64-bit address) but parameter "
                        + kp.name() + " has " + kp.size() + " bytes");
            }
            if (!a.isBuffer() && kp.size() != a.type().bytes()) {
                throw located(spec, "/args/" + i, "arg " + i + " is a ." + a.type().ptxName() + " value but parameter "
                        + kp.name() + " has " + kp.size() + " bytes");
            }
        }
    }

    private static Dim3 clusterOf(LaunchSpec spec, Function kernel) {
        Dim3 c = spec.cluster();
        int[] d = kernel.directives().reqnctapercluster() != null ? kernel.directives().reqnctapercluster()
                : kernel.directives().clusterDim();
        if (c == null) c = d != null ? new Dim3(d[0], d[1], d[2]) : Dim3.ONE;
        Dim3 g = spec.grid();
        if (g.x() % c.x() != 0 || g.y() % c.y() != 0 || g.z() % c.z() != 0) {
            throw located(spec, spec.cluster() != null ? "/cluster" : "/grid", "grid " + g + " is not a multiple of the cluster " + c);
        }
        if (c.volume() > 16) throw located(spec, "/cluster", "a cluster has at most 16 CTAs; " + c + " has " + c.volume());
        return c;
    }

    /** The CTAs of one cluster, or all of them when the cluster is refused later ({@link #clusterOf}: the limits come first). */
    private static long clusterCtas(LaunchSpec spec, Function kernel, long ctas) {
        try {
            return clusterOf(spec, kernel).volume();
        } catch (BadInputException e) {
            return ctas;
        }
    }

    /** The thread limit, the emulated-state budget and what this Java's heap can hold; returns the launch's memory. */
    private static MemoryEstimate limits(LaunchSpec spec, Module ptx, Program program, Use use) {
        long ctas = spec.grid().volume();
        long sharedPerCta = program.staticSharedBytes + (long) spec.dynamicSharedBytes();
        long threads;
        long slots;
        long bytes;
        try {
            threads = Math.multiplyExact(ctas, spec.block().volume());
            if (threads > MAX_THREADS) throw new ArithmeticException();
            slots = ctas * ((spec.block().volume() + 31) / 32) * 32;
            bytes = Math.addExact(Math.multiplyExact(slots, program.regsPerThread * 8L + program.localPerThread + program.paramPerThread + 32),
                    Math.multiplyExact(ctas, sharedPerCta));
        } catch (ArithmeticException e) {
            throw located(spec, "/grid", "the launch has " + new java.math.BigInteger(String.valueOf(ctas)).multiply(
                    java.math.BigInteger.valueOf(spec.block().volume())) + " threads (" + ctas + " CTAs of " + spec.block().volume()
                    + "); BarrierScope emulates at most " + MAX_THREADS + " threads (64 CTAs x 1024): shrink the grid");
        }
        long buffers = 0;
        List<ArgSpec> all = new ArrayList<>(spec.args());
        all.addAll(spec.buffers());
        boolean heapGiven = false;
        for (ArgSpec a : all) {
            if (!a.isBuffer()) continue;
            buffers = Math.addExact(buffers, Math.multiplyExact(a.count(), (long) a.type().bytes()));
            heapGiven |= io.barrierscope.exec.DeviceHeap.SEGMENT.equals(a.buffer());
        }
        // A kernel that calls malloc or free gets CUDA's default device heap (LaunchedRun), unless the launch brings one.
        long heap = program.usesDeviceHeap && !heapGiven ? io.barrierscope.exec.DeviceHeap.segmentBytes(io.barrierscope.exec.DeviceHeap.DEFAULT_BYTES) : 0;
        buffers += heap;
        bytes = Math.addExact(bytes, buffers);
        if (bytes > MEMORY_BUDGET) {
            throw located(spec, "/grid", stateBudgetExceeded(bytes, slots, ctas, program, sharedPerCta, buffers));
        }
        // Shared memory of every CTA and global memory (buffers and the module's variables) are what
        // the race detector shadows; all bounded by the budget above, so no sum can wrap.
        long shadowable = buffers + program.globalTemplate.totalBytes()
                + ctas * sharedPerCta;
        // The state is held once as the run's memory and once more while being initialised or
        // checkpointed, with the race shadow and explore's machines as the caller will run them: a
        // launch this heap cannot hold is refused now, not by an OutOfMemoryError later.
        long steps = use.exploreMaxSteps() > 0 ? use.exploreMaxSteps() : spec.maxSteps();
        boolean splits = MemoryEstimate.splitsWords(ptx);
        // Read sets: any of the threads and their async agents (four ids per thread slot) may read any cell.
        MemoryEstimate memory = new MemoryEstimate(bytes, buffers, shadowable, use.race(), use.exploreJobs(), splits,
                MemoryEstimate.forkCheckpoints(bytes, steps, use.maxDeviations()), MemoryEstimate.readSetEntries(shadowable, splits, 4 * slots),
                io.barrierscope.check.RaceMemory.stateBytes(ctas, slots / ctas,
                        io.barrierscope.check.RaceMemory.lanesTakeClocksOfTheirOwn(ptx)),
                io.barrierscope.check.RaceMemory.locationStateBytes(ptx), io.barrierscope.check.RaceMemory.joinedClockBytes(program, ctas,
                        clusterCtas(spec, program.kernel, ctas), slots / ctas, sharedPerCta),
                heap).withSyncObjects(
                SyncObjectMemory.liveBytes(program, ctas, slots / ctas, sharedPerCta, use.race()),
                SyncObjectMemory.checkpointBytes(program, ctas, slots / ctas, sharedPerCta,
                        use.race())).withExploreLog(MemoryEstimate.exploreRaceLogBytes(shadowable, ctas, (int) Math.min(Integer.MAX_VALUE, (slots + 31) / 32),
                        steps));
        if (use.exploreJobs() > 0 && !memory.fits(MemoryEstimate.freeHeap())) {
            System.gc(); // what a previous launch left is not a reason to checkpoint less
            memory = memory.fittedTo(MemoryEstimate.freeHeap(), MemoryEstimate.forkLevels(use.maxDeviations()));
        }
        memory.require(spec);
        if (sharedPerCta > ProgramBuilder.MAX_SHARED) {
            throw located(spec, "/dynamicSharedBytes", "static plus dynamic shared memory exceeds "
                    + ProgramBuilder.MAX_SHARED + " bytes per CTA");
        }
        return memory;
    }

}
