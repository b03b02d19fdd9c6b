package io.barrierscope.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * What a launch's run holds on the heap, counted before it starts (docs/reliability.md, "Memory is
 * counted before it is spent"): the emulated state of every machine (one, or one per explore job),
 * the race detector's shadow memory of each when it is on, and the checkpoints (one copy of the
 * state while it is initialised or checkpointed; explore's start checkpoint per job and at least
 * one fork checkpoint). The shadow is counted at its worst, every word of global and shared
 * memory touched: {@value #SHADOW_BYTES_PER_WORD} bytes per 4-byte word (check/RaceShadow keeps
 * five longs per word cell). Pure arithmetic on what it is given, so it is tested against any limit.
 *
 * @param stateBytes emulated state of one machine: registers, local, parameters, shared memory, buffers
 * @param bufferBytes the buffers' part of it
 * @param shadowableBytes global (buffers and module variables) and shared memory the race detector shadows
 * @param race whether race detection is on
 * @param exploreJobs machines explore runs at once, or 0 for a single run
 */
public record MemoryEstimate(long stateBytes, long bufferBytes, long shadowableBytes, boolean race, int exploreJobs) {
    /** Shadow bytes per 4-byte word the race detector may touch (five longs per cell). */
    public static final long SHADOW_BYTES_PER_WORD = 40;

    /** One named share of the total. */
    public record Part(String name, long bytes) {}

    /** The race detector's shadow of one machine, at its worst (0 when it is off). */
    public long shadowBytes() { return race ? (shadowableBytes + 3) / 4 * SHADOW_BYTES_PER_WORD : 0; }

    /** The parts, in the order a message names them (the numbers stay far below 2^63: state is at most 1 GiB, jobs 1024). */
    public List<Part> parts() {
        int machines = Math.max(1, exploreJobs);
        String times = machines > 1 ? " of " + machines + " machines" : "";
        List<Part> out = new ArrayList<>();
        out.add(new Part("emulated state" + times, stateBytes * machines));
        if (race) out.add(new Part("race shadow" + times, shadowBytes() * machines));
        long checkpoints = exploreJobs == 0 ? stateBytes : exploreJobs * stateBytes + stateBytes + shadowBytes();
        out.add(new Part(exploreJobs == 0 ? "a copy while initialised or checkpointed"
                : "explore's checkpoints (" + exploreJobs + " start, 1 fork)", checkpoints));
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
        else if (race && exploreJobs == 0) advice += ", or run without the race detector (--no-race)";
        return LaunchValidation.located(spec, bufferBytes > stateBytes / 2 ? "/args" : "/grid", "the launch needs about " + mib(total())
                + " (" + describe() + "; " + mib(bufferBytes) + " of the state is buffers) but this Java has about " + mib(free)
                + " free of " + mib(max) + ": " + advice);
    }

    /** Refuses (with the numbers) when the total cannot fit this Java's heap, after one collection of what a previous run left. */
    public void require(LaunchSpec spec) {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (fits(free)) return;
        // The heap may still hold a previous run's state (explore makes one launch per schedule):
        // collected once before refusing, so only a launch that truly cannot fit is refused.
        System.gc();
        free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (!fits(free)) throw refusal(spec, free, rt.maxMemory());
    }

    static String mib(long bytes) { return (bytes >> 20) + " MiB"; }
}
