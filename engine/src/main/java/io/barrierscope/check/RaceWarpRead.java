package io.barrierscope.check;

/**
 * The two-entry read sets of a converged warp's load, as one object shared by the words of a
 * shadow page it covers (docs/performance.md, race detection overhead, round fourteen). When a
 * warp whose lanes share one clock and PC loads consecutive words (ascending or descending) that
 * each hold a read by an unordered thread, every word would get its own read set of two entries:
 * that earlier read, then the lane's. Instead each word's read-set slot points at this record,
 * which holds the second entry for all of them (the lane's id follows from the word, the clock,
 * PC and step are the warp's); the first entry stays in the cell's read fields, which a word's
 * own read set would have cleared (its PC and step are left there either way).
 *
 * <p>A word stands for exactly the read set {@code twoReaders} would have made. Whatever reads
 * that set as an object (a third reader, a split of the word) first makes it with
 * {@link #materialize}; a plain write checks the two entries in set order and drops the word's
 * slot; the state hash feeds the set's entries and a cleared read field. Immutable, so
 * checkpoints share it.
 */
final class RaceWarpRead extends RaceShadow.ReadSet {
    /** Reader of word {@code j}: {@code base + dir * j}. */
    private final int base;
    private final int dir;
    final int clock;
    final int pc;
    final long step;

    /**
     * The record for a warp of first thread {@code s0} whose lane {@code l} loads word
     * {@code j0 + dir * l} of the page ({@code j0} may lie outside it), at {@code clock},
     * {@code pc} and warp step {@code step}.
     */
    RaceWarpRead(int s0, int j0, int dir, int clock, int pc, long step) {
        this.dir = dir;
        this.base = s0 - dir * j0;
        this.clock = clock;
        this.pc = pc;
        this.step = step;
        this.size = 2;
    }

    /** The thread whose read of word {@code j} this record holds. */
    int reader(int j) { return base + dir * j; }

    /** Whether thread {@code t} reading word {@code j} at {@code clock} and {@code pc} is this record's read of it. */
    boolean covers(int t, int j, int clock, int pc) {
        return base + dir * j == t && clock == this.clock && pc == this.pc;
    }

    /** Replaces word {@code j}'s slot in {@code c} by the read set it stands for (twoReaders' result), and returns that set. */
    RaceShadow.ReadSet materialize(RaceShadow.Cells c, int j) {
        long r = c.read(j);
        RaceShadow.ReadSet rs = new RaceShadow.ReadSet();
        rs.put((int) (r & (RaceDetector.STRONG - 1)), (int) (r >>> 32), c.readPc(j), c.readStep(j));
        rs.put(reader(j), clock, pc, step);
        c.clearRead(j);
        c.readSets[j] = rs;
        return rs;
    }

    /** Feeds word {@code j}'s read set as {@link RaceShadow.ReadSet#hashInto} feeds it. */
    void hashWord(java.util.function.LongConsumer h, RaceShadow.Cells c, int j) {
        long r = c.read(j);
        h.accept(2);
        h.accept(((long) (int) (r & (RaceDetector.STRONG - 1)) << 32) ^ (int) (r >>> 32) ^ ((long) c.readPc(j) << 20) ^ c.readStep(j));
        h.accept(((long) reader(j) << 32) ^ clock ^ ((long) pc << 20) ^ step);
    }

    @Override
    boolean put(int id, int clock, int pc, long step) {
        throw new IllegalStateException("a warp read is materialized before a read is added");
    }

    @Override
    RaceShadow.ReadSet copy() { return this; }

    @Override
    void hashInto(java.util.function.LongConsumer h) {
        throw new IllegalStateException("a warp read is hashed per word");
    }
}
