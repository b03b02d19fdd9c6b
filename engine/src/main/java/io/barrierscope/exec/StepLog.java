package io.barrierscope.exec;

/**
 * Warp steps handed to one consumer (the recorder) in batches instead of one listener call per
 * step: the interpreter appends each step to four int arrays and the consumer takes them when
 * the log is full, at the end of each interpreter call (run, advance, step), and whenever it is
 * about to take another kind of event, so the order of its stream is exactly that of the run.
 */
public final class StepLog {
    /** Takes a batch: steps {@code first .. first + n - 1}, entry i of each array being step first + i. */
    public interface Drain {
        void steps(long first, int n, int[] warp, int[] pc, int[] group, int[] active);
    }

    static final int CAPACITY = 1024;

    private final Drain drain;
    private final int[] warp = new int[CAPACITY];
    private final int[] pc = new int[CAPACITY];
    private final int[] group = new int[CAPACITY];
    private final int[] active = new int[CAPACITY];
    private long first;
    private int n;

    public StepLog(Drain drain) { this.drain = drain; }

    void add(long step, int w, int p, int g, int a) {
        int i = n;
        if (i > 0 && step != first + i) {
            drain(); // steps are consecutive; anything else starts a new batch
            i = 0;
        }
        if (i == 0) first = step;
        warp[i] = w;
        pc[i] = p;
        group[i] = g;
        active[i] = a;
        n = i + 1;
        if (n == CAPACITY) drain();
    }

    /** Hands over what is logged (nothing if empty). */
    public void drain() {
        int k = n;
        if (k == 0) return;
        n = 0;
        drain.steps(first, k, warp, pc, group, active);
    }
}
