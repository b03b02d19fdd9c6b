package io.barrierscope.ptx;

/** PTX fundamental types (PTX ISA 5.2.1) plus the predicate type. */
public enum ScalarType {
    B8(8, Kind.BITS), B16(16, Kind.BITS), B32(32, Kind.BITS), B64(64, Kind.BITS), B128(128, Kind.BITS),
    U8(8, Kind.UNSIGNED), U16(16, Kind.UNSIGNED), U32(32, Kind.UNSIGNED), U64(64, Kind.UNSIGNED),
    S8(8, Kind.SIGNED), S16(16, Kind.SIGNED), S32(32, Kind.SIGNED), S64(64, Kind.SIGNED),
    F16(16, Kind.FLOAT), F16X2(32, Kind.FLOAT), BF16(16, Kind.FLOAT), BF16X2(32, Kind.FLOAT),
    TF32(32, Kind.FLOAT), F32(32, Kind.FLOAT), F64(64, Kind.FLOAT),
    PRED(1, Kind.PRED);

    public enum Kind { BITS, UNSIGNED, SIGNED, FLOAT, PRED }

    private final int bits;
    private final Kind kind;
    private final String ptxName;

    /** Spelling to type (a lookup only, never iterated): the parser asks for every type suffix it reads. */
    private static final java.util.Map<String, ScalarType> BY_NAME = new java.util.HashMap<>();

    static {
        for (ScalarType t : values()) BY_NAME.put(t.ptxName, t);
    }

    ScalarType(int bits, Kind kind) {
        this.bits = bits;
        this.kind = kind;
        this.ptxName = name().toLowerCase(java.util.Locale.ROOT);
    }

    public int bits() { return bits; }
    /** Size in bytes in memory (a predicate has none; reported as 1). */
    public int bytes() { return Math.max(1, bits / 8); }
    public Kind kind() { return kind; }
    public boolean isSigned() { return kind == Kind.SIGNED; }
    public boolean isFloat() { return kind == Kind.FLOAT; }
    public boolean isPred() { return kind == Kind.PRED; }

    /** The PTX spelling without the dot, e.g. {@code u32}. */
    public String ptxName() { return ptxName; }

    /** Parses {@code .u32} or {@code u32}; returns null for a name that is no type. */
    public static ScalarType fromName(String name) {
        return BY_NAME.get(name.startsWith(".") ? name.substring(1) : name);
    }
}
