package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import java.util.ArrayList;
import java.util.List;

/**
 * Device global memory: named segments (launch buffers and module {@code .global} variables) at
 * fixed, deterministic addresses with unmapped gaps between them, so a stray pointer faults.
 */
public final class GlobalMemory {
    /** One mapped range. */
    public record Segment(String name, long base, byte[] data, boolean readOnly) {
        public long end() { return base + data.length; }
    }

    private static final long GAP = 4096;
    private final List<Segment> segments = new ArrayList<>();
    /** The element type a launch file gave the buffer at each base address (tensor reductions need it; not in any map's bytes). */
    private final java.util.TreeMap<Long, io.barrierscope.ptx.ScalarType> elementTypes = new java.util.TreeMap<>();
    private long next;
    private Segment last;
    /** Whether the watch watches {@link #last} (decided when last is found). */
    private boolean lastWatched;
    private int lastIndex;
    private WriteWatch watch;

    /** Told of every write access, before it happens (a launch bundle keeps the bytes a launch found). */
    public interface WriteWatch {
        /** {@code size} bytes at {@code offset} of {@code s} are about to be written. */
        void beforeWrite(Segment s, int offset, int size);

        /** Whether writes to {@code s} are watched; stores to a segment that is not stay on the fast path. */
        default boolean watches(Segment s) { return true; }
    }

    /** Sets the write watch, or removes it with null. */
    public void watchWrites(WriteWatch w) {
        watch = w;
        last = null; // lastWatched is decided anew for the next segment found
    }

    public GlobalMemory() { this(Space.GLOBAL_BASE); }

    /**
     * Memory whose first segment is mapped at {@code base} (4096-aligned, at or above
     * {@link Space#GLOBAL_BASE}): a program's own globals placed inside a larger device address
     * space that outlives one launch (the CUDA runtime's).
     */
    public GlobalMemory(long base) {
        if (base < Space.GLOBAL_BASE || base % 4096 != 0) throw new IllegalArgumentException("bad global base 0x" + Long.toHexString(base));
        this.next = base;
    }

    /** Where the next {@link #map} places its segment. */
    public long nextAddress() { return next; }

    /**
     * Maps {@code data} at {@code base}, which must be at or above {@link #nextAddress()} (segments
     * stay sorted and apart), for a segment placed elsewhere first (a program's globals).
     */
    public Segment mapAt(String name, long base, byte[] data, boolean readOnly) {
        if (base < next) throw new IllegalArgumentException("0x" + Long.toHexString(base) + " is below the next free address");
        Segment s = new Segment(name, base, data, readOnly);
        segments.add(s);
        next = after(base, data.length);
        return s;
    }

