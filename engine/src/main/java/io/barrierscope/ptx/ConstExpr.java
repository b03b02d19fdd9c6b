package io.barrierscope.ptx;

/**
 * PTX constant expressions (PTX ISA 4.6.2): 64-bit integer arithmetic with C precedence and the
 * C rule that an operation is unsigned when either operand is. Floating-point literals may only
 * stand alone (optionally negated). Recursion is bounded so hostile input cannot overflow the stack.
 */
final class ConstExpr {
    private static final int MAX_DEPTH = 200;

    /** A constant: integer value, or IEEE bits for FLOAT32/FLOAT64. */
    record Value(long bits, Operand.ImmKind kind, boolean unsigned) {
        boolean isInt() { return kind == Operand.ImmKind.INT; }
    }

    private final Cursor c;
    private int depth;

    private ConstExpr(Cursor c) { this.c = c; }

    /** True if the next token can begin a constant expression. */
    static boolean startsExpr(Token t) {
        return t.isNumber() || t.is("(") || t.is("-") || t.is("+") || t.is("~") || t.is("!");
    }

    static Value parse(Cursor c) { return new ConstExpr(c).logicalOr(); }

    /** Parses an expression that must be an integer. */
    static long parseInt(Cursor c) {
        Token t = c.peek();
        Value v = parse(c);
        if (!v.isInt()) throw c.error(t, "expected an integer constant");
        return v.bits();
    }

    /** A multiplicative-level integer term, for {@code name+term-term} offsets. */
    static long parseTerm(Cursor c) {
        Token t = c.peek();
        Value v = new ConstExpr(c).multiplicative();
        if (!v.isInt()) throw c.error(t, "expected an integer constant");
        return v.bits();
    }

    private Value logicalOr() {
        Value a = logicalAnd();
        while (c.peek().is("||")) {
            Token op = c.next();
            Value b = logicalAnd();
            a = intResult(op, a, b, (x, y) -> (x != 0 || y != 0) ? 1 : 0, false);
        }
        return a;
    }

    private Value logicalAnd() {
        Value a = bitOr();
        while (c.peek().is("&&")) {
            Token op = c.next();
            Value b = bitOr();
            a = intResult(op, a, b, (x, y) -> (x != 0 && y != 0) ? 1 : 0, false);
        }
        return a;
    }

    private Value bitOr() {
        Value a = bitXor();
        while (c.peek().is("|") && startsExpr(c.peek(1))) {
            Token op = c.next();
            a = intResult(op, a, bitXor(), (x, y) -> x | y, true);
        }
        return a;
    }

    private Value bitXor() {
        Value a = bitAnd();
        while (c.peek().is("^")) {
            Token op = c.next();
            a = intResult(op, a, bitAnd(), (x, y) -> x ^ y, true);
        }
        return a;
    }

    private Value bitAnd() {
        Value a = equality();
        while (c.peek().is("&")) {
            Token op = c.next();
            a = intResult(op, a, equality(), (x, y) -> x & y, true);
        }
        return a;
    }

    private Value equality() {
        Value a = relational();
        while (c.peek().is("==") || c.peek().is("!=")) {
            Token op = c.next();
            boolean eq = op.is("==");
            a = intResult(op, a, relational(), (x, y) -> ((x == y) == eq) ? 1 : 0, false);
        }
        return a;
    }

    private Value relational() {
        Value a = shift();
        while (c.peek().is("<") || c.peek().is(">") || c.peek().is("<=") || c.peek().is(">=")) {
            Token op = c.next();
            Value b = shift();
            boolean uns = a.unsigned() || b.unsigned();
            String o = op.text();
            a = intResult(op, a, b, (x, y) -> {
                int cmp = uns ? Long.compareUnsigned(x, y) : Long.compare(x, y);
                boolean r = switch (o) {
                    case "<" -> cmp < 0;
                    case ">" -> cmp > 0;
                    case "<=" -> cmp <= 0;
                    default -> cmp >= 0;
                };
                return r ? 1 : 0;
            }, false);
        }
        return a;
    }

