package io.barrierscope.check;

/**
 * The race detector's memory side (semantics.md section 8): checks each access against the
 * shadow cells it covers and records it. The actor (a thread, or an async copy completing) and
 * its clock are the detector's; this class owns the per-access state and the lookup caches.
 */
final class RaceAccess {
    private final RaceDetector d;
    private final int chunkSize;
    /** log2 of the chunk size when it is a power of two (ids map to chunks by a shift), else -1. */
    private final int chunkShift;

    // Per access in progress, not state: its epoch and step, and epochs already found ordered before it.
    private long accessEpoch;
    private long accessStep;
    private long orderedWrite;
    private long orderedRead;
    /** {@link #orderedFor}'s cache: a clock, a chunk number, and that chunk (clocks are immutable). */
    private VectorClock orderedVb;
    private int orderedChunkNo = -1;
    private int[] orderedChunk;
    /**
     * {@link #page}'s cache, the last page looked up per region (not state: pages are found again
     * from the shadow after a restore). Per region, since a copy alternates between its source
     * and destination and consecutive warps may be in different CTAs.
     */
    private RaceShadow cachedShadow;
    private int[] cachedPageNo = new int[0];
    private RaceShadow.Page[] cachedPages = new RaceShadow.Page[0];

    /** A clock chunk of zeros: what a missing chunk means. */
    private final int[] zeroChunk;

    RaceAccess(RaceDetector d) {
        this.d = d;
        this.chunkSize = d.chunkSize;
        this.zeroChunk = new int[d.chunkSize];
        this.chunkShift = Integer.bitCount(chunkSize) == 1 ? Integer.numberOfTrailingZeros(chunkSize) : -1;
    }

    /** See {@link RaceDetector#access}. */
    void access(int region, int offset, int size, int thread, boolean write) {
        if (d.reported || d.shadow.stoppedAt >= 0) return;
        boolean byThread = d.asyncActor == null;
        if (byThread && d.strongMode == 0 && size == 4 && (offset & 3) == 0) {
            RaceShadow.Page pg = page(region, offset);
            int w = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (!pg.isSplit(w) && plainWord(pg.words, w, thread, d.baseOf(thread), write, d.x.eventStep())) return;
        } else if (!byThread && d.strongMode == 0 && size == 4 && (offset & 3) == 0) {
            RaceShadow.Page pg = page(region, offset);
            int w = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (!pg.isSplit(w) && copyWord(pg.words, w, region, write, d.x.eventStep())) return;
        }
        if (byThread) d.actThread(thread);
        boolean strong = d.strongMode != 0;
        if (strong) {
            d.scoped.key = ((long) region << 32) | (offset & 0xFFFFFFFFL);
            d.scoped.size = size;
        }
        accessEpoch = ((long) d.actorClock << 32) | d.actorId | (strong ? RaceDetector.STRONG : 0);
        accessStep = d.x.eventStep();
        orderedWrite = 0;
        orderedRead = 0;
        if (size == 4 && (offset & 3) == 0 && !strong) {
            // The usual access, a plain aligned word by a thread or a copy: one cell unless the word is split.
            RaceShadow.Page pg = page(region, offset);
            int w = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (!pg.isSplit(w)) {
                cell(pg.words, w, region, offset, write, false);
                return;
            }
        }
        // The cells of one access usually share their last write and read: check each distinct epoch once.
        RaceShadow.Page pg = null;
        int pageNo = -1;
        int end = offset + size;
        for (int off = offset; off < end; ) {
            int wordOff = off & ~3;
            int lo = off - wordOff;
            int hi = Math.min(4, end - wordOff);
            if (off >>> RaceShadow.PAGE_BITS != pageNo) {
                pageNo = off >>> RaceShadow.PAGE_BITS;
                pg = page(region, off);
            }
            int w = (wordOff & (RaceShadow.PAGE - 1)) >> 2;
            boolean full = lo == 0 && hi == 4;
            if (full && !pg.isSplit(w)) {
                if (!cell(pg.words, w, region, wordOff, write, strong)) return;
            } else {
                if (!pg.isSplit(w)) d.shadow.countReadSets(pg.split(w), accessStep);
                for (int b = lo; b < hi; b++) if (!cell(pg.bytes, 4 * w + b, region, wordOff + b, write, strong)) return;
                if (full && write) d.shadow.countReadSets(pg.join(w), accessStep);
            }
            off = wordOff + hi;
        }
        if (strong && byThread) d.strongSync(thread, write);
    }

