package io.barrierscope.exec;

/** Address spaces an access can name, as small ints for the inner loop. */
public final class Space {
    private Space() {}

    public static final int GENERIC = 0;
    public static final int GLOBAL = 1;
    public static final int SHARED = 2;
    public static final int LOCAL = 3;
    public static final int CONST = 4;
    /** The kernel's parameter buffer (entry .param). */
    public static final int KERNEL_PARAM = 5;
    /** A thread's own .param scratch (call arguments and .func params). */
    public static final int THREAD_PARAM = 6;

    /** Where the generic address space maps the shared window (the executing CTA's shared memory). */
    public static final long SHARED_WINDOW = 0x0001_0000_0000_0000L;
    /** Where the generic address space maps the executing thread's local memory. */
    public static final long LOCAL_WINDOW = 0x0002_0000_0000_0000L;
    /** Where the generic address space maps the constant bank. */
    public static final long CONST_WINDOW = 0x0003_0000_0000_0000L;
    /** Where the generic address space maps the kernel parameters (cvta.param; __grid_constant__ params). */
    public static final long PARAM_WINDOW = 0x0004_0000_0000_0000L;
    /** Size of each window. */
    public static final long WINDOW_SIZE = 1L << 32;
    /**
     * Shared addresses at or above this name a CTA of the cluster: {@code ((rank + 1) << 24) | offset}
     * (what {@code mapa} returns). Below it, an address is the executing CTA's own, so every
     * shared::cta address is also a valid shared::cluster address, as the ISA requires.
     */
    public static final long CLUSTER_RANK_SHIFT = 24;
    public static final long CTA_OFFSET_MASK = (1L << CLUSTER_RANK_SHIFT) - 1;

    /** First global address handed out; low addresses stay unmapped so null pointers fault. */
    public static final long GLOBAL_BASE = 0x0000_0100_0000_0000L;

    /** The space a generic address resolves to: one of the four windows, else global. */
    public static int ofGeneric(long addr) {
        if (addr >= SHARED_WINDOW && addr < SHARED_WINDOW + WINDOW_SIZE) return SHARED;
        if (addr >= LOCAL_WINDOW && addr < LOCAL_WINDOW + WINDOW_SIZE) return LOCAL;
        if (addr >= CONST_WINDOW && addr < CONST_WINDOW + WINDOW_SIZE) return CONST;
        if (addr >= PARAM_WINDOW && addr < PARAM_WINDOW + WINDOW_SIZE) return KERNEL_PARAM;
        return GLOBAL;
    }

    /** Where the generic address space maps {@code space} ({@link #ofGeneric}'s result); 0 for global. */
    public static long window(int space) {
        return switch (space) {
            case SHARED -> SHARED_WINDOW;
            case LOCAL -> LOCAL_WINDOW;
            case CONST -> CONST_WINDOW;
            case KERNEL_PARAM -> PARAM_WINDOW;
            default -> 0;
        };
    }

    public static String name(int space) {
        return switch (space) {
            case GENERIC -> "generic";
            case GLOBAL -> "global";
            case SHARED -> "shared";
            case LOCAL -> "local";
            case CONST -> "const";
            case KERNEL_PARAM, THREAD_PARAM -> "param";
            default -> "?";
        };
    }
}
