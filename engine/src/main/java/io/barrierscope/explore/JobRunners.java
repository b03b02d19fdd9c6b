package io.barrierscope.explore;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The explorer's machines: the first on the launch being explored, the others on copies, one per
 * job, and the threads that drive the others during a search. Work goes out as a {@link Stream}:
 * tasks handed out in the order they will be filed, taken by whichever runner is free, and their
 * results taken back in that order, so which thread ran a task never shows in its result
 * (docs/explore.md, "Every core").
 */
final class JobRunners implements Iterable<ScheduleRunner> {
    /** A task: one run on runner {@code r} (it must not touch the search's state: its result is filed later, in order). */
    interface Job<T> {
        T run(ScheduleRunner r);
    }

    /** Tasks a stream keeps handed out ahead of the one being filed, per job (a budget can cut them; the rest is thrown away). */
    static final int AHEAD_PER_JOB = 4;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final List<ScheduleRunner> runners = new ArrayList<>();
    /** Worker threads of a search with more than one job (daemons, so an abandoned explorer never keeps the JVM). */
    private ExecutorService pool;
    /** Whether every runner's machine runs the same Program object, so a checkpoint of one restores into any other. */
    private boolean shared;

    // Measurements (benchmarks: JobStats); the search never reads them.
    private long wall0, cpu0, wall, coordinatorCpu, ownTaskCpu, waitNanos, handOuts;

    void add(ScheduleRunner r) { runners.add(r); }

    @Override
    public java.util.Iterator<ScheduleRunner> iterator() { return runners.iterator(); }

    ScheduleRunner get(int i) { return runners.get(i); }

    int size() { return runners.size(); }

    /** Keeps only the first runner (the launch's own). */
    void keepFirst() {
        while (runners.size() > 1) runners.remove(runners.size() - 1);
    }

    /** Tasks to keep handed out ahead of the one being filed: one for one job (nothing runs ahead). */
    int ahead() { return runners.size() == 1 ? 1 : AHEAD_PER_JOB * runners.size(); }

    /**
     * Whether runner {@code r} may fork from the main machine's checkpoints (its machine runs the same
     * Program object: copies started from one validated launch); else it replays a parent's plan for
     * checkpoints of its own ({@link ScheduleRunner#forkPoint}).
     */
    boolean sharesCheckpoints(ScheduleRunner r) { return r == runners.get(0) || shared; }

    /** Starts the worker threads of a search (none for one job). */
    void start() {
        shared = true;
        for (ScheduleRunner r : runners) {
            shared &= r.m.program == runners.get(0).m.program;
            r.taskCpu = 0;
            r.replayCpu = 0;
            r.runs = 0;
        }
        ownTaskCpu = waitNanos = handOuts = 0;
        wall0 = System.nanoTime();
        cpu0 = cpu();
        if (runners.size() > 1) {
            pool = Executors.newFixedThreadPool(runners.size() - 1, r -> {
                Thread t = new Thread(r, "explore-job");
                t.setDaemon(true);
                return t;
            });
        }
    }

    void stop() {
        wall = System.nanoTime() - wall0;
        coordinatorCpu = cpu() - cpu0;
        if (pool != null) pool.shutdownNow();
        pool = null;
    }

    /** This thread's CPU time (nanoseconds; 0 where the JVM cannot tell). */
    static long cpu() { return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0; }

    /** Where the last search's time went (see {@link JobStats}). */
    JobStats stats() {
        int w = runners.size() - 1;
        long[] cpu = new long[w];
        long[] replay = new long[w];
        long[] runs = new long[runners.size()];
        for (int j = 0; j < runners.size(); j++) {
            runs[j] = runners.get(j).runs;
            if (j > 0) {
                cpu[j - 1] = runners.get(j).taskCpu;
                replay[j - 1] = runners.get(j).replayCpu;
            }
        }
        return new JobStats(wall, coordinatorCpu, ownTaskCpu, waitNanos, cpu, replay, runs, handOuts);
    }

    <T> Stream<T> stream() { return new Stream<>(); }

    /** One task of a stream: claimed once (by a worker or the exploring thread), then done. */
    private static final class Slot<T> {
        final Job<T> job;
        final AtomicInteger state = new AtomicInteger(); // 0 new, 1 claimed
        final CountDownLatch done = new CountDownLatch(1);
        T result;
        Throwable failure;

        Slot(Job<T> job) { this.job = job; }