    /**
     * See {@link RaceDetector#accessWords}: {@link #access} of each lane in lane order, with what
     * the lanes share (the warp's base, the event step, the shadow page) found once.
     */
    void accessWords(int region, int[] offsets, int lanes, int warp, boolean write) {
        if (d.reported || d.shadow.stoppedAt >= 0) return;
        if (d.asyncActor != null || d.strongMode != 0) {
            for (int l = lanes; l != 0 && !d.reported; l &= l - 1) {
                int lane = Integer.numberOfTrailingZeros(l);
                access(region, offsets[lane], 4, (warp << 5) + lane, write);
            }
            return;
        }
        int s0 = warp << 5;
        // Null when the lanes have bases of their own (then each lane's is looked up).
        VectorClock shared = d.warpBase[warp];
        long step = d.x.eventStep();
        if (shared != null && lanes != 0) {
            lanes = sharedBaseLanes(region, offsets, lanes, s0, shared, write, step);
            if (lanes == 0) return;
        }
        int[] clk = d.clock;
        int[] pcOf = d.m.pc;
        // The page of the last lane and what of it the loop reads, held in locals: a warp's words
        // nearly always fall in one page. Reloaded after the general path ran (it may split a word
        // of the page or give a cell a read set).
        int pageNo = -1;
        long[] a = null;
        int[] pcs = null;
        boolean[] split = null;
        RaceShadow.ReadSet[] readSets = null;
        RaceShadow.Cells cells = null;
        // The clock chunk of the last writer or reader looked up (clocks are immutable).
        VectorClock chunkOf = null;
        int chunkNo = -1;
        int[] ch = null;
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int t = s0 + lane;
            int offset = offsets[lane];
            if (offset >>> RaceShadow.PAGE_BITS != pageNo) {
                RaceShadow.Page pg = page(region, offset);
                pageNo = offset >>> RaceShadow.PAGE_BITS;
                cells = pg.words;
                a = cells.d;
                pcs = cells.pcs;
                split = pg.split;
                readSets = cells.readSets;
            }
            int j = (offset & (RaceShadow.PAGE - 1)) >> 2;
            VectorClock vb = shared != null ? shared : d.base[t];
            // plainWord, inline: the same rules, and the same fallback to the general path.
            fast:
            if (split == null || !split[j]) {
                int b = j * RaceShadow.Cells.STRIDE;
                long epoch = ((long) clk[t] << 32) | t;
                long wr = a[b + RaceShadow.Cells.W];
                if (wr != 0 && wr != epoch) {
                    int id = (int) (wr & (RaceDetector.STRONG - 1));
                    if (id != t) {
                        int c = chunkShift >= 0 ? id >>> chunkShift : id / chunkSize;
                        if (c != chunkNo || vb != chunkOf) {
                            int[][] chunks = vb.chunks;
                            ch = c < chunks.length ? chunks[c] : null;
                            chunkOf = vb;
                            chunkNo = c;
                        }
                        if (ch == null || (int) (wr >>> 32) > VectorClock.entry(ch, id - c * chunkSize, chunkSize)) break fast;
                    }
                }
                if (cells.hasReadSet(j)) break fast;
                long r = a[b + RaceShadow.Cells.R];
                if (!write && r == epoch) continue;
                if (r != 0) {
                    int id = (int) (r & (RaceDetector.STRONG - 1));
                    if (id != t) {
                        int c = chunkShift >= 0 ? id >>> chunkShift : id / chunkSize;
                        if (c != chunkNo || vb != chunkOf) {
                            int[][] chunks = vb.chunks;
                            ch = c < chunks.length ? chunks[c] : null;
                            chunkOf = vb;
                            chunkNo = c;
                        }
                        if (ch == null || (int) (r >>> 32) > VectorClock.entry(ch, id - c * chunkSize, chunkSize)) {
                            if (write) break fast;
                            // A second reader unordered with the first (a word many threads read): the
                            // read set the general path would make, made here (the write was checked).
                            d.shadow.countReadSets(twoReaders(cells, j, r, t, clk[t], pcOf[t], step, false), step);
                            if (d.shadow.stoppedAt >= 0) return;
                            readSets = cells.readSets;
                            continue;
                        }
                    }
                }
                if (write) {
                    a[b + RaceShadow.Cells.W] = epoch;
                    a[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
                    a[b + RaceShadow.Cells.WSTEP] = step;
                    pcs[2 * j] = pcOf[t];
                } else {
                    a[b + RaceShadow.Cells.R] = epoch;
                    a[b + RaceShadow.Cells.RSTEP] = step;
                    pcs[2 * j + 1] = pcOf[t];
                }
                continue;
            }
            access(region, offset, 4, t, write);
            if (d.reported || d.shadow.stoppedAt >= 0) return;
            // The general path may have changed the warp's bases (it does not today) and the page: look again.
            shared = d.warpBase[warp];
            pageNo = -1;
        }
    }

