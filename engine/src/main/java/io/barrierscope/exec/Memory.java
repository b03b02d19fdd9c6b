package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * All memory of one launch: global segments, the constant bank, shared memory per CTA, local
 * memory and call-parameter scratch per thread, and the kernel parameter buffer. Every access is
 * bounds- and alignment-checked; a bad one throws {@link MemoryFault}. Little-endian, as the GPU.
 */
public final class Memory {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public final GlobalMemory global;
    public final byte[] constBank;
    public final byte[][] shared;
    public final int sharedDeclared;
    public final byte[] local;
    public final int localPerThread;
    public final byte[] threadParams;
    public final int paramPerThread;
    public final byte[] kernelParams;
    private final int threadsPerCta;
    private final SymbolTable symbols;

    /**
     * Per CTA, one byte per 8-byte shared word: 1 where a valid mbarrier object lives. Plain
     * accesses to those words are undefined (PTX ISA 9.7.13.15); {@link #validMbarriers} keeps
     * the check off the hot path while no mbarrier exists.
     */
    public final byte[][] mbarrierWords;
    public int validMbarriers;
    /**
     * Per thread: side effects (stores, atomics, mbarrier arrivals) so far. A thread that polls an
     * unchanged mbarrier twice with none in between is parked (semantics.md section 9).
     */
    public final long[] effects;
    /**
     * Memory writes so far by anyone (stores, atomics, copies landing): a poller parked after
     * reading memory must poll again once anything may have changed what it read.
     */
    public long writes;
    /** Per CTA: the CTAs of its cluster by rank; set by the machine. */
    public int[][] clusterMembers;
    /** Per CTA: every thread has exited (its shared memory is gone). */
    public boolean[] ctaExited;

    /** The race detector's access hook, or null when detection is off. */
    public MemoryModelHook race;
    /** Scratch for a warp's lane offsets handed to {@link MemoryModelHook#accessWords} (one machine, one thread). */
    final int[] laneOffsets = new int[32];

    // Result of resolve(): the array and offset of the last resolved access (single-threaded engine),
    // and its race-detection region: the CTA for shared memory, ctas + segment for global, -1 untracked.
    private byte[] rArr;
    private int rOff;
    private int rRegion;

    public Memory(GlobalMemory global, byte[] constBank, int ctas, int sharedBytes, int sharedDeclared,
                  int threads, int threadsPerCta, int localPerThread, int paramPerThread, byte[] kernelParams,
                  SymbolTable symbols) {
        this.global = global;
        this.constBank = constBank;
        this.shared = new byte[ctas][sharedBytes];
        this.mbarrierWords = new byte[ctas][];
        this.effects = new long[threads];
        this.sharedDeclared = sharedDeclared;
        this.localPerThread = localPerThread;
        this.local = new byte[Math.multiplyExact(threads, localPerThread)];
        this.paramPerThread = paramPerThread;
        this.threadParams = new byte[Math.multiplyExact(threads, paramPerThread)];
        this.kernelParams = kernelParams;
        this.threadsPerCta = threadsPerCta;
        this.symbols = symbols;
    }

    /**
     * The mutable part of memory, for a checkpoint (opaque). The constant bank and the kernel
     * parameters are never written (resolve refuses it), so they are not copied.
     */
    public static final class Saved {
        private final byte[][] shared;
        private final byte[] local;
        private final byte[] threadParams;
        private final byte[][] mbarrierWords;
        private final int validMbarriers;
        private final long[] effects;
        private final long writes;
        private final boolean[] ctaExited;
        private final byte[][] global;

        private Saved(Memory m) {
            shared = new byte[m.shared.length][];
            for (int c = 0; c < shared.length; c++) shared[c] = m.shared[c].clone();
            local = m.local.clone();
            threadParams = m.threadParams.clone();
            mbarrierWords = new byte[m.mbarrierWords.length][];
            for (int c = 0; c < mbarrierWords.length; c++) if (m.mbarrierWords[c] != null) mbarrierWords[c] = m.mbarrierWords[c].clone();
            validMbarriers = m.validMbarriers;
            effects = m.effects.clone();
            writes = m.writes;
            ctaExited = m.ctaExited.clone();
            global = m.global.saveData();
        }

