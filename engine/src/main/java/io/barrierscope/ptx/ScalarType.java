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

    ScalarType(int bits, Kind kind) {
        this.bits = bits;
        this.kind = kind;
    }

    public int bits() { return bits; }
    /** Size in bytes in memory (a predicate has none; reported as 1). */
    public int bytes() { return Math.max(1, bits / 8); }
    public Kind kind() { return kind; }
    public boolean isSigned() { return kind == Kind.SIGNED; }
    public boolean isFloat() { return kind == Kind.FLOAT; }
    public boolean isPred() { return kind == Kind.PRED; }

    /** The PTX spelling without the dot, e.g. {@code u32}. */
    public String ptxName() { return name().toLowerCase(java.util.Locale.ROOT); }

    /** Parses {@code .u32} or {@code u32}; returns null for a name that is no type. */
    public static ScalarType fromName(String name) {
        String n = name.startsWith(".") ? name.substring(1) : name;
        if (n.equals("pred")) return PRED;
        for (ScalarType t : values()) {
            if (t != PRED && t.ptxName().equals(n)) return t;
        }
        return null;
    }
}