    /**
     * The lanes of a warp whose threads share the base {@code vb}, in lane order, for as long as
     * the loop of {@link #accessWords} would take its inline path with what this one can see
     * cheaply: the lanes' words in one page, none split or with a read set, the warp's own CTA's
     * clock chunk found once (other ids, a copy's agent, through the one-chunk cache), and a second
     * unordered reader made into a pair as that loop does. Records exactly what that loop records; returns the
     * lanes it left (from the first lane it could not decide on), for that loop to finish.
     */
    private int sharedBaseLanes(int region, int[] offsets, int lanes, int s0, VectorClock vb, boolean write, long step) {
        int first = offsets[Integer.numberOfTrailingZeros(lanes)];
        int pageNo = first >>> RaceShadow.PAGE_BITS;
        RaceShadow.Page pg = page(region, first);
        RaceShadow.Cells cells = pg.words;
        boolean[] split = pg.split;
        int c0 = chunkShift >= 0 ? s0 >>> chunkShift : s0 / chunkSize;
        int start = c0 * chunkSize;
        int[][] chunks = vb.chunks;
        int[] ch = c0 < chunks.length && chunks[c0] != null ? chunks[c0] : zeroChunk;
        // A chunk by warp holds one entry per 32 ids.
        int sh = ch.length == chunkSize ? 0 : 5;
        long[] a = cells.d;
        int[] pcs = cells.pcs;
        int[] clk = d.clock;
        int[] pcOf = d.m.pc;
        if (lanes == -1 && split == null && consecutive(offsets, first)) {
            // The lanes' words are 32 consecutive cells of this page (a warp's buf[tid]): the same
            // checks over a counted loop, so the JIT checks the arrays' bounds once, not per lane.
            int b0 = ((first & (RaceShadow.PAGE - 1)) >> 2) * RaceShadow.Cells.STRIDE;
            int p0 = (first & (RaceShadow.PAGE - 1)) >> 1;
            int j0 = (first & (RaceShadow.PAGE - 1)) >> 2;
            for (int lane = 0; lane < 32; lane++) {
                int t = s0 + lane;
                int b = b0 + lane * RaceShadow.Cells.STRIDE;
                long epoch = ((long) clk[t] << 32) | t;
                if (cells.hasReadSet(j0 + lane)) return -1 << lane;
                long wr = a[b + RaceShadow.Cells.W];
                if (wr != 0 && wr != epoch && !before(wr, t, start, ch, sh, vb)) return -1 << lane;
                long r = a[b + RaceShadow.Cells.R];
                if (!write && r == epoch) continue;
                if (r != 0 && !before(r, t, start, ch, sh, vb)) {
                    if (write) return -1 << lane;
                    // A second reader unordered with the first: the pair the general loop would make.
                    d.shadow.countReadSets(twoReaders(cells, j0 + lane, r, t, clk[t], pcOf[t], step, false), step);
                    if (d.shadow.stoppedAt >= 0) return 0;
                    continue;
                }
                if (write) {
                    a[b + RaceShadow.Cells.W] = epoch;
                    a[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
                    a[b + RaceShadow.Cells.WSTEP] = step;
                    pcs[p0 + 2 * lane] = pcOf[t];
                } else {
                    a[b + RaceShadow.Cells.R] = epoch;
                    a[b + RaceShadow.Cells.RSTEP] = step;
                    pcs[p0 + 2 * lane + 1] = pcOf[t];
                }
            }
            return 0;
        }
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int t = s0 + lane;
            int offset = offsets[lane];
            if (offset >>> RaceShadow.PAGE_BITS != pageNo) return l;
            int j = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (split != null && split[j]) return l;
            if (cells.hasReadSet(j)) return l;
            int b = j * RaceShadow.Cells.STRIDE;
            long epoch = ((long) clk[t] << 32) | t;
            long wr = a[b + RaceShadow.Cells.W];
            if (wr != 0 && wr != epoch && !before(wr, t, start, ch, sh, vb)) return l;
            long r = a[b + RaceShadow.Cells.R];
            if (!write && r == epoch) continue;
            if (r != 0 && !before(r, t, start, ch, sh, vb)) {
                if (write) return l;
                d.shadow.countReadSets(twoReaders(cells, j, r, t, clk[t], pcOf[t], step, false), step);
                if (d.shadow.stoppedAt >= 0) return 0;
                continue;
            }
            if (write) {
                a[b + RaceShadow.Cells.W] = epoch;
                a[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
                a[b + RaceShadow.Cells.WSTEP] = step;
                pcs[2 * j] = pcOf[t];
            } else {
                a[b + RaceShadow.Cells.R] = epoch;
                a[b + RaceShadow.Cells.RSTEP] = step;
                pcs[2 * j + 1] = pcOf[t];
            }
        }
        return 0;
    }

    /**
     * Whether the access with epoch {@code e} is thread {@code t}'s own or happens before it: by the
     * clock chunk {@code ch} of {@code vb} (starting at thread {@code start}; {@code sh} 5 for a chunk
     * by warp, else 0) for an id of the warp's CTA, else (another CTA's, or an async agent's: the copy
     * that filled a tile) by that id's chunk of {@code vb}.
     */
    private boolean before(long e, int t, int start, int[] ch, int sh, VectorClock vb) {
        int id = (int) (e & (RaceDetector.STRONG - 1));
        int i = id - start;
        if (id == t) return true;
        if (i >= 0 && i < chunkSize) return (int) (e >>> 32) <= ch[i >> sh];
        return orderedFor(e, t, vb);
    }

    /** Whether lane {@code l} accesses the word at {@code first + 4l} for all 32 lanes, all in the page of {@code first}. */
    private static boolean consecutive(int[] offsets, int first) {
        if ((first & (RaceShadow.PAGE - 1)) > RaceShadow.PAGE - 128) return false;
        for (int lane = 1; lane < 32; lane++) if (offsets[lane] != first + 4 * lane) return false;
        return true;
    }

    /**
     * The usual access, a plain aligned word by thread {@code t} whose base is {@code vb}, checked
     * and recorded with no actor state set up: the same rules as {@link #cell}, for the cases where
     * they find nothing to report and need no read set. Returns false, having changed nothing, for
     * any other case, which the general path then handles (and reports, if it is a race).
     */
    private boolean plainWord(RaceShadow.Cells c, int j, int t, VectorClock vb, boolean write, long step) {
        long[] a = c.d;
        int b = j * RaceShadow.Cells.STRIDE;
        long epoch = ((long) d.clock[t] << 32) | t;
        long wr = a[b + RaceShadow.Cells.W];
        if (wr != 0 && wr != epoch && !orderedFor(wr, t, vb)) return false;
        if (c.hasReadSet(j)) return false;
        long r = a[b + RaceShadow.Cells.R];
        if (write) {
            if (r != 0 && !orderedFor(r, t, vb)) return false;
            a[b + RaceShadow.Cells.W] = epoch;
            a[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
            a[b + RaceShadow.Cells.WSTEP] = step;
            c.pcs[2 * j] = d.m.pc[t];
            return true;
        }
        if (r == epoch) return true;
        // Two unordered readers need a read set: the general path makes it.
        if (r != 0 && !orderedFor(r, t, vb)) return false;
        a[b + RaceShadow.Cells.R] = epoch;
        a[b + RaceShadow.Cells.RSTEP] = step;
        c.pcs[2 * j + 1] = d.m.pc[t];
        return true;
    }

    /**
     * A copy's element (a bulk or tensor copy's plain aligned word, the async actor set up by
     * {@link RaceDetector#beginAsync}) checked and recorded as {@link #cell} would, with none of the
     * per-access state set up: the tile word's last write (the previous copy's, usually the same
     * agent's), its pair of consumer reads, or the source word's last read. Returns false, having
     * changed nothing, whenever {@link #cell} could report or make a read set; the general path then runs.
     */
    private boolean copyWord(RaceShadow.Cells c, int j, int region, boolean write, long step) {
        long[] a = c.d;
        int b = j * RaceShadow.Cells.STRIDE;
        long epoch = ((long) d.actorClock << 32) | d.actorId;
        long wr = a[b + RaceShadow.Cells.W];
        if (wr != 0 && wr != epoch) {
            if (d.unordered(wr)) return false;
            RaceDetector.AsyncSnap async = d.asyncActor;
            if (async.asyncProxy() && !d.proxyFenced(wr, region)) return false;
        }
        if (write) {
            if (c.hasPair(j)) {
                for (int k = 0; k < 2; k++) {
                    int id = c.pairId(j, k) & ~STRONG_ID;
                    if (id != d.actorId && c.pairClock(j, k) > d.vc(id)) return false;
                }
                c.clearPair(j);
                d.shadow.countReadSets(-2, step);
            } else if (c.readSets != null && c.readSets[j] != null) {
                return false;
            } else {
                long r = a[b + RaceShadow.Cells.R];
                if (r != 0 && d.unordered(r)) return false;
            }
            a[b + RaceShadow.Cells.W] = epoch;
            a[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
            a[b + RaceShadow.Cells.WSTEP] = step;
            c.pcs[2 * j] = d.actorPc;
            return true;
        }
        if (c.hasReadSet(j)) return false;
        long r = a[b + RaceShadow.Cells.R];
        if (r == epoch) return true;
        // Two unordered readers need a read set: the general path makes it.
        if (r != 0 && d.unordered(r)) return false;
        a[b + RaceShadow.Cells.R] = epoch;
        a[b + RaceShadow.Cells.RSTEP] = step;
        c.pcs[2 * j + 1] = d.actorPc;
        return true;
    }

    /** Whether epoch {@code e} happens before thread {@code t}, whose base is {@code vb} (RaceDetector.unordered negated, for a thread actor). */
    private boolean orderedFor(long e, int t, VectorClock vb) {
        int id = (int) (e & (RaceDetector.STRONG - 1));
        if (id == t) return true;
        int c = chunkShift >= 0 ? id >>> chunkShift : id / chunkSize;
        int[] ch;
        if (vb == orderedVb && c == orderedChunkNo) {
            ch = orderedChunk;
        } else {
            int[][] chunks = vb.chunks;
            ch = c < chunks.length ? chunks[c] : null;
            orderedVb = vb;
            orderedChunkNo = c;
            orderedChunk = ch;
        }
        return ch != null && (int) (e >>> 32) <= VectorClock.entry(ch, id - c * chunkSize, chunkSize);
    }

    /**
     * The shadow page of {@code offset} in {@code region}, through a cache of each region's last
     * page: the accesses of a warp instruction nearly always fall in one page. Keyed on the shadow
     * itself, since a checkpoint restore replaces it.
     */
    private RaceShadow.Page page(int region, int offset) {
        int p = offset >>> RaceShadow.PAGE_BITS;
        RaceShadow shadow = d.shadow;
        if (shadow == cachedShadow && region < cachedPages.length && cachedPageNo[region] == p) {
            RaceShadow.Page pg = cachedPages[region];
            if (pg != null) return pg;
        }
        if (shadow != cachedShadow) {
            cachedShadow = shadow;
            java.util.Arrays.fill(cachedPages, null);
        }
        if (region >= cachedPages.length) {
            cachedPages = java.util.Arrays.copyOf(cachedPages, region + 1);
            cachedPageNo = java.util.Arrays.copyOf(cachedPageNo, region + 1);
        }
        RaceShadow.Page pg = shadow.page(region, offset);
        cachedPageNo[region] = p;
        cachedPages[region] = pg;
        return pg;
    }

    /** Checks and records the access in one cell (a word, or a byte of a split word); false after reporting a race. */
    private boolean cell(RaceShadow.Cells c, int j, int region, int off, boolean write, boolean strong) {
        long w = c.write(j);
        // Two strong accesses do not race when morally strong (each in the other's scope, same footprint).
        if (w != 0 && w != accessEpoch && w != orderedWrite && !(strong && (w & RaceDetector.STRONG) != 0 && d.scoped.morallyStrongWith(w))) {
            if (d.unordered(w)) {
                d.race(region, off, w, c.writePc(j), c.writeStep(j), true, write);
                return false;
            }
            // The write is ordered before this access; an async-proxy access also needs the writer's proxy fence.
            RaceDetector.AsyncSnap async = d.asyncActor;
            if (async != null && async.asyncProxy() && !d.proxyFenced(w, region)) {
                d.reported = true;
                RaceReport.proxyFenceMissing(d, region, off, (int) (w & (RaceDetector.STRONG - 1)), c.writePc(j), c.writeStep(j), write);
                return false;
            }
            orderedWrite = w;
        }
        if (write) {
            if (!checkReads(c, j, region, off, strong)) return false;
            c.setWrite(j, accessEpoch, d.actorPc, accessStep);
        } else {
            recordRead(c, j, strong);
        }
        return true;
    }

    /** A strong read's mark in a read-set id (ids are below 2^31): the set keeps a thread's strong and plain reads apart. */
    private static final int STRONG_ID = Integer.MIN_VALUE;

    /**
     * Checks a write against the cell's reads. A strong read that the strong write in progress is
     * morally strong with does not race with it even when unordered; it is kept (with the other
     * reads) for the writes after this one.
     */
    private boolean checkReads(RaceShadow.Cells c, int j, int region, int off, boolean strong) {
        if (!strong && c.hasPair(j)) {
            // The read set's loop over the pair's two entries, in set order, with no object made or dropped.
            for (int k = 0; k < 2; k++) {
                int id = c.pairId(j, k) & ~STRONG_ID;
                int clock = c.pairClock(j, k);
                if (id != d.actorId && clock > d.vc(id)) {
                    d.race(region, off, ((long) clock << 32) | id, c.pairPc(j, k), c.pairStep(j, k), false, true);
                    return false;
                }
            }
            c.clearPair(j);
            d.shadow.countReadSets(-2, accessStep);
            c.clearRead(j);
            return true;
        }
        boolean keep = false;
        RaceShadow.ReadSet rs = c.readSet(j);
        if (rs != null) {
            for (int k = 0; k < rs.size; k++) {
                int id = rs.ids[k] & ~STRONG_ID;
                if (id != d.actorId && rs.clocks[k] > d.vc(id)) {
                    if (strong && rs.ids[k] < 0 && d.scoped.readMorallyStrong(id, rs.clocks[k], ((long) region << 32) | (off & 0xFFFFFFFFL))) {
                        keep = true;
                        continue;
                    }
                    d.race(region, off, ((long) rs.clocks[k] << 32) | id, rs.pcs[k], rs.steps[k], false, true);
                    return false;
                }
            }
            if (keep) return true;
            c.readSets[j] = null;
            d.shadow.countReadSets(-rs.size, accessStep);
        } else {
            long r = c.read(j);
            if (r != 0 && r != orderedRead) {
                if (d.unordered(r)) {
                    if (!strong || (r & RaceDetector.STRONG) == 0
                            || !d.scoped.readMorallyStrong((int) (r & (RaceDetector.STRONG - 1)), (int) (r >>> 32), ((long) region << 32) | (off & 0xFFFFFFFFL))) {
                        d.race(region, off, r, c.readPc(j), c.readStep(j), false, true);
                        return false;
                    }
                    return true;
                }
                orderedRead = r;
            }
        }
        // Every earlier read happens before this write, so later accesses need only check the write.
        c.clearRead(j);
        return true;
    }

    /** Records a read ({@code strong}: an atomic or ordered one, kept so a later write that is not morally strong with it is checked). */
    private void recordRead(RaceShadow.Cells c, int j, boolean strong) {
        RaceShadow.ReadSet rs = c.readSet(j);
        int actorId = d.actorId;
        int actorClock = d.actorClock;
        if (rs != null) {
            if (rs.put(strong ? actorId | STRONG_ID : actorId, actorClock, d.actorPc, accessStep)) d.shadow.countReadSets(1, accessStep);
            return;
        }
        long r = c.read(j);
        long epoch = ((long) actorClock << 32) | actorId | (strong ? RaceDetector.STRONG : 0);
        if (r == epoch) return;
        // A strong read never replaces its own thread's plain one: the plain read is the one a later write can race with.
        if (strong && r != 0 && (r & RaceDetector.STRONG) == 0 && (int) (r & (RaceDetector.STRONG - 1)) == actorId) return;
        if (r == 0 || r == orderedRead || !d.unordered(r)) {
            orderedRead = r;
            c.setRead(j, epoch, d.actorPc, accessStep);
            return;
        }
        d.shadow.countReadSets(twoReaders(c, j, r, actorId, actorClock, d.actorPc, accessStep, strong), accessStep);
    }

    /**
     * Two unordered readers of cell {@code j}: its last read {@code r} and the read by {@code id}
     * at {@code clock} now become the cell's read set, kept until a write (which must be
     * ordered after each). Returns the read-set entries added, for the caller to count.
     */
    private int twoReaders(RaceShadow.Cells c, int j, long r, int id, int clock, int pc, long step, boolean strong) {
        // Held in place as a pair (RaceShadow.Cells#pairs): the set a read set object would be, without the objects.
        c.setPair(j, r, ((long) clock << 32) | id | (strong ? RaceDetector.STRONG : 0), pc, step);
        c.clearRead(j);
        return 2;
    }
}
