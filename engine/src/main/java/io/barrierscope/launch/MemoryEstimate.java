package io.barrierscope.launch;

import io.barrierscope.check.RaceDetector;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import java.util.ArrayList;
import java.util.List;

/**
 * What a launch's run holds on the heap, counted before it starts (docs/reliability.md, "Memory is
 * counted before it is spent"): the emulated state of every machine (one, or one per explore job),
 * the race detector's shadow memory of each when it is on, and the checkpoints (one copy of the
 * state while it is initialised or checkpointed; explore's start checkpoint per job and the fork
 * checkpoints of the runs whose alternatives it enumerates). The shadow is counted at its worst,
 * every word of global and shared memory touched: {@value #SHADOW_BYTES_PER_WORD} bytes per 4-byte
 * word (check/RaceShadow keeps four longs and two ints per word cell) and, when the kernel has an
 * access narrower than a word (which splits a word into byte cells, a page of them at a time),
 * {@value #SPLIT_SHADOW_BYTES_PER_BYTE} bytes more per byte; and its read sets (reads of one cell by
 * threads unordered with each other) at their worst, one entry per reader and cell but never more
 * than the detector keeps ({@link RaceDetector#READ_SET_ENTRY_CAP}: past it detection stops), with
 * the per-page arrays that hold them; and the detector's vector clocks and scoped state, by the
 * per-thread and per-CTA formula of {@link io.barrierscope.check.RaceMemory#stateBytes}. Pure arithmetic on what it
 * is given, so it is tested against any limit.
 *
 * @param stateBytes emulated state of one machine: registers, local, parameters, shared memory, buffers
 * @param bufferBytes the buffers' part of it
 * @param shadowableBytes global (buffers and module variables) and shared memory the race detector shadows
 * @param race whether race detection is on
 * @param exploreJobs machines explore runs at once, or 0 for a single run
 * @param splitsWords whether the kernel accesses memory narrower than a 4-byte word (byte cells counted)
 * @param forkCheckpoints explore's fork checkpoints at most alive at once (see {@link #forkCheckpoints(long, long, int)})
 * @param readSetEntries read-set entries one shadow can hold at most (see {@link #readSetEntries(long, boolean, long)})
 * @param raceStateBytes the race detector's other state of one machine, vector clocks and scoped
 *        state, when it is on ({@link io.barrierscope.check.RaceMemory#stateBytes}: per thread and per CTA)
 * @param locationStateBytes the race detector's per-location synchronization state of one machine at
 *        most ({@link io.barrierscope.check.RaceMemory#locationStateBytes}: its cap, for a kernel with
 *        strong accesses); counted once per machine, since checkpoints share its locations' records,
 *        and each fork checkpoint's copy of its map besides ({@link #locationMapCopyBytes})
 * @param joinedClockBytes the clocks beyond {@code raceStateBytes} one machine may hold
 *        ({@link io.barrierscope.check.RaceMemory#joinedClockBytes}: a bound on every clock the
 *        detector can hold, at most their cap, for a kernel whose threads acquire clocks of other
 *        CTAs or of mbarrier phases); counted once per machine
 * @param deviceHeapBytes the part of {@code bufferBytes} that is CUDA's default device heap, mapped
 *        for a kernel that calls malloc or free (0 when it does not, or the launch brings its own):
 *        a refusal names it, since its shadow and read sets are what make such a launch large
 * @param syncObjectBytes one machine's mbarrier objects and operations in flight at most ({@link SyncObjectMemory#liveBytes})
 * @param syncCopyBytes one fork checkpoint's copies of them, which explore keeps each fork checkpoint
 *        within ({@link SyncObjectMemory#checkpointBytes})
 * @param exploreLogBytes explore's race-first log of one enumerating run and its analysis at most
 *        ({@link #exploreRaceLogBytes}); counted once, and only when explore runs ({@code exploreJobs} above 0)
 */
