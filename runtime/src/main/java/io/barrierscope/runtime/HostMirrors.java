package io.barrierscope.runtime;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.MemoryFault;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Device memory the program also holds in its own address space at the same address: managed and
 * pinned allocations, registered host ranges, {@code __managed__} variables (docs/runtime.md,
 * "Moving mirrored memory"). The program's runtime keeps a shadow of what the engine holds there
 * and, before a launch, sends only the byte ranges where its host bytes differ from that shadow
 * (PUSH); the launch's reply carries only the ranges the kernel changed. Both sides stay exact
 * because every other change to these bytes is caught here: a process whose shadow may be out of
 * date (another process pushed or launched since, or a copy or memset reached the bytes on the
 * engine's side) is told so and sends everything whole.
 */
final class HostMirrors {
    /** {@link #syncedBy}: no process has pushed or launched yet, so every shadow holds what the engine holds. */
    static final int UNTOUCHED = -1;
    /** {@link #syncedBy}: the bytes changed in a way no shadow follows: every process must send them whole. */
    static final int STALE = -2;
    /** Two changed runs closer than this are sent as one (a range's header is 12 bytes). */
    static final int GAP = 16;

    /** What one launch moved: bytes and ranges pushed before it (since the previous launch), and pulled after it. */
    record Transfer(int launch, long pushedBytes, int pushedRanges, long pulledBytes, int pulledRanges) {}

    private final GlobalMemory device;
    private final TreeMap<Long, Long> ranges = new TreeMap<>(); // base -> bytes
    /** The connection (process) whose shadows hold what the engine holds, or UNTOUCHED, or STALE. */
    private int syncedBy = UNTOUCHED;
    private long pushedBytes;
    private int pushedRanges;
    private final List<Transfer> transfers = new ArrayList<>();

    HostMirrors(GlobalMemory device) { this.device = device; }

    /** Every launch's transfer, in launch order (tests read it; launches with no mirrored memory included). */
    List<Transfer> transfers() { return transfers; }

    /** [base, base+size) of a mapped segment is mirrored in the program from now on. */
    void add(long base, long size) {
        device.find(base, (int) size, false); // throws MemoryFault when it is not mapped
        ranges.put(base, size);
    }

    /** The segment [base, end) was unmapped (cudaFree, cudaFreeHost, cudaHostUnregister): its ranges go. */
    void dropWithin(long base, long end) { ranges.subMap(base, end).clear(); }

    /** A copy or memset reached [addr, addr+size) on the engine's side: if that is mirrored, no shadow holds it. */
    void touchedOutside(long addr, long size) {
        Map.Entry<Long, Long> e = ranges.lowerEntry(addr + Math.max(size, 1));
        if (e != null && e.getKey() + e.getValue() > addr) syncedBy = STALE;
    }

    /** A launch's end did not come normally (an internal error): what it wrote is unknown to every shadow. */
    void stale() { syncedBy = STALE; }

    /**
     * PUSH from {@code client}: writes each range ({@code u64 address, u32 length, bytes}, to the
     * payload's end) into its mirrored range, and answers whether the client's shadows were out of
     * date (then it sends everything whole next). A range outside mirrored memory is skipped, the
     * others written, and then named (IllegalArgumentException: the request fails).
     */
    boolean push(int client, ByteBuffer p) {
        boolean stale = syncedBy != UNTOUCHED && syncedBy != client;
        syncedBy = client;
        String outside = null;
        while (p.hasRemaining()) {
            long addr = p.getLong();
            int n = p.getInt();
            if (n < 0 || n > p.remaining()) throw new IllegalArgumentException("a pushed range of " + Integer.toUnsignedString(n) + " bytes");
            Map.Entry<Long, Long> e = ranges.floorEntry(addr);
            if (e == null || addr - e.getKey() > e.getValue() - n) {
                // Memory another process freed (it shares the device): nowhere to put these bytes. The
                // other ranges still go in, or the engine would lag behind the shadows that hold them.
                if (outside == null) outside = "a pushed range at 0x" + Long.toHexString(addr) + " outside mirrored memory";
                p.position(p.position() + n);
                continue;
            }
            // The host may write a read-only registered range: only kernels may not.
            GlobalMemory.Segment s = device.find(addr, n, false);
            p.get(s.data(), (int) (addr - s.base()), n);
            pushedBytes += n;
            pushedRanges++;
        }
        if (outside != null) throw new IllegalArgumentException(outside);
        return stale;
    }

    /** The watch for one launch, or null when nothing is mirrored. */
    Tracker tracker() {
        if (ranges.isEmpty()) return null;
        Tracker t = new Tracker();
        for (Map.Entry<Long, Long> e : ranges.entrySet()) {
            try {
                t.pages.put(device.find(e.getKey(), (int) (long) e.getValue(), false), new TreeMap<>());
            } catch (MemoryFault f) {
                // unmapped by a path that did not tell us: nothing of it to watch
            }
        }
        return t;
    }

    /**
     * Keeps, during one launch, each 4 KiB page of a mirrored segment as it was before the launch
     * first wrote it (other segments are not watched, so stores to them stay on the engine's fast
     * path); after the launch the changed bytes are those where a kept page and the segment differ.
     */
    static final class Tracker implements GlobalMemory.WriteWatch {
        static final int PAGE = 4096;
        private final IdentityHashMap<GlobalMemory.Segment, TreeMap<Integer, byte[]>> pages = new IdentityHashMap<>();

        @Override
        public boolean watches(GlobalMemory.Segment s) { return pages.containsKey(s); }

        @Override
        public void beforeWrite(GlobalMemory.Segment s, int offset, int size) {
            TreeMap<Integer, byte[]> kept = pages.get(s);
            if (kept == null) return;
            for (int p = offset / PAGE; p <= (offset + Math.max(size, 1) - 1) / PAGE; p++) {
                if (!kept.containsKey(p)) {
                    int from = p * PAGE;
                    kept.put(p, java.util.Arrays.copyOfRange(s.data(), from, Math.min(s.data().length, from + PAGE)));
                }
            }
        }
    }

    /**
     * After the launch {@code number} of {@code client}: appends to the reply {@code u32 n} and n
     * ranges ({@code u64 address, u32 length, bytes}) covering every byte of mirrored memory the
     * launch changed, in address order, and records what the launch moved.
     */
    void changes(Tracker t, int client, int number, RuntimeProtocol.Payload out) {
        RuntimeProtocol.Payload runs = new RuntimeProtocol.Payload();
        int n = 0;
        long bytes = 0;
        if (t != null) {
            for (Map.Entry<Long, Long> e : ranges.entrySet()) {
                GlobalMemory.Segment s;
                try {
                    s = device.find(e.getKey(), (int) (long) e.getValue(), false);
                } catch (MemoryFault f) {
                    continue;
                }
                TreeMap<Integer, byte[]> kept = t.pages.get(s);
                if (kept == null || kept.isEmpty()) continue;
                int lo = (int) (e.getKey() - s.base()), hi = (int) (lo + e.getValue());
                int start = -1, end = -1;
                for (Map.Entry<Integer, byte[]> page : kept.entrySet()) {
                    int from = page.getKey() * Tracker.PAGE;
                    byte[] was = page.getValue();
                    for (int i = Math.max(lo, from); i < Math.min(hi, from + was.length); i++) {
                        if (was[i - from] == s.data()[i]) continue;
                        if (start >= 0 && i - end < GAP) {
                            end = i + 1;
                            continue;
                        }
                        if (start >= 0) {
                            runs.u64(s.base() + start).u32(end - start).bytes(java.util.Arrays.copyOfRange(s.data(), start, end));
                            n++;
                            bytes += end - start;
                        }
                        start = i;
                        end = i + 1;
                    }
                }
                if (start >= 0) {
                    runs.u64(s.base() + start).u32(end - start).bytes(java.util.Arrays.copyOfRange(s.data(), start, end));
                    n++;
                    bytes += end - start;
                }
            }
        }
        out.u32(n).bytes(runs.toArray());
        // The client's shadows follow these changes; any other process's no longer hold the engine's bytes.
        if (n > 0) syncedBy = syncedBy == UNTOUCHED || syncedBy == client ? client : STALE;
        transfers.add(new Transfer(number, pushedBytes, pushedRanges, bytes, n));
        pushedBytes = 0;
        pushedRanges = 0;
    }
}
