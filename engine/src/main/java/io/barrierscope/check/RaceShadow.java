package io.barrierscope.check;

/**
 * Shadow memory of the race detector (semantics.md section 8: races are on bytes). A cell holds
 * the last write's epoch, the last read's epoch or, once reads by unordered threads overlap,
 * their read set (FastTrack), each with the PC and warp step of the access for the report.
 * Cells are per 4-byte word while every access to the word covers all of it (the usual case,
 * one check instead of four) and per byte once a narrower access splits the word; a full-word
 * write joins it again. Pages are allocated on first touch, so untouched memory costs nothing.
 * Read sets grow with the threads that read a word concurrently, so their entries are counted:
 * past {@link RaceDetector#READ_SET_ENTRY_CAP} live entries the shadow is dropped and race
 * detection stops for the rest of the run, at a step the run reports (docs/reliability.md).
 */
final class RaceShadow {
    static final int PAGE_BITS = 10;
    static final int PAGE = 1 << PAGE_BITS;
    static final int WORDS = PAGE / 4;

    /**
     * Shadow cells: four adjacent longs per cell, the last write's epoch (clock << 32 | strong
     * bit 31 | id; 0 = none), the last read's epoch, and the write's and the read's warp step,
     * so a check loads from one 32-byte stretch; both PCs (only written on the way, read for a
     * report) are two ints of a parallel array, stored without reading the cell's other PC.
     */
    static final class Cells {
        static final int W = 0;
        static final int R = 1;
        static final int WSTEP = 2;
        static final int RSTEP = 3;
        static final int STRIDE = 4;

        final long[] d;
        /** Per cell: the write's PC at 2i, the read's at 2i + 1. */
        final int[] pcs;
        /** Read sets as objects: a third reader's, or a pair {@link #materialize}d for the general path. */
        ReadSet[] readSets;
        /**
         * Read sets of two entries held in place, without objects (a word two unordered warps read, as
         * every tile word of a pipeline, makes and drops one per tile). Per cell, three longs: the first
         * reader's epoch (with its strong bit), the second reader's epoch (0 = no pair) and step; the
         * second's PC in {@link #pairPcs}. The first reader's PC and step stay in the cell's read fields,
         * whose epoch is 0 while the pair is held, as a read set leaves them. A cell holds a pair, an
         * object or neither; every reader but the fast paths sees the pair through {@link #readSet}.
         */
        long[] pairs;
        int[] pairPcs;

        Cells(int n) {
            d = new long[n * STRIDE];
            pcs = new int[2 * n];
        }

        int size() { return d.length / STRIDE; }

        long write(int i) { return d[i * STRIDE + W]; }
        long read(int i) { return d[i * STRIDE + R]; }
        int writePc(int i) { return pcs[2 * i]; }
        int readPc(int i) { return pcs[2 * i + 1]; }
        long writeStep(int i) { return d[i * STRIDE + WSTEP]; }
        long readStep(int i) { return d[i * STRIDE + RSTEP]; }

        void setWrite(int i, long epoch, int pc, long step) {
            int b = i * STRIDE;
            d[b + W] = epoch;
            d[b + WSTEP] = step;
            pcs[2 * i] = pc;
        }

        void setRead(int i, long epoch, int pc, long step) {
            int b = i * STRIDE;
            d[b + R] = epoch;
            d[b + RSTEP] = step;
            pcs[2 * i + 1] = pc;
        }

        void clearRead(int i) { d[i * STRIDE + R] = 0; }

        Cells copy() {
            Cells c = new Cells(size());
            System.arraycopy(d, 0, c.d, 0, d.length);
            System.arraycopy(pcs, 0, c.pcs, 0, pcs.length);
            if (pairs != null) {
                c.pairs = pairs.clone();
                c.pairPcs = pairPcs.clone();
            }
            if (readSets != null) {
                c.readSets = new ReadSet[readSets.length];
                for (int i = 0; i < readSets.length; i++) if (readSets[i] != null) c.readSets[i] = readSets[i].copy();
            }
            return c;
        }

        ReadSet readSet(int i) {
            if (hasPair(i)) materialize(i);
            return readSets == null ? null : readSets[i];
        }

        /** Whether cell {@code i} holds a read set, as a pair or an object. */
        boolean hasReadSet(int i) { return hasPair(i) || readSets != null && readSets[i] != null; }

