package io.barrierscope.ptx;

import java.util.List;

/** A position in the token list with the helpers every parser part shares. Never runs off the end. */
final class Cursor {
    final PtxSource src;
    private final List<Token> toks;
    private int i;
    private final Cancellation cancel;

    Cursor(PtxSource src, List<Token> toks) { this(src, toks, Cancellation.NONE); }

    Cursor(PtxSource src, List<Token> toks, Cancellation cancel) {
        this.src = src;
        this.toks = toks;
        this.cancel = cancel;
    }

    /** Tokens consumed between checks for a cancel. */
    static final int CHECK_EVERY = 1 << 14;

    Token peek() { return toks.get(i); }

    Token peek(int ahead) { return toks.get(Math.min(i + ahead, toks.size() - 1)); }

    /** The most recently consumed token (or the first token if none). */
    Token prev() { return toks.get(Math.max(0, i - 1)); }

    Token next() {
        Token t = toks.get(i);
        if (i < toks.size() - 1) i++; // the final EOF token is never consumed past
        if ((i & (CHECK_EVERY - 1)) == 0) cancel.progress("parse", i, toks.size());
        return t;
    }

    boolean atEof() { return peek().kind() == Token.Kind.EOF; }

    int mark() { return i; }

    boolean accept(String punct) {
        if (peek().is(punct)) {
            next();
            return true;
        }
        return false;
    }

    boolean acceptDot(String word) {
        if (peek().isDot(word)) {
            next();
            return true;
        }
        return false;
    }

    Token expect(String punct) {
        if (!peek().is(punct)) throw error(peek(), "expected '" + punct + "'");
        return next();
    }

    Token expectIdent(String what) {
        if (peek().kind() != Token.Kind.IDENT) throw error(peek(), "expected " + what);
        return next();
    }

    /** A non-negative integer literal that fits in an int (directive arguments, counts). */
    int expectSmallInt(String what, long max) {
        Token t = peek();
        if (t.kind() != Token.Kind.INT) throw error(t, "expected " + what);
        next();
        if (t.value() < 0 || t.value() > max) throw error(t, what.replaceFirst("^an? ", "") + " too large");
        return (int) t.value();
    }

    /** True if b directly follows a in the text, with no space between. */
    static boolean adjacent(Token a, Token b) { return a.end() == b.start(); }

    /** Skips to just after the next ';' (or to the end of the text). */
    void skipPastSemicolon() {
        while (!atEof() && !peek().is(";")) next();
        accept(";");
    }

    /** Skips the remaining tokens on the given line, for line-based directives such as .loc. */
    void skipRestOfLine(int line) {
        while (!atEof() && peek().line() == line && !peek().is(";")) next();
        accept(";");
    }

    /**
     * The source text of tokens [from, to) with comments dropped and line breaks folded to one
     * space, so a call spread over several lines reads as one line.
     */
    String textBetween(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int k = from; k < to && k < toks.size(); k++) {
            Token t = toks.get(k);
            if (k > from) {
                String gap = src.text.substring(toks.get(k - 1).end(), t.start());
                if (gap.indexOf('\n') < 0 && gap.indexOf('/') < 0) {
                    sb.append(gap);
                } else if (!isOpener(toks.get(k - 1)) && !isCloser(t)) {
                    sb.append(' ');
                }
            }
            sb.append(t.text());
        }
        return sb.toString();
    }

    private static boolean isOpener(Token t) { return t.is("(") || t.is("[") || t.is("{"); }

    private static boolean isCloser(Token t) { return t.is(")") || t.is("]") || t.is("}") || t.is(",") || t.is(";"); }

    PtxException error(Token t, String detail) { return src.error(t, detail); }

    String file() { return src.name; }
}
