package io.barrierscope.explore;

/**
 * Where the time of one {@code explore --jobs N} search went, per thread (benchmarks only: read
 * from the threads' CPU clocks and the wall clock, never used by the search itself). CPU times come
 * from each thread's own clock, so they do not depend on how loaded the machine is; the wall times
 * do. Nanoseconds throughout.
 *
 * @param wall the search's wall time
 * @param coordinatorCpu CPU of the exploring thread over the whole search
 * @param coordinatorTaskCpu of which running leaves and random schedules itself (the rest: enumerating
 *     runs, sibling steps, filing and race analysis, handing out work)
 * @param coordinatorWait wall time the exploring thread waited for workers' results
 * @param workerTaskCpu CPU of each worker thread in its tasks (runs and replays)
 * @param workerReplayCpu of which replaying a parent's plan for its own checkpoints
 * @param tasks schedules run by each runner (0: the exploring thread)
 * @param batches hand-outs of work to the workers
 */
public record JobStats(long wall, long coordinatorCpu, long coordinatorTaskCpu, long coordinatorWait, long[] workerTaskCpu,
                       long[] workerReplayCpu, long[] tasks, long batches) {

    /** Total worker CPU in tasks. */
    public long workerCpu() {
        long s = 0;
        for (long t : workerTaskCpu) s += t;
        return s;
    }

    /** One line, milliseconds. */
    public String summary() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("wall %d ms; coordinator CPU %d ms (serial %d, own runs %d), waited %d ms", wall / 1_000_000,
                coordinatorCpu / 1_000_000, (coordinatorCpu - coordinatorTaskCpu) / 1_000_000, coordinatorTaskCpu / 1_000_000,
                coordinatorWait / 1_000_000));
        for (int j = 0; j < workerTaskCpu.length; j++) {
            b.append(String.format("; worker %d CPU %d ms (replays %d), idle %d ms", j + 1, workerTaskCpu[j] / 1_000_000,
                    workerReplayCpu[j] / 1_000_000, Math.max(0, wall - workerTaskCpu[j]) / 1_000_000));
        }
        b.append("; runs per runner ").append(java.util.Arrays.toString(tasks)).append(", hand-outs ").append(batches);
        return b.toString();
    }
}
