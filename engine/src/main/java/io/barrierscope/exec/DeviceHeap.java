package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The device heap of the device runtime's {@code malloc}, {@code free} and
 * {@code __nv_aligned_device_malloc} (what nvcc calls for {@code new} and {@code delete} too):
 * one global segment named {@link #SEGMENT}, mapped before a launch whose kernel calls them, that
 * lives as long as its device memory (the CUDA context: a runtime program's whole run; one
 * launch for `run`). Everything the allocator knows is in the segment's own bytes (a control
 * block, then blocks each behind a 16-byte header), so checkpoints, time travel and launch
 * bundles carry the heap's state with its memory and nothing else.
 *
 * <p>Deterministic next-fit: a search starts where the last allocation ended, wraps once, and
 * joins adjacent free blocks on its way. Payloads are 16-byte aligned, as the CUDA C++
 * Programming Guide promises ("Dynamic Global Memory Allocation and Operations"); a request the
 * heap cannot hold returns NULL. {@code free} of a pointer no malloc returned, or of one already
 * freed, is undefined there and a diagnostic here (docs/semantics.md, "Device heap").
 */
public final class DeviceHeap {
    /** The segment's name (a launch file's buffer of this name is the heap, as a launch bundle writes it). */
    public static final String SEGMENT = "deviceHeap";
    /** The heap CUDA makes when the program sets no cudaLimitMallocHeapSize: 8 MiB. */
    public static final long DEFAULT_BYTES = 8L << 20;
    /** The largest heap one segment holds. */
    public static final long MAX_BYTES = (1L << 30);

    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static final int ALIGN = 16;
    /** Control block: u32 magic, u32 rover (offset / 16), u64 the word every call reads and writes (their order). */
    static final int CONTROL = 16;
    /** Block header: u32 magic ^ (offset / 16), u32 state, u64 size (header included). */
    static final int HEADER = 16;
    /** The smallest block: a header and 16 bytes. */
    private static final int MIN_BLOCK = HEADER + ALIGN;
    private static final int HEAP_MAGIC = 0x50414548;
    private static final int BLOCK_MAGIC = 0xB10C0DE5;
    private static final int FREE = 0;
    private static final int USED = 1;

    private DeviceHeap() {}

    /** A heap's misuse or corruption: reported as a diagnostic for the calling thread. */
    static final class Misuse extends RuntimeException {
        final DiagnosticCode code;