    /**
     * Unmaps the segment starting at {@code base} (a freed allocation); false when none starts
     * there. Its addresses are never handed out again, so a stale pointer faults.
     */
    public boolean unmap(long base) {
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).base == base) {
                segments.remove(i);
                last = null;
                return true;
            }
        }
        return false;
    }

    /**
     * Maps {@code data} at {@code base} without moving {@link #nextAddress()}: a range whose address
     * someone else chose (host memory a program registers, reached at its host address). False,
     * mapping nothing, when it overlaps a segment, reaches {@link Space#SHARED_WINDOW} (generic
     * addresses there are other spaces), or meets [{@link Space#GLOBAL_BASE}, next + 1 TiB): the
     * room {@link #map} places its segments in, so that they never meet.
     */
    public boolean mapApart(String name, long base, byte[] data, boolean readOnly) {
        long end = base + data.length;
        if (base <= 0 || end < base || end > Space.SHARED_WINDOW || (end > Space.GLOBAL_BASE && base < next + ROOM)) return false;
        for (Segment s : segments) if (base < s.end() && s.base < end) return false;
        segments.add(new Segment(name, base, data, readOnly));
        return true;
    }

    private static final long ROOM = 1L << 40;

    /** Maps {@code data} at the next free, 256-byte aligned address and returns its segment. */
    public Segment map(String name, byte[] data, boolean readOnly) {
        Segment s = new Segment(name, next, data, readOnly);
        segments.add(s);
        next = after(next, data.length);
        return s;
    }

    private static long align(long v, long a) { return (v + a - 1) / a * a; }

    /** The next free address after a segment of {@code length} bytes at {@code base} (a launch's placement is planned with it before any byte is allocated). */
    public static long after(long base, long length) { return align(base + Math.max(length, 1) + GAP, 4096); }

    public List<Segment> segments() { return segments; }

    /** Records the element type of the buffer at {@code base}, as its launch file declared it. */
    public void elementType(long base, io.barrierscope.ptx.ScalarType t) { elementTypes.put(base, t); }

    /** The element type of the buffer at {@code base}, or null when none was declared. */
    public io.barrierscope.ptx.ScalarType elementTypeAt(long base) { return elementTypes.get(base); }

    /** A deep copy: same addresses, own bytes. */
    public GlobalMemory copy() {
        GlobalMemory g = new GlobalMemory();
        for (Segment s : segments) g.segments.add(new Segment(s.name, s.base, s.data.clone(), s.readOnly));
        g.next = next;
        g.elementTypes.putAll(elementTypes);
        return g;
    }

    /**
     * Copies of the writable segments' bytes, by segment (null for a read-only one: nothing can
     * change it), for a checkpoint. The segment list itself is fixed once the launch is placed.
     */
    public byte[][] saveData() {
        byte[][] out = new byte[segments.size()][];
        for (int i = 0; i < out.length; i++) {
            Segment s = segments.get(i);
            if (!s.readOnly) out[i] = s.data.clone();
        }
        return out;
    }

    /** Whether {@code saved} (from {@link #saveData}) has this memory's segments and sizes. */
    public boolean fits(byte[][] saved) {
        if (saved.length != segments.size()) return false;
        for (int i = 0; i < saved.length; i++) {
            Segment s = segments.get(i);
            if (s.readOnly ? saved[i] != null : saved[i] == null || saved[i].length != s.data.length) return false;
        }
        return true;
    }

    /** Copies {@code saved} back into the segments' own arrays (which the run may have handed out). */
    public void restoreData(byte[][] saved) {
        if (!fits(saved)) throw new IllegalArgumentException("global memory of another launch");
        for (int i = 0; i < saved.length; i++) {
            if (saved[i] != null) System.arraycopy(saved[i], 0, segments.get(i).data, 0, saved[i].length);
        }
    }

    public Segment byName(String name) {
        for (Segment s : segments) {
            if (s.name.equals(name)) return s;
        }
        return null;
    }

    /** The segment holding [addr, addr+size) or a fault naming the nearest segment. */
    public Segment find(long addr, int size, boolean write) {
        Segment s = last;
        if (s == null || addr < s.base || addr + size > s.end()) {
            s = null;
            for (int i = 0; i < segments.size(); i++) {
                Segment c = segments.get(i);
                if (addr >= c.base && addr + size <= c.end()) {
                    s = c;
                    lastIndex = i;
                    break;
                }
            }
            if (s == null) throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr,
                    "global address 0x" + Long.toHexString(addr) + " (" + size + " bytes) is not mapped; " + nearest(addr));
            last = s;
            lastWatched = watch != null && watch.watches(s);
        }
        if (write && s.readOnly) throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr,
                "write to read-only global memory at 0x" + Long.toHexString(addr) + " (" + s.name + ")");
        if (write && lastWatched) watch.beforeWrite(s, (int) (addr - s.base), size);
        return s;
    }

    /** The segment the last access found when a store may write it inline (writable, not watched), else null. */
    Segment lastWritable() { return last == null || last.readOnly || lastWatched ? null : last; }

    /**
     * The segment the last {@link #find} returned when it holds [addr, addr+size) and, for a write,
     * is writable and not watched; else null (then {@link #find} decides, and reports).
     */
    Segment lastHolding(long addr, int size, boolean write) {
        Segment s = last;
        if (s == null || addr < s.base || addr + size > s.end()) return null;
        return write && (s.readOnly || lastWatched) ? null : s;
    }

    /** The index in {@link #segments} of the segment the last {@link #find} returned. */
    public int lastIndex() { return lastIndex; }

    /** Describes the segment nearest to {@code addr}, for fault messages. */
    public String nearest(long addr) {
        Segment best = null;
        long bestDist = Long.MAX_VALUE;
        for (Segment c : segments) {
            long d = addr < c.base ? c.base - addr : Math.max(0, addr - c.end() + 1);
            if (d < bestDist) {
                bestDist = d;
                best = c;
            }
        }
        if (best == null) return "no global memory is mapped";
        if (addr < best.base) return "nearest is '" + best.name + "' starting " + (best.base - addr) + " bytes above";
        if (addr >= best.end()) return "nearest is '" + best.name + "' (" + best.data.length + " bytes) ending "
                + (addr - best.end()) + " bytes below";
        return "inside '" + best.name + "' at offset " + (addr - best.base) + " of " + best.data.length;
    }

    public long totalBytes() {
        long t = 0;
        for (Segment s : segments) t += s.data.length;
        return t;
    }
}