        /** Approximate heap bytes. */
        public long bytes() {
            long b = 128 + local.length + threadParams.length + 8L * effects.length + ctaExited.length;
            for (byte[] a : shared) b += 16 + a.length;
            for (byte[] a : mbarrierWords) if (a != null) b += 16 + a.length;
            for (byte[] a : global) if (a != null) b += 16 + a.length;
            return b;
        }

        /** Whether this was taken from a memory of the same shape as {@code m}. */
        boolean fits(Memory m) {
            if (shared.length != m.shared.length || local.length != m.local.length || threadParams.length != m.threadParams.length
                    || effects.length != m.effects.length || ctaExited.length != m.ctaExited.length || !m.global.fits(global)) return false;
            for (int c = 0; c < shared.length; c++) if (shared[c].length != m.shared[c].length) return false;
            return true;
        }
    }

    public Saved save() { return new Saved(this); }

    /** Puts back the state of {@link #save}, copying into this memory's own arrays. */
    public void restore(Saved s) {
        if (!s.fits(this)) throw new IllegalArgumentException("memory of another launch shape");
        for (int c = 0; c < shared.length; c++) System.arraycopy(s.shared[c], 0, shared[c], 0, shared[c].length);
        System.arraycopy(s.local, 0, local, 0, local.length);
        System.arraycopy(s.threadParams, 0, threadParams, 0, threadParams.length);
        for (int c = 0; c < mbarrierWords.length; c++) {
            // Rows are allocated at the CTA's first mbarrier.init: at most once per CTA and rarely, so exactness wins.
            if (s.mbarrierWords[c] == null) mbarrierWords[c] = null;
            else if (mbarrierWords[c] == null) mbarrierWords[c] = s.mbarrierWords[c].clone();
            else System.arraycopy(s.mbarrierWords[c], 0, mbarrierWords[c], 0, mbarrierWords[c].length);
        }
        validMbarriers = s.validMbarriers;
        System.arraycopy(s.effects, 0, effects, 0, effects.length);
        writes = s.writes;
        System.arraycopy(s.ctaExited, 0, ctaExited, 0, ctaExited.length);
        global.restoreData(s.global);
    }