        boolean claim() { return state.compareAndSet(0, 1); }
    }

    /**
     * Tasks handed out in order to every runner: the workers take them from a queue as they come
     * free; the exploring thread takes results by index, running a task itself when no worker has
     * started it (and, while it waits for one, the first task nobody has started). One job: each
     * task runs when taken, on the main machine, as a plain loop would. Closing it stops the
     * workers' loops (a task still running sees {@link #closed} as a limit and stops) and waits for
     * them, so no worker runs once it is closed.
     */
    final class Stream<T> implements AutoCloseable {
        /** Tasks not taken yet, from index {@link #base} on; taken ones are null until the leading run of them is dropped. */
        private final List<Slot<T>> slots = new ArrayList<>();
        /** The index of {@code slots.get(0)}: the random phase hands out a task per schedule, so taken ones must not stay. */
        private int base;
        /** Leading taken (null) entries of {@link #slots}. */
        private int head;
        private final LinkedBlockingQueue<Slot<T>> queue = new LinkedBlockingQueue<>();
        private final List<Future<?>> loops = new ArrayList<>();
        private final Slot<T> poison = new Slot<>(null);
        private volatile boolean closed;
        /** Slots before it (an index, as {@link #submit} gives) are all claimed (where the exploring thread looks for one to run). */
        private int unclaimed;

        private Stream() {
            if (pool == null) return;
            for (int j = 1; j < runners.size(); j++) {
                ScheduleRunner r = runners.get(j);
                loops.add(pool.submit(() -> loop(r)));
            }
        }

        /** Whether the stream was closed (a running task treats it as a limit: its result is thrown away). */
        boolean closed() { return closed; }

        private void loop(ScheduleRunner r) {
            while (true) {
                Slot<T> s;
                try {
                    s = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (s == poison) return;
                if (s.claim()) {
                    long c = cpu();
                    run(s, r);
                    r.taskCpu += cpu() - c;
                }
            }
        }

        private void run(Slot<T> s, ScheduleRunner r) {
            try {
                s.result = s.job.run(r);
                r.runs++;
            } catch (RuntimeException | Error e) {
                s.failure = e;
            } finally {
                s.done.countDown();
            }
        }

        /** Hands out a task; its index (from 0, in hand-out order) is what {@link #take} asks for. */
        int submit(Job<T> job) {
            Slot<T> s = new Slot<>(job);
            slots.add(s);
            if (pool != null) {
                queue.add(s);
                handOuts++;
            }
            return base + slots.size() - 1;
        }

        /** Tests: the slots the stream holds (taken ones not yet dropped included). */
        int held() { return slots.size(); }

        /** The result of task {@code i}, waiting for it (or running it) as needed. */
        T take(int i) {
            Slot<T> s = slots.get(i - base);
            while (s.done.getCount() > 0) {
                Slot<T> o = s.claim() ? s : firstUnclaimed();
                if (o != null) {
                    long c = cpu();
                    run(o, runners.get(0));
                    ownTaskCpu += cpu() - c;
                    continue;
                }
                long t0 = System.nanoTime();
                try {
                    s.done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while exploring", e);
                } finally {
                    waitNanos += System.nanoTime() - t0;
                }
            }
            slots.set(i - base, null); // taken once: let its result go
            dropTaken();
            if (s.failure instanceof RuntimeException re) throw re;
            if (s.failure instanceof Error er) throw er;
            return s.result;
        }

        private Slot<T> firstUnclaimed() {
            for (unclaimed = Math.max(unclaimed, base); unclaimed < base + slots.size(); unclaimed++) {
                Slot<T> o = slots.get(unclaimed - base);
                if (o != null && o.claim()) return o;
            }
            return null;
        }

        /**
         * Drops the leading run of taken slots once it is at least half the list (amortised O(1) a
         * task), so the stream holds about twice the tasks handed out and not yet taken, however
         * many went through it.
         */
        private void dropTaken() {
            while (head < slots.size() && slots.get(head) == null) head++;
            if (head >= 16 && head * 2 >= slots.size()) {
                slots.subList(0, head).clear();
                base += head;
                head = 0;
            }
        }

        @Override
        public void close() {
            closed = true;
            if (loops.isEmpty()) return;
            queue.clear();
            for (int j = 0; j < loops.size(); j++) queue.add(poison);
            for (Future<?> f : loops) {
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while exploring", e);
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
        }
    }
}
