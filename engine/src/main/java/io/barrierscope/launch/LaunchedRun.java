package io.barrierscope.launch;

import io.barrierscope.check.Deadlock;
import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Memory;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.Policy;
import io.barrierscope.exec.Program;
import io.barrierscope.ptx.Module;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated launch placed on a fresh machine, ready to step or run: made only from a
 * {@link ValidatedLaunch} ({@link ValidatedLaunch#start}), so every check was made before (by
 * {@link LaunchValidation}) and nothing here can refuse it. The CLI and the window both use it;
 * neither re-implements semantics.
 */
public final class LaunchedRun {
    /** Threads one launch may have (64 CTAs of 1024); checked by {@link LaunchValidation}. */
    public static final long MAX_THREADS = LaunchValidation.MAX_THREADS;
    /** Bytes of emulated state (memory and registers) one launch may use; checked by {@link LaunchValidation}. */
    public static final long MEMORY_BUDGET = LaunchValidation.MEMORY_BUDGET;

    private final LaunchSpec spec;
    private final Module module;
    private final Program program;
    private final Machine machine;
    private final Interpreter interpreter;
    private final Map<String, GlobalMemory.Segment> buffers = new LinkedHashMap<>();
    private final List<ArgSpec> bufferArgs = new ArrayList<>();
    private Deadlock deadlock;
    /** The step the cached deadlock explanation belongs to (time travel moves the run). */
    private long deadlockStep = -1;
    private final String ptxText;
    private final long seed;
    private long stepBudget;
    private final MemoryEstimate memory;

    /** Estimated bytes of the emulated state (memory, registers, buffers): what one checkpoint of it costs. */
    public long stateBytes() { return memory.stateBytes(); }

    /**
     * What running this launch holds on the heap with race detection as it is now set, on
     * {@code exploreJobs} machines (0: a single run, not explored).
     */
    public MemoryEstimate memoryEstimate(int exploreJobs) { return memory.with(raceDetection(), exploreJobs); }

    /** Checkpoints an enumerated explore run keeps of its own at most, as validation fitted them to the heap. */
    public int exploreCheckpointsPerRun() { return valid.exploreCheckpointsPerRun(); }

    /** See {@link ValidatedLaunch#forkCheckpointSyncBytes}. */
    public long forkCheckpointSyncBytes() { return valid.forkCheckpointSyncBytes(); }

    /** The checked and planned launch this run places (shared by {@link #again} copies). */
    private final ValidatedLaunch valid;

    LaunchedRun(ValidatedLaunch valid, java.util.function.Function<Program, Policy> policy, long seed) {
        this.spec = valid.spec();
        this.module = valid.module();
        this.program = valid.program();
        this.ptxText = valid.ptxText();
        this.seed = seed;
        this.valid = valid;
        Dim3 cluster = valid.cluster;
        this.memory = valid.memory;
        // Placing only: every check was made and every address and parameter byte planned before.
        GlobalMemory global = program.globalTemplate.copy();
        List<ArgSpec> placed = new ArrayList<>();
        for (ArgSpec a : spec.args()) if (a.isBuffer()) placed.add(a);
        placed.addAll(spec.buffers());
        for (int k = 0; k < placed.size(); k++) {
            ArgSpec a = placed.get(k);
            buffers.put(a.buffer(), global.mapAt(a.buffer(), valid.bufferBases[k], BufferCodec.initial(a), false));
            bufferArgs.add(a);
        }
        valid.elementTypes.forEach(global::elementType);
        // A kernel that calls malloc or free gets CUDA's default heap, unless the launch brings one (a bundle's buffer of that name).
        if (program.usesDeviceHeap && global.byName(io.barrierscope.exec.DeviceHeap.SEGMENT) == null) {
            global.mapAt(io.barrierscope.exec.DeviceHeap.SEGMENT, global.nextAddress(),
                    io.barrierscope.exec.DeviceHeap.fresh(io.barrierscope.exec.DeviceHeap.DEFAULT_BYTES), false);
        }
        byte[] params = valid.params.clone();
        int ctas = (int) spec.grid().volume();
        int warpsPerCta = (int) ((spec.block().volume() + 31) / 32);
        int slots = ctas * warpsPerCta * 32;
        byte[] constBank = program.constBank.clone();
        if (spec.device() != null) StructParams.applyImage(spec.device(), program, global, constBank);
        Memory memory = new Memory(global, constBank, ctas, program.staticSharedBytes + spec.dynamicSharedBytes(),
                program.staticSharedBytes, slots, warpsPerCta * 32, program.localPerThread, program.paramPerThread, params,
                program.symbols);
        this.machine = new Machine(program, spec.grid(), spec.block(), cluster, memory);
        machine.explicitCluster = spec.cluster() != null || program.kernel.directives().explicitCluster()
                || program.kernel.directives().reqnctapercluster() != null;
        Policy p = policy.apply(program);
        if (spec.latency() != null) p.useLatency(spec.latency());
        this.interpreter = new Interpreter(machine, p);
        // On unless the launch was validated to run without it: a race is undefined behaviour like
        // any other (exit code 4); see raceDetection.
        if (valid.use().race()) io.barrierscope.check.RaceDetector.attach(interpreter);
    }

    /**
     * Turns race detection on (the default) or off; only before the run starts, since the
     * detector must see every access from the first step.
     */
    public LaunchedRun raceDetection(boolean on) {
        if (machine.steps != 0) throw new IllegalStateException("race detection is chosen before the run starts");
        if (on && machine.race == null) io.barrierscope.check.RaceDetector.attach(interpreter);
        if (!on) io.barrierscope.check.RaceDetector.detach(interpreter);
        return this;
    }

    public boolean raceDetection() { return machine.race != null; }

    /**
     * The warp step at which race detection stopped because its read sets reached their cap
     * ({@link io.barrierscope.check.RaceDetector#READ_SET_ENTRY_CAP}; docs/reliability.md), or -1.
     */
    public long raceDetectionStoppedAt() {
        return machine.race instanceof io.barrierscope.check.RaceDetector d ? d.stoppedAtStep() : -1;
    }

    /** {@code bytes} in MiB, or in KiB below 8 MiB (a launch's clock reservation may be small). */
    private static String sizeOf(long bytes) { return bytes >= 8L << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB"; }

    /** The run's note when race detection stopped early, or null. */
    public String raceDetectionNote() {
        long at = raceDetectionStoppedAt();
        if (at < 0) return null;
        if (machine.race instanceof io.barrierscope.check.RaceDetector d && d.stoppedByLocationState()) {
            return "race detection stopped at warp step " + at + ": its per-location synchronization state (the clocks released"
                    + " to each location a strong access wrote, by CTA and scope) reached " + (io.barrierscope.check.RaceDetector.LOCATION_STATE_CAP >> 20)
                    + " MiB, the most a run keeps (docs/reliability.md); races after that step are not reported";
        }
        if (machine.race instanceof io.barrierscope.check.RaceDetector d && d.stoppedByClocks()) {
            // Exact: the count that stopped it and the bound it passed, and for an async kernel what its copies in flight kept.
            long[] s = d.clocksAtStop();
            long cap = io.barrierscope.check.RaceMemory.runClockCap(d);
            String why = "race detection stopped at warp step " + at + ": its vector clocks (clocks joined from other CTAs and mbarrier phases)"
                    + " took " + s[0] + " bytes at that step (" + sizeOf(s[0]) + "), past the " + s[1] + " it stops at: what the launch counts"
                    + " per thread and the " + sizeOf(cap) + " this launch keeps beyond, less an eighth (docs/reliability.md)";
            if (io.barrierscope.check.RaceMemory.issuesAsyncOperations(program)) {
                why += "; that " + sizeOf(cap) + " is a reservation, as the kernel has async operations: " + s[2] + " copies were in flight"
                        + " and their views kept " + s[3] + " clocks their issuers no longer hold, where it has room for one per thread slot ("
                        + machine.slots + ")";
            }
            return why + "; races after that step are not reported";
        }
        return "race detection stopped at warp step " + at + ": its read sets (reads of one word by threads not ordered with each other)"
                + " reached " + io.barrierscope.check.RaceDetector.READ_SET_ENTRY_CAP + " entries, the most a run keeps"
                + " (docs/reliability.md); races after that step are not reported";
    }

    /** The validated launch this run places. */
    public ValidatedLaunch launch() { return valid; }

    /**
     * A fresh run (step 0) of this same validated launch, scheduled by {@code policy}: nothing is
     * read, parsed or checked again (explore's jobs, a trace run again for a diff).
     */
    public LaunchedRun again(Policy policy) { return again(p -> policy, seed); }

    /** As {@link #again(Policy)} under policy {@code policy} by name and {@code seed}, with this launch's latency model. */
    public LaunchedRun again(String policy, long seed) { return again(p -> Policy.byName(policy, seed, spec.latency()), seed); }

    private LaunchedRun again(java.util.function.Function<Program, Policy> policy, long seed) {
        LaunchedRun r = new LaunchedRun(valid, policy, seed);
        r.carried.putAll(carried);
        return r;
    }

    public LaunchSpec spec() { return spec; }
    public Module module() { return module; }
    public Program program() { return program; }
    public Machine machine() { return machine; }
    public Interpreter interpreter() { return interpreter; }
    public Path ptxPath() { return spec.ptx(); }
    /** CUDA sources that came with the launch (from a trace), by the name the PTX's .file gives. */
    private final Map<String, String> carried = new LinkedHashMap<>();

    /** Keeps a CUDA source that came with the launch (a trace carries its .cu files). */
    public void carrySource(String name, String text) { carried.put(name, text); }

    /** A CUDA source that came with the launch, or null. */
    public String carriedSource(String name) { return carried.get(name); }

    /**
     * The CUDA sources the PTX names that can be had: those that came with the launch, else read
     * from beside the PTX (at most 8 MiB each); for writing a trace that shows its source anywhere.
     */
    public Map<String, String> cudaSources() {
        Map<String, String> out = new LinkedHashMap<>();
        Path dir = spec.ptx().toAbsolutePath().getParent();
        for (String name : module.files().values()) {
            if (out.containsKey(name)) continue;
            String text = carried.get(name);
            if (text == null && dir != null && isSourceName(name)) {
                try {
                    Path p = dir.resolve(name).normalize();
                    if (Files.isRegularFile(p) && Files.size(p) <= (8L << 20)) text = Files.readString(p);
                } catch (IOException | java.nio.file.InvalidPathException | java.io.UncheckedIOException e) {
                    text = null; // unreadable or not UTF-8: the trace simply goes without it
                }
            }
            if (text != null) out.put(name, text);
        }
        return out;
    }

    /** Extensions of the CUDA and C/C++ sources nvcc names in `.file` lines. */
    private static final java.util.Set<String> SOURCE_EXTENSIONS = java.util.Set.of("cu", "cuh", "h", "hh", "hpp", "hxx",
            "c", "cc", "cpp", "cxx", "inl", "inc", "ipp", "tcc");

    /**
     * Whether a `.file` name may be read into a trace: only source files by their extension, so a
     * PTX that names another file (a key, a password file) cannot carry it into a trace someone
     * shares.
     */
    static boolean isSourceName(String name) {
        int dot = name.lastIndexOf('.');
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        return dot > slash + 1 && SOURCE_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(java.util.Locale.ROOT));
    }

    /** The PTX text the launch runs (as read when it was opened). */
    public String ptxText() { return ptxText; }
    /** The policy in effect. */
    public String policyName() { return interpreter.policy().name(); }
    public long maxSteps() { return spec.maxSteps(); }
    /** The seed in effect (the command line's, else the launch file's). */
    public long seed() { return seed; }

    /** The step limit a driver other than {@link #runToEnd(long)} enforces (time travel), for the summary. */
    public void useStepLimit(long maxSteps) { stepBudget = maxSteps; }

    /** Runs to the end or the step limit; a brkpt pauses and the run continues past it. */
    public Outcome runToEnd() { return runToEnd(spec.maxSteps()); }

    public Outcome runToEnd(long maxSteps) {
        stepBudget = maxSteps;
        Outcome o;
        do {
            o = interpreter.run(maxSteps);
        } while (o == Outcome.RUNNING && machine.steps < maxSteps);
        return o;
    }

    /** The deadlock explanation, once the run ended in deadlock; else null. */
    public Deadlock deadlock() {
        if (interpreter.outcome() != Outcome.DEADLOCK) return null;
        if (deadlock == null || deadlockStep != machine.steps) {
            deadlock = DeadlockExplainer.explain(interpreter);
            deadlockStep = machine.steps;
        }
        return deadlock;
    }

    public String deadlockText() {
        Deadlock d = deadlock();
        return d == null ? null : d.text();
    }

    /**
     * Contents of every launch buffer now, decoded by its element type: a copy of the bytes read
     * through a list that decodes on access (no boxed copy of a large buffer).
     */
    public Map<String, List<Number>> buffers() { return buffers(Integer.MAX_VALUE); }

    /** As {@link #buffers()}, each list cut to its first {@code limit} elements (a report embeds that many). */
    public Map<String, List<Number>> buffers(int limit) {
        Map<String, List<Number>> out = new LinkedHashMap<>();
        for (ArgSpec a : bufferArgs) {
            byte[] d = buffers.get(a.buffer()).data();
            int keep = (int) Math.min(d.length, (long) limit * a.type().bytes());
            out.put(a.buffer(), BufferCodec.view(java.util.Arrays.copyOf(d, keep), a.type(), limit));
        }
        return out;
    }

    /** Elements of each launch buffer, by name. */
    public Map<String, Long> bufferElements() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (ArgSpec a : bufferArgs) out.put(a.buffer(), (long) buffers.get(a.buffer()).data().length / a.type().bytes());
        return out;
    }

    /** A hash of every buffer's bytes (deterministic), to tell end states apart without decoding them. */
    public int buffersHash() {
        int h = 1;
        for (ArgSpec a : bufferArgs) h = 31 * h + java.util.Arrays.hashCode(buffers.get(a.buffer()).data());
        return h;
    }

    /**
     * A 64-bit hash of every buffer's bytes (deterministic): what explore tells distinct end states
     * apart by, where the 32-bit {@link #buffersHash} would merge outcomes once in about 2^16 distinct ones.
     */
    public long buffersHash64() {
        long h = 0x9E3779B97F4A7C15L;
        for (ArgSpec a : bufferArgs) {
            byte[] d = buffers.get(a.buffer()).data();
            h = mix64(h ^ d.length);
            int i = 0;
            for (; i + 8 <= d.length; i += 8) h = mix64(h ^ (long) LONGS.get(d, i));
            long tail = 0;
            for (int k = 0; i < d.length; i++, k += 8) tail |= (d[i] & 0xFFL) << k;
            h = mix64(h ^ tail);
        }
        return h;
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** A strong 64-bit mixer (MurmurHash3's finaliser, after a multiply), so every input bit reaches every output bit. */
    private static long mix64(long k) {
        k *= 0x9E3779B97F4A7C15L;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** Compares the run with the launch file's expect block; empty when it was met (or there is none). */
    public List<String> expectDifferences() {
        // Live views: compared element by element from the run's own bytes, nothing copied.
        Map<String, List<Number>> live = new LinkedHashMap<>();
        for (ArgSpec a : bufferArgs) live.put(a.buffer(), BufferCodec.view(buffers.get(a.buffer()).data(), a.type(), Integer.MAX_VALUE));
        return ExpectChecker.differences(spec.expect(), interpreter.outcome(), interpreter.diagnostics(), live);
    }

    /** A few lines for people: the outcome, counts, diagnostics, deadlock explanation. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        Outcome o = interpreter.outcome();
        sb.append(program.kernel.name()).append(": ").append(o.jsonName()).append(" after ").append(machine.steps)
                .append(" warp steps (").append(machine.threadInstructions).append(" thread instructions, ")
                .append(machine.cycles).append(" cycles), policy ").append(interpreter.policy().name()).append('\n');
        for (Diagnostic d : interpreter.diagnostics()) {
            sb.append(d.severity().jsonName()).append(" [").append(d.code().code()).append("] ").append(d.message());
            if (!d.ptxLocations().isEmpty()) sb.append(" (").append(d.ptxLocations().get(0)).append(')');
            sb.append('\n');
        }
        if (raceDetectionNote() != null) sb.append("note: ").append(raceDetectionNote()).append('\n');
        if (o == Outcome.DEADLOCK) sb.append(deadlockText());
        if (o == Outcome.STEP_LIMIT) sb.append("The step limit of ").append(stepBudget > 0 ? stepBudget : spec.maxSteps()).append(" warp steps was reached.\n");
        return sb.toString();
    }
}