    /** Resolves an access of {@code size} bytes; afterwards {@link #rArr}/{@link #rOff} locate it. */
    private void resolve(int space, long addr, int size, int thread, boolean write) {
        if (size > 1 && (addr & (size - 1)) != 0) {
            throw new MemoryFault(DiagnosticCode.MISALIGNED_ACCESS, addr, "misaligned " + size + "-byte " + Space.name(space)
                    + " access at 0x" + Long.toHexString(addr) + " (" + describe(space, addr, thread) + ")");
        }
        if (space == Space.GENERIC) {
            space = Space.ofGeneric(addr);
            addr -= Space.window(space);
        }
        switch (space) {
            case Space.GLOBAL -> {
                GlobalMemory.Segment s = global.find(addr, size, write);
                rArr = s.data();
                rOff = (int) (addr - s.base());
                rRegion = shared.length + global.lastIndex();
            }
            case Space.SHARED -> {
                int cta = thread / threadsPerCta;
                if (addr > Space.CTA_OFFSET_MASK) {
                    cta = peer(cta, addr);
                    addr &= Space.CTA_OFFSET_MASK;
                }
                byte[] sh = shared[cta];
                check(space, addr, size, sh.length, thread);
                if (validMbarriers > 0) checkNotMbarrier(cta, addr, size);
                rArr = sh;
                rOff = (int) addr;
                rRegion = cta;
            }
            case Space.LOCAL -> {
                check(space, addr, size, localPerThread, thread);
                rArr = local;
                rRegion = -1;
                rOff = thread * localPerThread + (int) addr;
            }
            case Space.CONST -> {
                if (write) throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, "write to the constant bank at 0x" + Long.toHexString(addr));
                check(space, addr, size, constBank.length, thread);
                rArr = constBank;
                rRegion = -1;
                rOff = (int) addr;
            }
            case Space.KERNEL_PARAM -> {
                if (write) throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, "write to a kernel parameter at offset " + addr);
                check(space, addr, size, kernelParams.length, thread);
                rArr = kernelParams;
                rRegion = -1;
                rOff = (int) addr;
            }
            case Space.THREAD_PARAM -> {
                check(space, addr, size, paramPerThread, thread);
                rArr = threadParams;
                rRegion = -1;
                rOff = thread * paramPerThread + (int) addr;
            }
            default -> throw new IllegalStateException("space " + space);
        }
    }

    /**
     * The CTA a shared::cluster address names (rank in bits 24 and up, plus one), checked: the
     * rank must be in the cluster and that CTA must not have exited (semantics.md section 2).
     */
    public int peer(int cta, long clusterAddr) {
        long rank = (clusterAddr >>> Space.CLUSTER_RANK_SHIFT) - 1;
        int[] members = clusterMembers[cta];
        if (rank < 0 || rank >= members.length) {
            throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, clusterAddr, "shared::cluster address 0x"
                    + Long.toHexString(clusterAddr) + " names CTA rank " + rank + ", but the cluster has " + members.length + " CTAs");
        }
        int p = members[(int) rank];
        if (ctaExited[p]) {
            throw new MemoryFault(DiagnosticCode.DSMEM_AFTER_EXIT, clusterAddr, "shared::cluster address 0x"
                    + Long.toHexString(clusterAddr) + " is in the shared memory of cluster rank " + rank
                    + ", a CTA that has exited; real Hopper raises \"cluster target block not present\". Keep peers alive "
                    + "with a cluster barrier before exiting");
        }
        return p;
    }

    /**
     * A {@code .shared} / {@code .shared::cta} address of an {@code ld}, {@code st}, {@code atom} or
     * {@code red} by {@code thread}: it must be in the executing CTA's own window (PTX ISA 5.1.7:
     * ::cta says the address "belongs to the shared memory window of the executing CTA"; a plain
     * .shared defaults to ::cta). A peer's shared::cluster address (a {@code mapa} result) is out of
     * that window: a {@code memory-fault}, never an access to the peer. Returns {@code addr}.
     */
    public long inCtaWindow(long addr, int thread) {
        if (addr <= Space.CTA_OFFSET_MASK) return addr;
        int cta = thread / threadsPerCta;
        long rank = (addr >>> Space.CLUSTER_RANK_SHIFT) - 1;
        int[] members = clusterMembers[cta];
        // The executing CTA's own shared::cluster address still names its own window.
        if (rank >= 0 && rank < members.length && members[(int) rank] == cta) return addr;
        throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, "shared::cta address 0x" + Long.toHexString(addr)
                + " is outside the executing CTA's shared memory window: it is a shared::cluster address of cluster rank "
                + rank + " (a mapa result). A .shared or .shared::cta access must stay in the executing CTA's window "
                + "(PTX ISA 5.1.7); reach a peer with .shared::cluster or a generic address");
    }

    private void checkNotMbarrier(int cta, long addr, int size) {
        byte[] words = mbarrierWords[cta];
        if (words == null) return;
        for (long w = addr >> 3; w <= (addr + size - 1) >> 3; w++) {
            if (words[(int) w] != 0) {
                throw new MemoryFault(DiagnosticCode.MBARRIER_CLOBBERED, addr, "plain " + size + "-byte access to shared offset 0x"
                        + Long.toHexString(addr) + ", which holds a valid mbarrier object (" + symbols.nearest(Space.SHARED, addr)
                        + "); only mbarrier instructions may touch it until mbarrier.inval (PTX ISA 9.7.13.15)");
            }
        }
    }

    /** Marks or clears the shared word at {@code offset} of {@code cta} as a valid mbarrier. */
    public void markMbarrier(int cta, int offset, boolean valid) {
        if (mbarrierWords[cta] == null) mbarrierWords[cta] = new byte[(shared[cta].length + 7) >> 3];
        byte before = mbarrierWords[cta][offset >> 3];
        mbarrierWords[cta][offset >> 3] = (byte) (valid ? 1 : 0);
        validMbarriers += (valid ? 1 : 0) - before;
    }

    private void check(int space, long addr, int size, int limit, int thread) {
        if (addr < 0 || addr + size > limit) {
            throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, addr, Space.name(space) + " address 0x" + Long.toHexString(addr)
                    + " (" + size + " bytes) is outside the " + limit + " bytes of " + Space.name(space) + " memory; "
                    + describe(space, addr, thread));
        }
    }

    /** Names the variable or buffer at or nearest to an address, for messages. */
    public String describe(int space, long addr, int thread) {
        return switch (space) {
            case Space.GLOBAL -> global.nearest(addr);
            case Space.GENERIC -> addr >= Space.SHARED_WINDOW && addr < Space.CONST_WINDOW + Space.WINDOW_SIZE
                    ? "generic window address" : global.nearest(addr);
            default -> symbols.nearest(space, addr);
        };
    }

    /** A 4-byte shared-memory load: the hot case, checked inline; anything unusual takes the general path. */
    public long loadShared32(long addr, int thread) { return loadShared32(thread / threadsPerCta, addr, thread); }

    /** {@link #loadShared32(long, int)} for a thread of CTA {@code cta} (a warp-wide op finds it once for all lanes). */
    public long loadShared32(int cta, long addr, int thread) {
        byte[] sh = shared[cta];
        if ((addr & 3) == 0 && addr >= 0 && addr <= sh.length - 4 && (validMbarriers == 0 || noMbarrier(cta, addr))) {
            if (race != null) race.access(cta, (int) addr, 4, thread, false);
            return ((int) I32.get(sh, (int) addr)) & 0xFFFFFFFFL;
        }
        return load(Space.SHARED, addr, 4, thread);
    }

    /**
     * A naturally aligned shared-memory load of 1, 2, 4 or 8 bytes by a thread of CTA {@code cta}
     * (wgmma operand reads): in bounds and clear of mbarriers it is read inline, as
     * {@link #loadShared32}; anything unusual takes the general path, which reports it.
     */
    public long loadShared(int cta, long addr, int size, int thread) {
        byte[] sh = shared[cta];
        if ((addr & (size - 1)) == 0 && addr >= 0 && addr <= sh.length - size && (validMbarriers == 0 || noMbarrier(cta, addr))) {
            if (race != null) race.access(cta, (int) addr, size, thread, false);
            return read(sh, (int) addr, size);
        }
        return load(Space.SHARED, addr, size, thread);
    }

    /** Whether the aligned 4-byte word at {@code addr} of CTA {@code cta} holds no valid mbarrier (loads of mbarrier kernels stay inline). */
    private boolean noMbarrier(int cta, long addr) {
        byte[] words = mbarrierWords[cta];
        return words == null || words[(int) (addr >> 3)] == 0;
    }

    /** A 4-byte shared-memory store, as {@link #loadShared32}. */
    public void storeShared32(long addr, long value, int thread) { storeShared32(thread / threadsPerCta, addr, value, thread); }

    /** {@link #storeShared32(long, long, int)} for a thread of CTA {@code cta}. */
    public void storeShared32(int cta, long addr, long value, int thread) {
        byte[] sh = shared[cta];
        effects[thread]++;
        writes++;
        if ((addr & 3) == 0 && addr >= 0 && addr <= sh.length - 4 && validMbarriers == 0) {
            if (race != null) race.access(cta, (int) addr, 4, thread, true);
            I32.set(sh, (int) addr, (int) value);
            return;
        }
        store(Space.SHARED, addr, 4, value, thread);
    }

    /**
     * {@link #load} of global memory (ld.global), inline when it is naturally aligned, in the
     * segment the last access found, and no memory-model analysis listens; anything else takes the
     * general path, which reports what is wrong.
     */
    public long loadGlobal(long addr, int size, int thread) {
        GlobalMemory.Segment s = race != null || (addr & (size - 1)) != 0 ? null : global.lastHolding(addr, size, false);
        if (s == null) return load(Space.GLOBAL, addr, size, thread);
        return read(s.data(), (int) (addr - s.base()), size);
    }

    /** {@link #store} to global memory (st.global), inline as {@link #loadGlobal} (and only into a writable segment with no write watch). */
    public void storeGlobal(long addr, int size, long value, int thread) {
        GlobalMemory.Segment s = race != null || (addr & (size - 1)) != 0 ? null : global.lastHolding(addr, size, true);
        if (s == null) {
            store(Space.GLOBAL, addr, size, value, thread);
            return;
        }
        effects[thread]++;
        writes++;
        write(s.data(), (int) (addr - s.base()), size, value);
    }

    public long load(int space, long addr, int size, int thread) {
        resolve(space, addr, size, thread, false);
        if (race != null && rRegion >= 0) race.access(rRegion, rOff, size, thread, false);
        return read(rArr, rOff, size);
    }

    /** The little-endian value of {@code size} (1, 2, 4 or 8) bytes at {@code o}, zero-extended. */
    private static long read(byte[] d, int o, int size) {
        return switch (size) {
            case 1 -> d[o] & 0xFFL;
            case 2 -> ((short) I16.get(d, o)) & 0xFFFFL;
            case 4 -> ((int) I32.get(d, o)) & 0xFFFFFFFFL;
            case 8 -> (long) I64.get(d, o);
            default -> throw new IllegalArgumentException("size " + size);
        };
    }

    /** Writes the low {@code size} (1, 2, 4 or 8) bytes of {@code value} at {@code o}, little-endian. */
    static void write(byte[] d, int o, int size, long value) {
        switch (size) {
            case 1 -> d[o] = (byte) value;
            case 2 -> I16.set(d, o, (short) value);
            case 4 -> I32.set(d, o, (int) value);
            case 8 -> I64.set(d, o, value);
            default -> throw new IllegalArgumentException("size " + size);
        }
    }

    public void store(int space, long addr, int size, long value, int thread) {
        effects[thread]++;
        writes++;
        resolve(space, addr, size, thread, true);
        if (race != null && rRegion >= 0) race.access(rRegion, rOff, size, thread, true);
        write(rArr, rOff, size, value);
    }

    /**
     * One 16-byte access (atom .b128): resolved, checked naturally aligned and reported to the
     * analysis as a single access of 16 bytes; the low 8 bytes to {@code out[0]}, the high to out[1].
     */
    public void load16(int space, long addr, int thread, long[] out) {
        resolve(space, addr, 16, thread, false);
        if (race != null && rRegion >= 0) race.access(rRegion, rOff, 16, thread, false);
        out[0] = read(rArr, rOff, 8);
        out[1] = read(rArr, rOff + 8, 8);
    }

    /** The 16-byte store of {@link #load16}'s access: one store of 16 bytes, {@code lo} first (little-endian). */
    public void store16(int space, long addr, long lo, long hi, int thread) {
        effects[thread]++;
        writes++;
        resolve(space, addr, 16, thread, true);
        if (race != null && rRegion >= 0) race.access(rRegion, rOff, 16, thread, true);
        write(rArr, rOff, 8, lo);
        write(rArr, rOff + 8, 8, hi);
    }

    /** Checks that a vector access of {@code total} bytes is aligned to its whole size. */
    public void checkVectorAlignment(int space, long addr, int total, int thread) {
        if ((addr & (total - 1)) != 0) {
            throw new MemoryFault(DiagnosticCode.MISALIGNED_ACCESS, addr, "misaligned " + total + "-byte vector "
                    + Space.name(space) + " access at 0x" + Long.toHexString(addr) + " (" + describe(space, addr, thread) + ")");
        }
        // The whole vector against valid mbarriers, so a clobber names the access's real size (8 bytes for .v2.u32).
        if (validMbarriers > 0) resolve(space, addr, total, thread, false);
    }

    /** Reads a NUL-terminated string (for printf formats), at most {@code max} bytes. */
    public String loadString(long addr, int thread, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < max; i++) {
            int c = (int) load(Space.GENERIC, addr + i, 1, thread);
            if (c == 0) break;
            sb.append((char) c);
        }
        return sb.toString();
    }
}