public record MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                             boolean splitsWords, long forkCheckpoints, long readSetEntries, long raceStateBytes,
                             long locationStateBytes, long joinedClockBytes, long deviceHeapBytes, long syncObjectBytes,
                             long syncCopyBytes, long exploreLogBytes) {

    /** Without explore's race-first log counted. */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                          boolean splitsWords, long forkCheckpoints, long readSetEntries, long raceStateBytes,
                          long locationStateBytes, long joinedClockBytes, long deviceHeapBytes, long syncObjectBytes, long syncCopyBytes) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries, raceStateBytes,
                locationStateBytes, joinedClockBytes, deviceHeapBytes, syncObjectBytes, syncCopyBytes, 0);
    }

    /** The same launch with explore's race-first log counted ({@link #exploreRaceLogBytes}). */
    public MemoryEstimate withExploreLog(long bytes) {
        return new MemoryEstimate(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries,
                raceStateBytes, locationStateBytes, joinedClockBytes, deviceHeapBytes, syncObjectBytes, syncCopyBytes, bytes);
    }

    /** Entries and footprint keys past which explore's race-first log of a run stops growing (explore/RaceFirst). */
    public static final int EXPLORE_RACE_LOG_ENTRIES = 1 << 16;
    public static final long EXPLORE_RACE_LOG_KEYS = 1L << 20;

    /**
     * Explore's race-first log of one enumerating run at most, and the maps its analysis builds
     * (explore/RaceFirst, explore/TraceLog): per entry its arrays (grown by doubling), its footprint
     * and the warps it enabled; per key 8 bytes, the last entry passing the cap by at most a step's
     * 512 words; per distinct key two map entries (about 120 bytes each). Distinct keys are at most
     * the words the race detector shadows (a word, or an mbarrier in shared memory), 16 CTA barriers
     * and a cluster barrier per CTA, and the fence; entries at most the run's {@code maxSteps}, keys
     * at most 513 a step. One log is alive at a time (the main machine's run).
     */
    public static long exploreRaceLogBytes(long shadowableBytes, long ctas, int warps, long maxSteps) {
        long warpBits = 16 + 8 * ((Math.max(1, warps) + 63) / 64L);
        long entries = Math.min(EXPLORE_RACE_LOG_ENTRIES + 1L, Math.max(1, maxSteps));
        long keys = Math.min(EXPLORE_RACE_LOG_KEYS + 512, Math.max(1, maxSteps) * 513);
        long distinct = Math.min(keys, shadowableBytes / 2 + 17 * ctas + 1);
        return entries * (2 * 36 + 32 + 2 * warpBits + 80) + keys * 8 + distinct * 2 * 120;
    }

    /** Without mbarrier objects or operations in flight counted. */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                          boolean splitsWords, long forkCheckpoints, long readSetEntries, long raceStateBytes,
                          long locationStateBytes, long joinedClockBytes, long deviceHeapBytes) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries, raceStateBytes,
                locationStateBytes, joinedClockBytes, deviceHeapBytes, 0, 0);
    }

    /** The same launch with its mbarrier objects and operations in flight counted (live, and per fork checkpoint). */
    public MemoryEstimate withSyncObjects(long live, long perCheckpoint) {
        return new MemoryEstimate(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries,
                raceStateBytes, locationStateBytes, joinedClockBytes, deviceHeapBytes, live, perCheckpoint, exploreLogBytes);
    }

    /**
     * Without clocks joined from other CTAs counted (a kernel whose threads only synchronize within
     * their CTA) nor a default device heap among the buffers.
     */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                          boolean splitsWords, long forkCheckpoints, long readSetEntries, long raceStateBytes, long locationStateBytes) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries, raceStateBytes,
                locationStateBytes, 0, 0);
    }

    /** Shadow bytes per 4-byte word the race detector may touch (four longs and two ints per cell). */
    public static final long SHADOW_BYTES_PER_WORD = 40;
    /** Shadow bytes per byte of a page whose words a narrower access splits (a 40-byte cell per byte, and the split flags). */
    public static final long SPLIT_SHADOW_BYTES_PER_BYTE = 41;
    /** Warp steps between explore's checkpoints of a run whose alternatives it enumerates, for a small state. */
    public static final int EXPLORE_CHECKPOINT_INTERVAL = 256;
    /** Above 256 times this, explore's checkpoint interval grows with the state: one step per this many bytes. */
    public static final long EXPLORE_CHECKPOINT_BYTES_PER_STEP = 64;
    /**
     * Checkpoints one enumerated run keeps of its own at most: past it the run keeps every other one
     * and checkpoints half as often (explore/Explorer), so a long run costs a bounded number.
     */
    public static final int EXPLORE_CHECKPOINTS_PER_RUN = 64;

    /** A single run's or explore's estimate for a kernel without narrow accesses, with one fork checkpoint and no read sets. */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, false, 1, 0);
    }

    /** Without the detector's clocks, scoped and per-location state counted (a launch whose shape is not known). */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                          boolean splitsWords, long forkCheckpoints, long readSetEntries) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries, 0, 0);
    }

    /** Without read sets (a launch whose threads never read a word concurrently). */
    public MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs,
                          boolean splitsWords, long forkCheckpoints) {
        this(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, 0);
    }

    /** The same launch's memory with the race detector {@code race} and on {@code exploreJobs} machines. */
    public MemoryEstimate with(boolean race, int exploreJobs) {
        return new MemoryEstimate(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, forkCheckpoints, readSetEntries,
                raceStateBytes, locationStateBytes, joinedClockBytes, deviceHeapBytes, syncObjectBytes, syncCopyBytes, exploreLogBytes);
    }

    /** The same launch explored with {@code forkCheckpoints} fork checkpoints alive at most. */
    public MemoryEstimate withForkCheckpoints(long forkCheckpoints) {
        return new MemoryEstimate(stateBytes, bufferBytes, shadowableBytes, race, exploreJobs, splitsWords, Math.max(1, forkCheckpoints),
                readSetEntries, raceStateBytes, locationStateBytes, joinedClockBytes, deviceHeapBytes, syncObjectBytes, syncCopyBytes,
                exploreLogBytes);
    }

    /** Shadow cells: one per word of {@code shadowableBytes}, and one per byte more when narrow accesses split words. */
    static long shadowCells(long shadowableBytes, boolean splitsWords) {
        return (shadowableBytes + 3) / 4 + (splitsWords ? shadowableBytes : 0);
    }

    /**
     * The read-set entries one shadow can hold: one per cell and reader id ({@code readers}: the
     * threads and their async agents), never more than the detector keeps.
     */
    public static long readSetEntries(long shadowableBytes, boolean splitsWords, long readers) {
        long cells = shadowCells(shadowableBytes, splitsWords);
        if (readers <= 0 || cells == 0) return 0;
        return cells > RaceDetector.READ_SET_ENTRY_CAP / readers ? RaceDetector.READ_SET_ENTRY_CAP
                : Math.min(RaceDetector.READ_SET_ENTRY_CAP, cells * readers);
    }

    /** Explore's checkpoint interval for a state of {@code stateBytes}: the steps between two checkpoints of a run. */
    public static long exploreCheckpointInterval(long stateBytes) {
        return Math.max(EXPLORE_CHECKPOINT_INTERVAL, stateBytes / EXPLORE_CHECKPOINT_BYTES_PER_STEP);
    }

    /**
     * The enumerated runs explore holds alive at once: the default run and one per deviation level
     * below the bound, {@code max(1, maxDeviations)}, and one more while a frame is run again to
     * list what it skipped.
     */
    public static long forkLevels(int maxDeviations) { return Math.max(1, maxDeviations) + 1L; }

    /**
     * The checkpoints one enumerated run of at most {@code maxSteps} steps would keep of its own:
     * one per interval, never more than {@link #EXPLORE_CHECKPOINTS_PER_RUN}.
     */
    public static long checkpointsPerRun(long stateBytes, long maxSteps) {
        long interval = exploreCheckpointInterval(stateBytes);
        return Math.min(EXPLORE_CHECKPOINTS_PER_RUN, Math.max(1, (maxSteps + interval - 1) / interval));
    }

    /** The fork checkpoints explore holds at most: {@link #forkLevels} runs of {@link #checkpointsPerRun} each. */
    public static long forkCheckpoints(long stateBytes, long maxSteps, int maxDeviations) {
        return forkLevels(maxDeviations) * checkpointsPerRun(stateBytes, maxSteps);
    }

    /**
     * The same explore with fewer checkpoints per run when all of them would not fit {@code free}
     * bytes: a fork checkpoint only saves re-running a prefix, so a heap too small for 64 per run
     * gets fewer (halved until the total fits, down to one per run) rather than a refusal. The
     * result's {@code forkCheckpoints} stays a multiple of {@code levels}.
     */
    public MemoryEstimate fittedTo(long free, long levels) {
        if (exploreJobs == 0) return this;
        long perRun = Math.max(1, forkCheckpoints / levels);
        MemoryEstimate e = this;
        while (perRun > 1 && !e.fits(free)) {
            perRun /= 2;
            e = withForkCheckpoints(levels * perRun);
        }
        return e;
    }

    /** The free heap now: the most it may use minus what it holds. */
    public static long freeHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    /**
     * Whether any instruction of the module accesses memory narrower than a 4-byte word (an 8- or
     * 16-bit ld, st, atom or red, unless a vector makes it a whole word): such an access splits
     * the shadow's word cells into byte cells. Natural alignment (PTX ISA 6.4) keeps every wider
     * access on whole words; copies (cp.async, bulk, tensor) move whole 4- or 16-byte units.
     */
    static boolean splitsWords(Module module) {
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) {
                String op = in.opcode();
                if (!(op.equals("ld") || op.equals("ldu") || op.equals("st") || op.equals("atom") || op.equals("red")
                        || op.equals("multimem"))) continue;
                int size = 0;
                int vector = 1;
                for (String m : in.modifiers()) {
                    switch (m) {
                        case ".u8", ".s8", ".b8" -> size = 1;
                        case ".u16", ".s16", ".b16", ".f16", ".bf16", ".e4m3x2", ".e5m2x2" -> size = 2;
                        case ".v2" -> vector = 2;
                        case ".v4" -> vector = 4;
                        case ".v8" -> vector = 8;
                        default -> { }
                    }
                }
                if (size > 0 && size * vector < 4) return true;
            }
        }
        return false;
    }

    /** One named share of the total. */
    public record Part(String name, long bytes) {}

    /** The race detector's shadow cells of one machine, at their worst (0 when it is off). */
    public long shadowBytes() {
        if (!race) return 0;
        return (shadowableBytes + 3) / 4 * SHADOW_BYTES_PER_WORD + (splitsWords ? shadowableBytes * SPLIT_SHADOW_BYTES_PER_BYTE : 0);
    }

    /**
     * The read sets of one machine's shadow at their worst (0 when the detector is off): each
     * entry, and the array of a page's read sets (8 KiB at most, one per set of two or more
     * entries, never more than 8 bytes per cell).
     */
    public long readSetBytes() {
        if (!race || readSetEntries == 0) return 0;
        long arrays = Math.min((readSetEntries + 1) / 2 * 8192, shadowCells(shadowableBytes, splitsWords) * 8);
        return readSetEntries * RaceDetector.READ_SET_BYTES_PER_ENTRY + arrays;
    }

    /** One checkpoint's copy of the per-location map at most (0 when the detector is off or the kernel has no strong access). */
    public long locationMapCopyBytes() {
        return race ? io.barrierscope.check.RaceMemory.locationMapCopyBytes(locationStateBytes) : 0;
    }

    /** The race detector's vector clocks and scoped state of one machine (0 when it is off). */
    public long raceClockBytes() { return race ? raceStateBytes : 0; }

    /**
     * The parts, in the order a message names them (the numbers stay far below 2^63: state is at
     * most 1 GiB, jobs 1024, forks 640, read sets at most 2^20 entries).
     */
    public List<Part> parts() {
        int machines = Math.max(1, exploreJobs);
        String times = machines > 1 ? " of " + machines + " machines" : "";
        List<Part> out = new ArrayList<>();
        out.add(new Part("emulated state" + times, stateBytes * machines));
        if (race) out.add(new Part("race shadow" + times, shadowBytes() * machines));
        if (readSetBytes() > 0) out.add(new Part("race read sets (" + readSetEntries + " entries)" + times, readSetBytes() * machines));
        if (raceClockBytes() > 0) out.add(new Part("race clocks" + times, raceClockBytes() * machines));
        if (race && locationStateBytes > 0) out.add(new Part("race location state" + times, locationStateBytes * machines));
        if (race && joinedClockBytes > 0) out.add(new Part("race joined clocks" + times, joinedClockBytes * machines));
        if (syncObjectBytes > 0) out.add(new Part("mbarriers and async operations in flight" + times, syncObjectBytes * machines));
        if (exploreJobs > 0 && exploreLogBytes > 0) out.add(new Part("explore's race-first log", exploreLogBytes));
        long checkpoints = exploreJobs == 0 ? stateBytes
                : exploreJobs * stateBytes + forkCheckpoints * (stateBytes + shadowBytes() + readSetBytes() + raceClockBytes() + locationMapCopyBytes()
                        + syncCopyBytes);
        out.add(new Part(exploreJobs == 0 ? "a copy while initialised or checkpointed"
                : "explore's checkpoints (" + exploreJobs + " start, " + forkCheckpoints + " fork)", checkpoints));
        return out;
    }
    public long total() {
        long t = 0;
        for (Part p : parts()) t += p.bytes();
        return t;
    }

    /** "emulated state 128 MiB, race shadow 1280 MiB, ...": the parts with their sizes. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts()) sb.append(sb.length() == 0 ? "" : ", ").append(p.name()).append(' ').append(mib(p.bytes()));
        return sb.toString();
    }

    /** Whether the total fits in {@code free} bytes. */
    public boolean fits(long free) { return total() <= free; }

    /**
     * The refusal when the total does not fit {@code free} bytes of a heap of {@code max}, naming
     * every part; located in the launch text at its buffers when they dominate, else at its grid.
     */
    public BadInputException refusal(LaunchSpec spec, long free, long max) {
        String advice = "give it more with -Xmx or shrink the buffers";
        if (exploreJobs > 1) advice += ", or explore with fewer --jobs";
        if (race && exploreJobs == 0) advice += ", or run without the race detector (--no-race)";
        return LaunchValidation.located(spec, bufferBytes > stateBytes / 2 ? "/args" : "/grid", "the launch needs about " + mib(total())
                + " (" + describe() + "; " + mib(bufferBytes) + " of the state is buffers" + deviceHeapNote() + ") but this Java has about "
                + mib(free) + " free of " + mib(max) + ": " + advice);
    }

    /** For a refusal: the default device heap among the buffers, and what the race detector counts for it. */
    private String deviceHeapNote() {
        if (deviceHeapBytes == 0) return "";
        String shadow = !race ? "" : "its race shadow is " + mib((deviceHeapBytes + 3) / 4 * SHADOW_BYTES_PER_WORD
                + (splitsWords ? deviceHeapBytes * SPLIT_SHADOW_BYTES_PER_BYTE : 0)) + " of the above, its read sets counted as any buffer's; ";
        return ", " + mib(deviceHeapBytes) + " of them CUDA's default device heap, mapped because the kernel calls malloc or free ("
                + shadow + "a buffer named " + io.barrierscope.exec.DeviceHeap.SEGMENT + " in the launch's \"buffers\" is taken as a smaller heap)";
    }

    /** Refuses (with the numbers) when the total cannot fit this Java's heap, after one collection of what a previous run left. */
    public void require(LaunchSpec spec) {
        Runtime rt = Runtime.getRuntime();
        long free = freeHeap();
        if (fits(free)) return;
        // The heap may still hold a previous run's state (explore makes one launch per schedule):
        // collected once before refusing, so only a launch that truly cannot fit is refused.
        System.gc();
        free = freeHeap();
        if (!fits(free)) throw refusal(spec, free, rt.maxMemory());
    }

    static String mib(long bytes) { return (bytes >> 20) + " MiB"; }
}
