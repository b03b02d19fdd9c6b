package io.barrierscope.launch;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Policy;
import io.barrierscope.exec.Program;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.ScalarType;
import java.util.Map;

/**
 * A launch that {@link LaunchValidation} has read, checked against its PTX and planned down to the
 * byte, with its memory counted for how it will run ({@link LaunchValidation.Use}): the only thing
 * a {@link LaunchedRun} is made from. Nothing past here can refuse it; each {@link #start} places
 * the plan on a fresh machine without reading, parsing or checking anything again.
 *
 * <p>The plan: the cluster shape in force; the launch's memory (see {@link MemoryEstimate}); the
 * address of every buffer, in placement order (buffer arguments, then the launch's "buffers");
 * the kernel's parameter bytes (values, addresses, tensor maps, structs); and the element type of
 * each tensor map's buffer, by address.
 */
public final class ValidatedLaunch {
    private final LaunchSpec spec;
    private final String ptxText;
    private final Module module;
    private final Program program;
    private final LaunchValidation.Use use;
    final Dim3 cluster;
    final MemoryEstimate memory;
    final long[] bufferBases;
    final byte[] params;
    final Map<Long, ScalarType> elementTypes;

    ValidatedLaunch(LaunchSpec spec, String ptxText, Module module, Program program, LaunchValidation.Use use, Dim3 cluster,
                    MemoryEstimate memory, long[] bufferBases, byte[] params, Map<Long, ScalarType> elementTypes) {
        this.spec = spec;
        this.ptxText = ptxText;
        this.module = module;
        this.program = program;
        this.use = use;
        this.cluster = cluster;
        this.memory = memory;
        this.bufferBases = bufferBases;
        this.params = params;
        this.elementTypes = elementTypes;
    }

    /** A run at step 0 under the launch's own policy and seed. */
    public LaunchedRun start() { return start(null, null); }

    /** A run at step 0 under {@code policy} and {@code seed}, each the launch's own when null. */
    public LaunchedRun start(String policy, Long seed) {
        String name = policy != null ? policy : spec.policy();
        long s = seed != null ? seed : spec.seed();
        return new LaunchedRun(this, p -> Policy.byName(name, s, spec.latency()), s);
    }

    /** A run at step 0 scheduled by a policy object of the caller's (a schedule replay, the explorer). */
    public LaunchedRun start(Policy policy) { return new LaunchedRun(this, p -> policy, spec.seed()); }

    public LaunchSpec spec() { return spec; }
    /** The PTX text the launch runs, as it was read. */
    public String ptxText() { return ptxText; }
    public Module module() { return module; }
    public Program program() { return program; }
    /** How the launch was validated to run: its runs start with the race detector as it says. */
    public LaunchValidation.Use use() { return use; }
    /** Estimated bytes of the emulated state (memory, registers, buffers): what one checkpoint of it costs. */
    public long stateBytes() { return memory.stateBytes(); }

    /**
     * Checkpoints an enumerated explore run keeps of its own at most: {@link MemoryEstimate#EXPLORE_CHECKPOINTS_PER_RUN},
     * or fewer when the heap cannot hold that many (see {@link MemoryEstimate#fittedTo}).
     */
    public int exploreCheckpointsPerRun() {
        return (int) Math.max(1, memory.forkCheckpoints() / MemoryEstimate.forkLevels(use.maxDeviations()));
    }

    /**
     * The most one of explore's fork checkpoints may hold in copies of mbarrier objects and operations
     * in flight, as its memory was counted ({@link SyncObjectMemory#checkpointBytes}): explore does not
     * keep one that holds more (docs/reliability.md).
     */
    public long forkCheckpointSyncBytes() { return memory.syncCopyBytes(); }

    /** What running this launch holds on the heap, with the race detector {@code race} and on {@code exploreJobs} machines. */
    public MemoryEstimate memoryEstimate(boolean race, int exploreJobs) { return memory.with(race, exploreJobs); }
}
