package io.barrierscope.ptx;

/**
 * What a parsed module will keep, counted as the parser goes and checked against the heap this
 * Java has free, so a module too large to hold is refused at the place where it passed the limit
 * (a located {@link PtxException}) instead of running the heap out of memory. A PTX file's text
 * is capped (64 MiB) but what it declares is not proportional to it: a one-line {@code .func}
 * of 25 characters keeps about 450 bytes, and {@code .reg .b32 %r<1000000>;} a million registers
 * (docs/reliability.md, "A PTX file costs its text and what the parse keeps").
 *
 * <p>The costs are upper bounds of the live heap measured for each kind of thing a module holds
 * (64-bit JVM, compressed references; docs/reliability.md gives the measurements). The function
 * being read is counted twice: its instructions exist in two forms while it is finished
 * ({@link ParsedFunction#finish}) and again while the linker builds its {@link Instruction}s.
 */
final class ModuleBudget {
    /** A {@link Function} with its lists, position and the {@link ParsedFunction} that builds it. */
    static final long PER_FUNCTION = 448;
    /** An instruction's records, lists and position, before its tokens and text. */
    static final long PER_INSTRUCTION = 192;
    /** Each token of an instruction can become a kept object: a modifier's string, an operand. */
    static final long PER_INSTRUCTION_TOKEN = 32;
    /** Per character of an instruction's kept source text (a string; two bytes a char at worst). */
    static final long PER_TEXT_CHAR = 2;
    /** A {@link Register} and its name (measured: 77 bytes each for {@code %r<1000>}). */
    static final long PER_REGISTER = 96;
    /** A {@link Variable} and its name, before its initial bytes. */
    static final long PER_VARIABLE = 192;
    /** A label: its entry in its block's map and in its {@link Function}'s, and its name. */
    static final long PER_LABEL = 192;
    /** A {@code .loc}'s CUDA location and the linker's key for it. */
    static final long PER_LOC = 160;

    /** Never refuses: for a test that measures what a parse keeps. */
    static ModuleBudget unlimited() { return new ModuleBudget(Long.MAX_VALUE, 0, 0); }

    private long budget;
    private long free;
    private final long max;
    /**
     * The free heap after a full collection, read once before a refusal (null: the numbers given
     * are final). Free memory before a collection depends on when the last one ran, so the
     * decision is made against the live heap only: the same module at the same heap is refused or
     * accepted the same way every time, whatever garbage was about when the parse began.
     */
    private java.util.function.LongSupplier collected;
    /** The text being parsed, for locating a refusal (set by the parser). */
    PtxSource src;
    private long charged;
    private long fnCharged;
    private long largestFn;
    private Token largestFnAt;
    private int functions;
    private int instructions;

    ModuleBudget(long budget, long free, long max) {
        this.budget = budget;
        this.free = free;
        this.max = max;
    }

    /** A budget of the free heap {@code free} of {@code max}, read again by {@code collected} before it refuses. */
    ModuleBudget(long free, long max, java.util.function.LongSupplier collected) {
        this(free - reserve(max), free, max);
        this.collected = collected;
    }

    /** The parse's own transient memory (its tokens, one function's builder) and what the caller needs next. */
    static long reserve(long max) { return (2L << 20) + max / 10; }

    /**
     * The budget for a text of {@code chars} characters in this Java's heap: its free heap (the most
     * it may use minus what it holds) less a reserve for the parse's own transient memory (the
     * tokens it holds, one function's builder) and what the caller needs next. When the text could
     * need more than is free, the heap is collected once first; otherwise a module that passes the
     * budget is refused only after a collection: garbage is no reason to refuse, and whether there
     * is garbage depends on when the collector last ran.
     */
    static ModuleBudget ofHeap(long chars) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        java.util.function.LongSupplier freeNow = () -> max - (rt.totalMemory() - rt.freeMemory());
        java.util.function.LongSupplier collected = () -> {
            System.gc();
            return freeNow.getAsLong();
        };
        if (chars * 64 > freeNow.getAsLong()) return new ModuleBudget(collected.getAsLong(), max, null);
        // A module that then needs more than is free is refused only after a collection (see collected).
        return new ModuleBudget(freeNow.getAsLong(), max, collected);
    }

    void function(Token at) {
        functions++;
        fnCharged = 0;
        charge(PER_FUNCTION, at);
    }

    /** The function being read ends: its second form is gone, but the linker will make one for the largest. */
    void functionEnd(Token name) {
        if (fnCharged > largestFn) {
            largestFn = fnCharged;
            largestFnAt = name;
        }
        fnCharged = 0;
    }

    void instruction(int tokens, int textChars, Token at) {
        instructions++;
        long bytes = PER_INSTRUCTION + PER_INSTRUCTION_TOKEN * tokens + PER_TEXT_CHAR * textChars;
        fnCharged += bytes;
        charge(bytes, at);
    }

    void registers(long count, Token at) { charge(PER_REGISTER * count, at); }

    void variable(long initBytes, Token at) { charge(PER_VARIABLE + initBytes, at); }

    /** Checks that {@code bytes} more could be held for a moment (a buffer being built), keeping nothing. */
    void peak(long bytes, Token at) {
        check(charged + fnCharged + bytes, bytes, at);
    }

    void label(Token at) { charge(PER_LABEL, at); }

    void loc(Token at) { charge(PER_LOC, at); }

    /** At the end of the module, before linking: the largest function's instructions exist twice while it is linked. */
    void beforeLinking() {
        if (largestFnAt != null) check(charged + largestFn, largestFn, largestFnAt);
    }

    long charged() { return charged; }

    private void charge(long bytes, Token at) {
        charged += bytes;
        check(charged + fnCharged, bytes, at);
    }

    /**
     * Refuses when {@code need} (what the module holds, counted, and {@code requested} more) passes
     * the budget, after the heap is collected once (garbage is no reason to refuse). What the parse
     * already holds is then in use on the heap: it is added back, as counted, so the module is
     * measured against what was free for it, not against that less its own first part.
     */
    private void check(long need, long requested, Token at) {
        if (need <= budget) return;
        if (collected != null) {
            free = collected.getAsLong() + (need - requested);
            collected = null;
            budget = free - reserve(max);
            if (need <= budget) return;
        }
        throw refusal(at, need);
    }

    private PtxException refusal(Token at, long need) {
        String msg = "the module is too large for this Java's heap: its " + functions + " functions and " + instructions
                + " instructions so far need about " + mib(need) + " to hold (and more to run) but this Java has about "
                + mib(free) + " free of " + mib(max) + ": give it more with -Xmx";
        return src.error(at, msg);
    }

    static String mib(long bytes) { return (bytes >> 20) + " MiB"; }
}
