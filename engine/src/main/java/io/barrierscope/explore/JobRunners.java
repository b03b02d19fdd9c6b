package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The explorer's machines: the first on the launch being explored, the others on copies, one per
 * job, and the threads that drive the others during a search. A batch is cut into contiguous
 * slices, so which thread ran an item never shows in its result (docs/explore.md, "Every core").
 */
final class JobRunners implements Iterable<ScheduleRunner> {
    /** A task of a batch: run item {@code k} on runner {@code r}. */
    interface Task {
        void run(ScheduleRunner r, int k);
    }

    private final List<ScheduleRunner> runners = new ArrayList<>();
    /** Worker threads of a search with more than one job (daemons, so an abandoned explorer never keeps the JVM). */
    private ExecutorService pool;

    void add(ScheduleRunner r) { runners.add(r); }

    @Override
    public java.util.Iterator<ScheduleRunner> iterator() { return runners.iterator(); }

    ScheduleRunner get(int i) { return runners.get(i); }

    int size() { return runners.size(); }

    /** Keeps only the first runner (the launch's own). */
    void keepFirst() {
        while (runners.size() > 1) runners.remove(runners.size() - 1);
    }

    /** Starts the worker threads of a search (none for one job). */
    void start() {
        if (runners.size() > 1) {
            pool = Executors.newFixedThreadPool(runners.size() - 1, r -> {
                Thread t = new Thread(r, "explore-job");
                t.setDaemon(true);
                return t;
            });
        }
    }

    void stop() {
        if (pool != null) pool.shutdownNow();
        pool = null;
    }

    /**
     * Runs items 0..n-1 of a batch: contiguous slices, one per runner, each on its own thread
     * (the first on this one).
     */
    void parallel(int n, Task t) {
        int jobs = Math.min(runners.size(), n);
        if (jobs <= 1) {
            for (int k = 0; k < n; k++) t.run(runners.get(0), k);
            return;
        }
        List<Future<?>> fs = new ArrayList<>();
        for (int j = 1; j < jobs; j++) {
            ScheduleRunner r = runners.get(j);
            int lo = (int) ((long) n * j / jobs);
            int hi = (int) ((long) n * (j + 1) / jobs);
            fs.add(pool.submit(() -> {
                for (int k = lo; k < hi; k++) t.run(r, k);
            }));
        }
        int hi0 = n / jobs;
        for (int k = 0; k < hi0; k++) t.run(runners.get(0), k);
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while exploring", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) throw re;
                if (e.getCause() instanceof Error er) throw er;
                throw new IllegalStateException(e.getCause());
            }
        }
    }
}
