package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A variable initialiser ({@code = 5}, {@code = 0f3F800000}, {@code = {1, 2, {3, 4}}}) encoded
 * little-endian per element type. Each brace level covers one array dimension (the vector width
 * being the innermost) and is zero-padded to it, as in C. The result always has the variable's
 * full size; an unsized array takes its length from the initialiser.
 */
final class Initialiser {
    private static final int MAX_NESTING = 16;

    private final Cursor c;
    private final ScalarType type;
    private final int vector;
    private final long elemBytes;
    private final long inner;
    private final long declaredCount;
    /** Leaf capacity of a brace at each nesting level; -1 when unknown (unsized array). */
    private final List<Long> capacity = new ArrayList<>();
    private byte[] buf = new byte[64];
    /** Leaves written so far, padding included. */
    private long n;
    private long count;

    Initialiser(Cursor c, ScalarType type, int vector, List<Long> dims, long count, long inner, long elemBytes) {
        this.c = c;
        this.type = type;
        this.vector = vector;
        this.elemBytes = elemBytes;
        this.inner = inner;
        this.declaredCount = count;
        List<Long> levels = new ArrayList<>(dims);
        if (vector > 1) levels.add((long) vector);
        for (int i = 0; i < levels.size(); i++) {
            long cap = 1;
            for (int j = i; j < levels.size(); j++) {
                if (levels.get(j) < 0) {
                    cap = -1;
                    break;
                }
                cap *= levels.get(j); // bounded: the declaration's size was already checked
            }
            capacity.add(cap);
        }
    }

    long count() { return count; }

    byte[] parse() {
        Token start = c.peek();
        if (c.peek().is("{")) brace(0);
        else leaf();
        if (declaredCount >= 0) {
            count = declaredCount;
            if (n > declaredCount * vector) throw c.error(start, "too many initialisers");
        } else {
            long perOuter = inner * vector;
            count = perOuter == 0 ? 0 : (n + perOuter - 1) / perOuter;
        }
        long size = count * elemBytes;
        if (size > DeclParser.MAX_INIT_BYTES) throw c.error(start, DeclParser.initTooLarge(size));
        return Arrays.copyOf(buf, (int) size);
    }

    private long cap(int level) {
        return level < capacity.size() ? capacity.get(level) : 1;
    }

    private void brace(int level) {
        Token open = c.expect("{");
        if (level >= MAX_NESTING) throw c.error(open, "initialiser too deeply nested");
        long first = n;
        if (!c.peek().is("}")) {
            do {
                if (c.peek().is("{")) brace(level + 1);
                else leaf();
            } while (c.accept(","));
        }
        Token close = c.expect("}");
        long cap = cap(level);
        if (cap >= 0) {
            if (n - first > cap) throw c.error(close, "too many initialisers");
            n = first + cap; // zero padding
            ensure(close);
        }
    }

    private void leaf() {
        Token t = c.peek();
        if (t.kind() == Token.Kind.IDENT) throw c.error(t, "unsupported initialiser " + t.describe());
        if (!ConstExpr.startsExpr(t)) throw c.error(t, "expected an initialiser value, found " + t.describe());
        ConstExpr.Value v = ConstExpr.parse(c);
        long bits = encode(t, v);
        long at = n;
        n++;
        ensure(t);
        int bytes = type.bytes();
        int off = (int) (at * bytes);
        for (int k = 0; k < bytes; k++) buf[off + k] = k < 8 ? (byte) (bits >>> (8 * k)) : 0;
    }

    /** Grows the buffer to hold n leaves, refusing more than the limit. */
    private void ensure(Token at) {
        long need = n * type.bytes();
        if (need > DeclParser.MAX_INIT_BYTES) throw c.error(at, DeclParser.initTooLarge(need));
        if (need > buf.length) buf = Arrays.copyOf(buf, (int) Math.min(DeclParser.MAX_INIT_BYTES, Math.max(need, 2L * buf.length)));
    }

    /** The element's bit pattern for a constant, converting between integer and float as PTX does. */
    private long encode(Token t, ConstExpr.Value v) {
        int bits = type.bits();
        switch (type) {
            case F32 -> {
                return switch (v.kind()) {
                    case INT -> Float.floatToRawIntBits(v.unsigned() ? (float) unsignedToDouble(v.bits()) : (float) v.bits()) & 0xFFFFFFFFL;
                    case FLOAT32 -> v.bits();
                    case FLOAT64 -> Float.floatToRawIntBits((float) Double.longBitsToDouble(v.bits())) & 0xFFFFFFFFL;
                };
            }
            case F64 -> {
                return switch (v.kind()) {
                    case INT -> Double.doubleToRawLongBits(v.unsigned() ? unsignedToDouble(v.bits()) : (double) v.bits());
                    case FLOAT32 -> Double.doubleToRawLongBits(Float.intBitsToFloat((int) v.bits()));
                    case FLOAT64 -> v.bits();
                };
            }
            default -> {
                if (v.isInt()) return v.bits();
                // a float literal may initialise a same-sized bit-pattern type, e.g. .b32 x = 0f3F800000
                if ((v.kind() == Operand.ImmKind.FLOAT32 && bits == 32) || (v.kind() == Operand.ImmKind.FLOAT64 && bits == 64)) {
                    return v.bits();
                }
                throw c.error(t, "unsupported initialiser: floating-point value for ." + type.ptxName());
            }
        }
    }

    private static double unsignedToDouble(long x) {
        return x >= 0 ? (double) x : ((double) (x >>> 1)) * 2.0 + (x & 1);
    }
}
