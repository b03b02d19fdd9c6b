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
    /** {@link #page}'s cache (not state: pages are found again from the shadow after a restore). */
    private RaceShadow cachedShadow;
    private int cachedRegion = -1;
    private int cachedPageNo = -1;
    private RaceShadow.Page cachedPage;

    RaceAccess(RaceDetector d) {
        this.d = d;
        this.chunkSize = d.chunkSize;
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
        }
        if (byThread) d.actThread(thread);
        boolean strong = d.strongMode != 0;
        if (strong) d.scoped.key = ((long) region << 32) | (offset & 0xFFFFFFFFL);
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
        if (strong && byThread) d.strongSync(region, offset, thread, write);
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
                        if (ch == null || (int) (wr >>> 32) > ch[id - c * chunkSize]) break fast;
                    }
                }
                if (readSets != null && readSets[j] != null) break fast;
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
                        if (ch == null || (int) (r >>> 32) > ch[id - c * chunkSize]) break fast;
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
        if (c.readSets != null && c.readSets[j] != null) return false;
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
        return ch != null && (int) (e >>> 32) <= ch[id - c * chunkSize];
    }

    /**
     * The shadow page of {@code offset} in {@code region}, through a one-entry cache: the accesses
     * of a warp instruction nearly always fall in one page. Keyed on the shadow itself, since a
     * checkpoint restore replaces it.
     */
    private RaceShadow.Page page(int region, int offset) {
        int p = offset >>> RaceShadow.PAGE_BITS;
        RaceShadow shadow = d.shadow;
        if (region == cachedRegion && p == cachedPageNo && shadow == cachedShadow) return cachedPage;
        RaceShadow.Page pg = shadow.page(region, offset);
        cachedShadow = shadow;
        cachedRegion = region;
        cachedPageNo = p;
        cachedPage = pg;
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
            if (!checkReads(c, j, region, off)) return false;
            c.setWrite(j, accessEpoch, d.actorPc, accessStep);
        } else if (!strong) {
            recordRead(c, j);
        }
        return true;
    }

    private boolean checkReads(RaceShadow.Cells c, int j, int region, int off) {
        RaceShadow.ReadSet rs = c.readSet(j);
        if (rs != null) {
            for (int k = 0; k < rs.size; k++) {
                int id = rs.ids[k];
                if (id != d.actorId && rs.clocks[k] > d.vc(id)) {
                    d.race(region, off, ((long) rs.clocks[k] << 32) | id, rs.pcs[k], rs.steps[k], false, true);
                    return false;
                }
            }
            c.readSets[j] = null;
            d.shadow.countReadSets(-rs.size, accessStep);
        } else {
            long r = c.read(j);
            if (r != 0 && r != orderedRead) {
                if (d.unordered(r)) {
                    d.race(region, off, r, c.readPc(j), c.readStep(j), false, true);
                    return false;
                }
                orderedRead = r;
            }
        }
        // Every earlier read happens before this write, so later accesses need only check the write.
        c.clearRead(j);
        return true;
    }

    private void recordRead(RaceShadow.Cells c, int j) {
        RaceShadow.ReadSet rs = c.readSet(j);
        int actorId = d.actorId;
        int actorClock = d.actorClock;
        if (rs != null) {
            if (rs.put(actorId, actorClock, d.actorPc, accessStep)) d.shadow.countReadSets(1, accessStep);
            return;
        }
        long r = c.read(j);
        long epoch = ((long) actorClock << 32) | actorId;
        if (r == epoch) return;
        if (r == 0 || r == orderedRead || !d.unordered(r)) {
            orderedRead = r;
            c.setRead(j, epoch, d.actorPc, accessStep);
            return;
        }
        // Two unordered readers: keep both (a later write must be ordered after each).
        if (c.readSets == null) c.readSets = new RaceShadow.ReadSet[c.size()];
        rs = c.readSets[j] = new RaceShadow.ReadSet();
        rs.put((int) (r & (RaceDetector.STRONG - 1)), (int) (r >>> 32), c.readPc(j), c.readStep(j));
        rs.put(actorId, actorClock, d.actorPc, accessStep);
        c.clearRead(j);
        d.shadow.countReadSets(2, accessStep);
    }
}