        boolean hasPair(int i) { return pairs != null && pairs[3 * i + 1] != 0; }

        /** Cell {@code i}'s read set becomes the two readers {@code first} (whose PC and step are the cell's read fields) and the second. */
        void setPair(int i, long first, long second, int secondPc, long secondStep) {
            if (pairs == null) {
                pairs = new long[3 * size()];
                pairPcs = new int[size()];
            }
            pairs[3 * i] = first;
            pairs[3 * i + 1] = second;
            pairs[3 * i + 2] = secondStep;
            pairPcs[i] = secondPc;
        }

        void clearPair(int i) {
            pairs[3 * i] = 0;
            pairs[3 * i + 1] = 0;
        }

        /** Entry {@code k} (0 or 1) of cell {@code i}'s pair: its id as a read set keeps it (strong mark included), clock, PC, step. */
        int pairId(int i, int k) { return idOf(pairs[3 * i + k]); }
        int pairClock(int i, int k) { return (int) (pairs[3 * i + k] >>> 32); }
        int pairPc(int i, int k) { return k == 0 ? pcs[2 * i + 1] : pairPcs[i]; }
        long pairStep(int i, int k) { return k == 0 ? d[i * STRIDE + RSTEP] : pairs[3 * i + 2]; }

        /** The pair of cell {@code i} as the read set object the general path works on, entries in the same order. */
        private void materialize(int i) {
            ReadSet rs = new ReadSet();
            for (int k = 0; k < 2; k++) rs.put(pairId(i, k), pairClock(i, k), pairPc(i, k), pairStep(i, k));
            clearPair(i);
            if (readSets == null) readSets = new ReadSet[size()];
            readSets[i] = rs;
        }

        /** A read-set id of an epoch: a strong reader's id carries the sign bit (RaceAccess.STRONG_ID). */
        private static int idOf(long e) {
            return (int) (e & (RaceDetector.STRONG - 1)) | ((e & RaceDetector.STRONG) != 0 ? Integer.MIN_VALUE : 0);
        }

        /** Copies cell {@code from} into cell {@code to} of {@code dst} (read sets deep); returns the change in read-set entries. */
        long copyCell(int from, Cells dst, int to) {
            System.arraycopy(d, from * STRIDE, dst.d, to * STRIDE, STRIDE);
            dst.pcs[2 * to] = pcs[2 * from];
            dst.pcs[2 * to + 1] = pcs[2 * from + 1];
            ReadSet rs = readSet(from);
            ReadSet old = dst.readSet(to);
            long delta = old == null ? 0 : -old.size;
            if (rs != null) {
                if (dst.readSets == null) dst.readSets = new ReadSet[dst.size()];
                dst.readSets[to] = rs.copy();
                delta += rs.size;
            } else if (dst.readSets != null) {
                dst.readSets[to] = null;
            }
            return delta;
        }

        void hashInto(java.util.function.LongConsumer h) {
            for (int i = 0, n = size(); i < n; i++) {
                int b = i * STRIDE;
                boolean pair = hasPair(i);
                if (d[b + W] == 0 && d[b + R] == 0 && !pair && (readSets == null || readSets[i] == null)) continue;
                h.accept(i);
                // The order and packing of the five-long cell this hash was defined on (both PCs in one long).
                h.accept(d[b + W]);
                h.accept(d[b + R]);
                h.accept(((long) pcs[2 * i] << 32) | (pcs[2 * i + 1] & 0xFFFFFFFFL));
                h.accept(d[b + WSTEP]);
                h.accept(d[b + RSTEP]);
                if (pair) {
                    // As the pair's read set object would feed it (ReadSet.hashInto).
                    h.accept(2);
                    for (int k = 0; k < 2; k++) h.accept(ReadSet.entryHash(pairId(i, k), pairClock(i, k), pairPc(i, k), pairStep(i, k)));
                } else if (readSets != null && readSets[i] != null) {
                    readSets[i].hashInto(h);
                }
            }
        }
    }

    /** One page: word cells, and byte cells for the words that narrower accesses split. */
    static final class Page {
        final Cells words;
        Cells bytes;
        boolean[] split;

        Page() { this(new Cells(WORDS)); }

        private Page(Cells words) { this.words = words; }

        boolean isSplit(int w) { return split != null && split[w]; }

