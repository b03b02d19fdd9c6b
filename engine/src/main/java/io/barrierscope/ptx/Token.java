package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;

/**
 * One lexical token of PTX source. {@code start}/{@code end} are character offsets into the text,
 * {@code line}/{@code col} are 1-based. For {@link Kind#INT} {@code value} holds the 64-bit value
 * and {@code unsigned} the {@code U} suffix; for {@link Kind#F32}/{@link Kind#F64} the IEEE bits.
 */
record Token(Kind kind, String text, int start, int end, int line, int col, long value, boolean unsigned) {

    enum Kind {
        /** Identifiers, including {@code %r1}, {@code $L__BB0_1}, {@code _}. */
        IDENT,
        /** A dot-word such as {@code .global} or {@code .shared::cta}. */
        DOT,
        INT, F32, F64, STRING,
        /** Punctuation and operators, one or two characters. */
        PUNCT,
        EOF
    }

    boolean is(String punct) { return kind == Kind.PUNCT && text.equals(punct); }

    boolean isDot(String word) { return kind == Kind.DOT && text.equals(word); }

    boolean isIdent(String word) { return kind == Kind.IDENT && text.equals(word); }

    boolean isNumber() { return kind == Kind.INT || kind == Kind.F32 || kind == Kind.F64; }

    SourcePos pos(String file) { return new SourcePos(file, line, col); }

    /** How the token is shown in messages. */
    String describe() {
        return switch (kind) {
            case EOF -> "end of file";
            case STRING -> "string";
            default -> "'" + text + "'";
        };
    }
}