        Misuse(DiagnosticCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** The size of the segment of a heap of {@code bytes} (what a launch holds for it). */
    public static long segmentBytes(long bytes) { return CONTROL + blockBytes(bytes); }

    /** The bytes after the control block: {@code bytes} rounded up to 16, none when they cannot hold one block (a header and 16 bytes). */
    private static long blockBytes(long bytes) {
        long b = (bytes + ALIGN - 1) / ALIGN * ALIGN;
        return b < MIN_BLOCK ? 0 : b;
    }

    /** The bytes of a fresh heap holding {@code bytes} (rounded up to 16, header space included): one free block. */
    public static byte[] fresh(long bytes) {
        if (bytes < 0 || bytes > MAX_BYTES) throw new IllegalArgumentException("a device heap of " + bytes + " bytes");
        // A 16-byte rest would be a block without a header that malloc then reads as corruption: it is left out.
        int blocks = (int) blockBytes(bytes);
        byte[] d = new byte[CONTROL + blocks];
        I32.set(d, 0, HEAP_MAGIC);
        I32.set(d, 4, CONTROL / ALIGN);
        if (blocks > 0) header(d, CONTROL, FREE, blocks);
        return d;
    }

    private static void header(byte[] d, int o, int state, long size) {
        I32.set(d, o, BLOCK_MAGIC ^ (o >>> 4));
        I32.set(d, o + 4, state);
        I64.set(d, o + 8, size);
    }

    private static GlobalMemory.Segment segment(Memory mem) {
        GlobalMemory.Segment s = mem.global.byName(SEGMENT);
        if (s == null) throw new Misuse(DiagnosticCode.MEMORY_FAULT, "no device heap is mapped in this launch");
        // A launch file's heap buffer of another shape would have its headers read past its end.
        if (s.data().length < CONTROL || s.data().length % ALIGN != 0) throw corrupted(s, 0, "size (" + s.data().length + " bytes, not 16 + a multiple of 16)");
        return s;
    }

    /**
     * The allocator's own order: each call is an acq_rel read-modify-write at .gpu scope of the
     * control block's word (the allocator is one shared structure; memory one thread frees and
     * another's malloc returns is passed on through it, never raced on).
     */
    private static void sync(Memory mem, GlobalMemory.Segment s, int thread) {
        long at = s.base() + 8;
        if (mem.race != null) mem.race.beginStrong(4, true, MemoryModelHook.SCOPE_GPU);
        try {
            long v = mem.load(Space.GLOBAL, at, 8, thread);
            mem.store(Space.GLOBAL, at, 8, v + 1, thread);
        } finally {
            if (mem.race != null) mem.race.endStrong();
        }
    }

    /** Writes a header through the memory's write path's bookkeeping (a launch bundle's write watch). */
    private static void write(Memory mem, GlobalMemory.Segment s, int o, int state, long size) {
        mem.global.find(s.base() + o, HEADER, true);
        header(s.data(), o, state, size);
    }

    private static Misuse corrupted(GlobalMemory.Segment s, int o, String what) {
        return new Misuse(DiagnosticCode.HEAP_CORRUPTED, "the device heap's " + what + " at 0x" + Long.toHexString(s.base() + o)
                + " was overwritten (a write outside an allocation malloc returned?)");
    }

    /** The size of the valid block at {@code o}, or a corruption report. */
    private static long block(GlobalMemory.Segment s, int o) {
        byte[] d = s.data();
        long size = (long) I64.get(d, o + 8);
        int state = (int) I32.get(d, o + 4);
        if ((int) I32.get(d, o) != (BLOCK_MAGIC ^ (o >>> 4)) || (state != FREE && state != USED) || size < MIN_BLOCK
                || size % ALIGN != 0 || size > d.length - o) throw corrupted(s, o, "block header");
        return size;
    }

    private static boolean isFree(byte[] d, int o) { return (int) I32.get(d, o + 4) == FREE; }

    /**
     * malloc ({@code align} 16) or __nv_aligned_device_malloc ({@code align} a power of two) for
     * {@code thread}: the payload's address, or 0 when the heap has no room.
     */
    static long malloc(Memory mem, int thread, long size, long align) {
        GlobalMemory.Segment s = segment(mem);
        sync(mem, s, thread);
        byte[] d = s.data();
        int end = d.length;
        if ((int) I32.get(d, 0) != HEAP_MAGIC) throw corrupted(s, 0, "control block");
        long rover = ((int) I32.get(d, 4) & 0xFFFFFFFFL) * ALIGN;
        if (rover < CONTROL || rover > end) throw corrupted(s, 0, "control block");
        // Unsigned: a size or alignment of 2^63 or more (negative here) is more than the heap holds too.
        if (size < 0 || size > end || align < 0 || align > end) return 0;
        long payload = Math.max(ALIGN, (size + ALIGN - 1) / ALIGN * ALIGN);
        long a = Math.max(align, ALIGN);
        for (int pass = rover == CONTROL ? 1 : 0; pass < 2; pass++) {
            int o = pass == 0 ? (int) rover : CONTROL;
            while (o < end) {
                long bs = block(s, o);
                if (!isFree(d, o)) {
                    o += (int) bs;
                    continue;
                }
                // Join the free blocks that follow; the rover never points inside a block.
                long joined = bs;
                while (o + joined < end) {
                    int n = (int) (o + joined);
                    long next = block(s, n);
                    if (!isFree(d, n)) break;
                    joined += next;
                }
                if (joined != bs) {
                    // The joined blocks' headers are erased: left in place, a free of a pointer into the
                    // block (which malloc may hand out whole) would find one and call it a double free.
                    for (long n = o + bs; n < o + joined; ) {
                        long next = (long) I64.get(d, (int) n + 8);
                        mem.global.find(s.base() + n, HEADER, true);
                        java.util.Arrays.fill(d, (int) n, (int) n + HEADER, (byte) 0);
                        n += next;
                    }
                    write(mem, s, o, FREE, joined);
                    bs = joined;
                    long r = ((int) I32.get(d, 4) & 0xFFFFFFFFL) * ALIGN;
                    if (r > o && r < o + bs) setRover(mem, s, o);
                }
                // The payload's place: aligned, with any gap before it large enough to stay a free block.
                long p = alignUp(s.base() + o + HEADER, a) - s.base();
                while (p - HEADER - o != 0 && p - HEADER - o < MIN_BLOCK) p += a;
                long b = p - HEADER;
                if (b + HEADER + payload <= o + bs) {
                    if (b > o) write(mem, s, o, FREE, b - o);
                    long rest = o + bs - b;
                    long used = rest - (HEADER + payload) >= MIN_BLOCK ? HEADER + payload : rest;
                    write(mem, s, (int) b, USED, used);
                    if (used < rest) write(mem, s, (int) (b + used), FREE, rest - used);
                    setRover(mem, s, (int) (b + used < end ? b + used : CONTROL));
                    return s.base() + p;
                }
                o += (int) bs;
            }
        }
        return 0;
    }

    private static long alignUp(long v, long a) { return (v + a - 1) & -a; }

    private static void setRover(Memory mem, GlobalMemory.Segment s, int o) {
        mem.global.find(s.base() + 4, 4, true);
        I32.set(s.data(), 4, o / ALIGN);
    }

    /** free for {@code thread}: NULL is ignored, as in C; anything but a live pointer malloc returned is misuse. */
    static void free(Memory mem, int thread, long addr) {
        if (addr == 0) return;
        GlobalMemory.Segment s = segment(mem);
        sync(mem, s, thread);
        long off = addr - s.base();
        String at = "free(0x" + Long.toHexString(addr) + ")";
        if (off < CONTROL + HEADER || off >= s.data().length || addr < s.base()) {
            throw new Misuse(DiagnosticCode.HEAP_INVALID_FREE, at + ": not a pointer malloc returned (it is not in the device heap; "
                    + mem.global.nearest(addr) + ")");
        }
        int o = (int) off - HEADER;
        byte[] d = s.data();
        boolean header = off % ALIGN == 0 && (int) I32.get(d, o) == (BLOCK_MAGIC ^ (o >>> 4));
        int state = header ? (int) I32.get(d, o + 4) : -1;
        long size = header ? (long) I64.get(d, o + 8) : 0;
        if (!header || (state != FREE && state != USED) || size < MIN_BLOCK || size % ALIGN != 0 || size > d.length - o) {
            throw new Misuse(DiagnosticCode.HEAP_INVALID_FREE, at + ": not a pointer malloc returned (offset " + off
                    + " of the device heap is no allocation's start)");
        }
        if (state == FREE) throw new Misuse(DiagnosticCode.HEAP_DOUBLE_FREE, at + ": the allocation was freed already");
        write(mem, s, o, FREE, size);
    }
}