        /** Word w gets one cell per byte, each a copy of its word cell; returns the change in read-set entries. */
        long split(int w) {
            if (bytes == null) {
                bytes = new Cells(PAGE);
                split = new boolean[WORDS];
            }
            long delta = 0;
            for (int b = 0; b < 4; b++) delta += words.copyCell(w, bytes, 4 * w + b);
            split[w] = true;
            return delta;
        }

        /** After a write of all four bytes their cells are equal again: back to one word cell; returns the change in read-set entries. */
        long join(int w) {
            long delta = bytes.copyCell(4 * w, words, w);
            split[w] = false;
            return delta;
        }

        Page copy() {
            Page p = new Page(words.copy());
            if (bytes != null) {
                p.bytes = bytes.copy();
                p.split = split.clone();
            }
            return p;
        }

        void hashInto(java.util.function.LongConsumer h) {
            words.hashInto(h);
            if (bytes == null) return;
            for (int w = 0; w < WORDS; w++) if (split[w]) h.accept(~w);
            bytes.hashInto(h);
        }
    }

    /** The reads since the last write by threads not ordered with each other: id to (clock, pc, step). */
    static final class ReadSet {
        // Room for two: most sets are a word's two unordered readers (a third doubles them).
        int[] ids = new int[2];
        int[] clocks = new int[2];
        int[] pcs = new int[2];
        long[] steps = new long[2];
        int size;
        /**
         * Open-addressing index of ids (slot + 1, 0 = empty), built once the set outgrows a linear
         * scan, so broadcast reads by a whole CTA stay cheap; null while small (the usual two or three readers).
         */
        private int[] index;

        /** Records a read; returns whether it added an entry (a reader not in the set yet). */
        boolean put(int id, int clock, int pc, long step) {
            int k = find(id);
            if (k >= 0) {
                clocks[k] = clock;
                pcs[k] = pc;
                steps[k] = step;
                return false;
            }
            if (size == ids.length) {
                ids = java.util.Arrays.copyOf(ids, size * 2);
                clocks = java.util.Arrays.copyOf(clocks, size * 2);
                pcs = java.util.Arrays.copyOf(pcs, size * 2);
                steps = java.util.Arrays.copyOf(steps, size * 2);
            }
            ids[size] = id;
            clocks[size] = clock;
            pcs[size] = pc;
            steps[size] = step;
            size++;
            if (index != null ? size * 2 > index.length : size > 8) rehash();
            else if (index != null) insert(size - 1);
            return true;
        }

        private int find(int id) {
            if (index == null) {
                for (int k = 0; k < size; k++) if (ids[k] == id) return k;
                return -1;
            }
            int mask = index.length - 1;
            for (int h = (id * 0x9E3779B1) >>> 8 & mask; index[h] != 0; h = (h + 1) & mask) {
                if (ids[index[h] - 1] == id) return index[h] - 1;
            }
            return -1;
        }

        private void insert(int k) {
            int mask = index.length - 1;
            int h = (ids[k] * 0x9E3779B1) >>> 8 & mask;
            while (index[h] != 0) h = (h + 1) & mask;
            index[h] = k + 1;
        }

        private void rehash() {
            index = new int[Integer.highestOneBit(size) * 4];
            for (int k = 0; k < size; k++) insert(k);
        }

        ReadSet copy() {
            ReadSet r = new ReadSet();
            r.ids = ids.clone();
            r.clocks = clocks.clone();
            r.pcs = pcs.clone();
            r.steps = steps.clone();
            r.size = size;
            r.index = index == null ? null : index.clone();
            return r;
        }

        void hashInto(java.util.function.LongConsumer h) {
            h.accept(size);
            for (int k = 0; k < size; k++) h.accept(entryHash(ids[k], clocks[k], pcs[k], steps[k]));
        }

        /** What one entry feeds a state hash (a pair held in place feeds the same). */
        static long entryHash(int id, int clock, int pc, long step) { return ((long) id << 32) ^ clock ^ ((long) pc << 20) ^ step; }
    }