    private Value shift() {
        Value a = additive();
        while (c.peek().is("<<") || c.peek().is(">>")) {
            Token op = c.next();
            Value b = additive();
            boolean left = op.is("<<");
            boolean uns = a.unsigned();
            // C keeps the left operand's signedness for shifts
            Value r = intResult(op, a, b, (x, y) -> left ? x << y : (uns ? x >>> y : x >> y), false);
            a = new Value(r.bits(), r.kind(), uns);
        }
        return a;
    }

    private Value additive() {
        Value a = multiplicative();
        while (c.peek().is("+") || c.peek().is("-")) {
            Token op = c.next();
            boolean plus = op.is("+");
            a = intResult(op, a, multiplicative(), (x, y) -> plus ? x + y : x - y, true);
        }
        return a;
    }

    private Value multiplicative() {
        Value a = unary();
        while (c.peek().is("*") || c.peek().is("/") || c.peek().is("%")) {
            Token op = c.next();
            Value b = unary();
            if (!op.is("*") && b.isInt() && b.bits() == 0) throw c.error(op, "division by zero");
            boolean uns = a.unsigned() || b.unsigned();
            String o = op.text();
            a = intResult(op, a, b, (x, y) -> switch (o) {
                case "*" -> x * y;
                case "/" -> uns ? Long.divideUnsigned(x, y) : (x == Long.MIN_VALUE && y == -1 ? x : x / y);
                default -> uns ? Long.remainderUnsigned(x, y) : (y == -1 ? 0 : x % y);
            }, true);
        }
        return a;
    }

    private Value unary() {
        Token t = c.peek();
        if (t.is("-") || t.is("+") || t.is("~") || t.is("!")) {
            enter(t);
            c.next();
            Value v = unary();
            depth--;
            if (!v.isInt()) {
                if (t.is("+")) return v;
                if (t.is("-")) {
                    long sign = v.kind() == Operand.ImmKind.FLOAT32 ? 0x8000_0000L : Long.MIN_VALUE;
                    return new Value(v.bits() ^ sign, v.kind(), false);
                }
                throw c.error(t, "operator '" + t.text() + "' needs an integer operand");
            }
            return switch (t.text()) {
                case "-" -> new Value(-v.bits(), v.kind(), v.unsigned());
                case "~" -> new Value(~v.bits(), v.kind(), v.unsigned());
                case "!" -> new Value(v.bits() == 0 ? 1 : 0, v.kind(), false);
                default -> v;
            };
        }
        return primary();
    }

    private Value primary() {
        Token t = c.peek();
        switch (t.kind()) {
            case INT -> {
                c.next();
                return new Value(t.value(), Operand.ImmKind.INT, t.unsigned());
            }
            case F32 -> {
                c.next();
                return new Value(t.value(), Operand.ImmKind.FLOAT32, false);
            }
            case F64 -> {
                c.next();
                return new Value(t.value(), Operand.ImmKind.FLOAT64, false);
            }
            default -> {
                if (t.is("(")) {
                    enter(t);
                    c.next();
                    Value v = logicalOr();
                    c.expect(")");
                    depth--;
                    return v;
                }
                throw c.error(t, "expected a constant, found " + t.describe());
            }
        }
    }

    private void enter(Token t) {
        if (++depth > MAX_DEPTH) throw c.error(t, "expression too deeply nested");
    }

    private interface IntOp { long apply(long x, long y); }

    private Value intResult(Token op, Value a, Value b, IntOp f, boolean keepUnsigned) {
        if (!a.isInt() || !b.isInt()) {
            throw c.error(op, "operator '" + op.text() + "' needs integer operands");
        }
        boolean uns = keepUnsigned && (a.unsigned() || b.unsigned());
        return new Value(f.apply(a.bits(), b.bits()), Operand.ImmKind.INT, uns);
    }
}
