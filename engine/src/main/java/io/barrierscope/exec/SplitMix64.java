package io.barrierscope.exec;

/** A tiny seeded generator with a fixed algorithm, so schedules are identical on every JDK. */
public final class SplitMix64 {
    private long state;

    public SplitMix64(long seed) { this.state = seed; }

    public long nextLong() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        return (int) Long.remainderUnsigned(nextLong(), bound);
    }

    public long state() { return state; }
    public void setState(long s) { state = s; }
}