    /** Pages by region (a CTA's shared memory, or a global segment), then by page number. */
    private Page[][] regions;
    /** Read-set entries alive in this shadow (split copies included). */
    long readSetEntries;
    /** The warp step at which the read sets passed their cap and detection stopped, or -1. */
    long stoppedAt = -1;
    /** Whether it was the per-location synchronization state that passed its cap ({@link RaceDetector#LOCATION_STATE_CAP}). */
    boolean stoppedByLocations;
    /** Whether it was the clocks joined from other CTAs that passed their cap ({@link RaceDetector#JOINED_CLOCK_CAP}). */
    boolean stoppedByClocks;
    /**
     * When the clocks stopped detection, what the count at that step found: the bytes of clocks held,
     * the copies in flight and the clocks only their views kept (RaceClockBudget#stop).
     */
    long clocksAtStop;
    long copiesInFlightAtStop;
    long copyClocksAtStop;

    RaceShadow(int regionCount) { regions = new Page[regionCount][]; }

    /** The page holding {@code offset} of {@code region}, allocated on first touch. */
    Page page(int region, int offset) {
        if (region >= regions.length) regions = java.util.Arrays.copyOf(regions, region + 1);
        Page[] r = regions[region];
        int p = offset >>> PAGE_BITS;
        if (r == null || p >= r.length) {
            r = regions[region] = java.util.Arrays.copyOf(r == null ? new Page[0] : r, Math.max(p + 1, r == null ? 4 : r.length * 2));
        }
        Page pg = r[p];
        if (pg == null) pg = r[p] = new Page();
        return pg;
    }

    /**
     * Adds {@code delta} read-set entries; past the cap the pages are dropped (their memory freed)
     * and detection stops at {@code step}. Deterministic: the count follows the run, and travels
     * with the shadow into checkpoints and back.
     */
    void countReadSets(long delta, long step) {
        readSetEntries += delta;
        if (readSetEntries > RaceDetector.READ_SET_ENTRY_CAP && stoppedAt < 0) {
            stoppedAt = step;
            regions = new Page[regions.length][];
            readSetEntries = 0;
        }
    }

    /** Stops detection at {@code step} because the per-location state passed its cap: the pages are dropped as at the read sets' cap. */
    void stopForLocations(long step) {
        if (stoppedAt >= 0) return;
        stoppedAt = step;
        stoppedByLocations = true;
        regions = new Page[regions.length][];
        readSetEntries = 0;
    }

    /** Stops detection at {@code step} because the clocks passed their cap (RaceClockBudget): the pages are dropped as at the read sets' cap. */
    void stopForClocks(long step) {
        if (stoppedAt >= 0) return;
        stoppedAt = step;
        stoppedByClocks = true;
        regions = new Page[regions.length][];
        readSetEntries = 0;
    }

    RaceShadow copy() {
        RaceShadow s = new RaceShadow(regions.length);
        s.readSetEntries = readSetEntries;
        s.stoppedAt = stoppedAt;
        s.stoppedByLocations = stoppedByLocations;
        s.stoppedByClocks = stoppedByClocks;
        s.clocksAtStop = clocksAtStop;
        s.copiesInFlightAtStop = copiesInFlightAtStop;
        s.copyClocksAtStop = copyClocksAtStop;
        for (int i = 0; i < regions.length; i++) {
            if (regions[i] == null) continue;
            s.regions[i] = new Page[regions[i].length];
            for (int p = 0; p < regions[i].length; p++) if (regions[i][p] != null) s.regions[i][p] = regions[i][p].copy();
        }
        return s;
    }

    void hashInto(java.util.function.LongConsumer h) { hashInto(h, null); }

    /** As {@link #hashInto(java.util.function.LongConsumer)}, each page fed as its digest when {@code digests} is given (explore). */
    void hashInto(java.util.function.LongConsumer h, RaceDigests digests) {
        if (stoppedAt >= 0) h.accept(~stoppedAt); // only then, so the hash of a run that never stopped is unchanged
        for (int i = 0; i < regions.length; i++) {
            if (regions[i] == null) continue;
            for (int p = 0; p < regions[i].length; p++) {
                if (regions[i][p] == null) continue;
                h.accept(((long) i << 32) | p);
                if (digests != null) h.accept(digests.page(i, p, regions[i][p]));
                else regions[i][p].hashInto(h);
            }
        }
    }

    long bytes() {
        long b = 64 + readSetEntries * RaceDetector.READ_SET_BYTES_PER_ENTRY;
        for (Page[] r : regions) if (r != null) for (Page p : r) if (p != null) b += 40L * WORDS + (p.bytes != null ? 41L * PAGE : 0); // 4 longs and 2 ints per cell
        return b;
    }
}
