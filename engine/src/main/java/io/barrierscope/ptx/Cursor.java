package io.barrierscope.ptx;

import java.util.ArrayList;

/**
 * A position in the token stream with the helpers every parser part shares. Never runs off the
 * end. Tokens are lexed as they are asked for and forgotten once behind the cursor (all but the
 * previous one and, while an instruction is read, those since its {@link #mark()}), so a file's
 * memory is its text and what the parse keeps, never a list of all its tokens (several times the
 * text: a 4 MB initialiser list was hundreds of MB of tokens).
 */
final class Cursor {
    final PtxSource src;
    private final PtxLexer lexer;
    /** Tokens lexed and not yet forgotten: window.get(k) is token number base + k. */
    private final ArrayList<Token> window = new ArrayList<>();
    private int base;
    private int i;
    /** The oldest token kept for {@link #textBetween}; -1 when none is pinned. */
    private int pinned = -1;
    private final Cancellation cancel;

    Cursor(PtxSource src) { this(src, Cancellation.NONE); }

    Cursor(PtxSource src, Cancellation cancel) {
        this.src = src;
        this.lexer = PtxLexer.of(src);
        this.cancel = cancel;
    }

    /** Tokens consumed between checks for a cancel. */
    static final int CHECK_EVERY = 1 << 14;

    /** Token number k (lexed if need be); past the end, the EOF token. */
    private Token at(int k) {
        while (k - base >= window.size()) {
            if (!window.isEmpty() && window.get(window.size() - 1).kind() == Token.Kind.EOF) return window.get(window.size() - 1);
            window.add(lexer.next());
        }
        return window.get(k - base);
    }

    /** Tokens held at the moment (for a test of the forgetting). */
    int held() { return window.size(); }

    Token peek() { return at(i); }

    Token peek(int ahead) { return at(i + ahead); }

    /** The most recently consumed token (or the first token if none). */
    Token prev() { return at(Math.max(0, i - 1)); }

    Token next() {
        Token t = at(i);
        if (t.kind() != Token.Kind.EOF) i++; // the final EOF token is never consumed past
        if ((i & (CHECK_EVERY - 1)) == 0) {
            cancel.progress("parse", lexer.position(), src.text.length());
            forget();
        }
        return t;
    }

    /** Drops the tokens no one can ask for again. */
    private void forget() {
        int keep = Math.max(base, Math.min(i - 1, pinned >= 0 ? pinned : i - 1));
        if (keep - base > CHECK_EVERY / 2) {
            window.subList(0, keep - base).clear();
            base = keep;
        }
    }

    boolean atEof() { return peek().kind() == Token.Kind.EOF; }

    /** The position of the next token, kept (with every token after it) for {@link #textBetween}. */
    int mark() {
        pinned = i;
        return i;
    }

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
        for (int k = from; k < to; k++) {
            Token t = at(k);
            if (t.kind() == Token.Kind.EOF) break;
            if (k > from) {
                String gap = src.text.substring(at(k - 1).end(), t.start());
                if (gap.indexOf('\n') < 0 && gap.indexOf('/') < 0) {
                    sb.append(gap);
                } else if (!isOpener(at(k - 1)) && !isCloser(t)) {
                    sb.append(' ');
                }
            }
            sb.append(t.text());
        }
        pinned = -1;
        return sb.toString();
    }

    private static boolean isOpener(Token t) { return t.is("(") || t.is("[") || t.is("{"); }

    private static boolean isCloser(Token t) { return t.is(")") || t.is("]") || t.is("}") || t.is(",") || t.is(";"); }

    PtxException error(Token t, String detail) { return src.error(t, detail); }

    String file() { return src.name; }
}
