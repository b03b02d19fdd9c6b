package io.barrierscope.ptx;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits PTX text into {@link Token}s. Comments are dropped. The body of a
 * {@code .section NAME { ... }} (DWARF data written as PTX) is skipped without tokenising: the
 * lexer emits the braces only, since the contents need not be valid PTX tokens.
 */
final class PtxLexer {
    private static final String TWO_CHAR_OPS = "<<>><=>===!=&&||";

    private final PtxSource src;
    private final String s;
    private int p;
    private int line = 1;
    private int lineStart;
    /** Tokens seen since a {@code .section} directive: 1 = expecting the name, 2 = expecting '{'. */
    private int sectionState;

    private PtxLexer(PtxSource src) {
        this.src = src;
        this.s = src.text;
    }

    /** The whole text's tokens, the last one EOF (tests; the parser takes them one at a time). */
    static List<Token> lex(PtxSource src) {
        PtxLexer lx = new PtxLexer(src);
        List<Token> out = new ArrayList<>();
        Token t;
        do {
            t = lx.next();
            out.add(t);
        } while (t.kind() != Token.Kind.EOF);
        return out;
    }

    /** Lexes tokens as they are asked for, so the parser never holds the whole file's tokens at once. */
    static PtxLexer of(PtxSource src) { return new PtxLexer(src); }

    /** Characters of the text lexed so far (for progress). */
    int position() { return p; }

    /** The next token; at the end of the text an EOF token, again on every call. */
    Token next() {
        skipSpaceAndComments();
        if (p >= s.length()) return new Token(Token.Kind.EOF, "", p, p, line, p - lineStart + 1, 0, false);
        int start = p;
        int col = p - lineStart + 1;
        char c = s.charAt(p);
        Token t;
        if (isIdentStart(c) || (c == '%' && p + 1 < s.length() && isIdentStart(s.charAt(p + 1)))) {
            p++;
            while (p < s.length() && isFollow(s.charAt(p))) p++;
            t = tok(Token.Kind.IDENT, start, col, 0, false);
        } else if (c == '.' && p + 1 < s.length() && isFollow(s.charAt(p + 1))) {
            p++;
            readDotWord();
            t = tok(Token.Kind.DOT, start, col, 0, false);
        } else if (c >= '0' && c <= '9') {
            t = number(start, col);
        } else if (c == '"') {
            t = string(start, col);
        } else if (isPunct(c)) {
            if (p + 1 < s.length() && isTwoCharOp(c, s.charAt(p + 1))) p += 2;
            else p++;
            t = tok(Token.Kind.PUNCT, start, col, 0, false);
        } else {
            throw src.error(line, col, "unexpected character " + describeChar(s.codePointAt(p)));
        }
        trackSection(t);
        return t;
    }

    private Token tok(Token.Kind kind, int start, int col, long value, boolean unsigned) {
        return new Token(kind, s.substring(start, p), start, p, line, col, value, unsigned);
    }

    /** After {@code .section NAME}, a '{' starts a body that is skipped up to its matching '}'. */
    private void trackSection(Token t) {
        if (t.isDot(".section")) {
            sectionState = 1;
        } else if (sectionState == 1 && t.kind() == Token.Kind.DOT) {
            sectionState = 2;
        } else if (sectionState == 2 && t.is("{")) {
            sectionState = 0;
            skipSectionBody(t);
        } else {
            sectionState = 0;
        }
    }

    private void skipSectionBody(Token open) {
        int depth = 1;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\n') {
                newline();
            } else if (c == '/' && p + 1 < s.length() && (s.charAt(p + 1) == '/' || s.charAt(p + 1) == '*')) {
                skipComment();
                continue;
            } else if (c == '"') {
                string(p, p - lineStart + 1);
                continue;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                if (--depth == 0) return; // the '}' itself is lexed normally
            }
            p++;
        }
        throw src.error(open, "unterminated section");
    }

    private void readDotWord() {
        while (true) {
            while (p < s.length() && isFollow(s.charAt(p))) p++;
            // keep '::' inside a modifier, as in .shared::cta or .mbarrier::complete_tx::bytes
            if (p + 2 < s.length() && s.charAt(p) == ':' && s.charAt(p + 1) == ':' && isFollow(s.charAt(p + 2))) {
                p += 2;
            } else {
                return;
            }
        }
    }

    private Token number(int start, int col) {
        char c1 = p + 1 < s.length() ? s.charAt(p + 1) : 0;
        if (s.charAt(p) == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
            int digits = (c1 == 'f' || c1 == 'F') ? 8 : 16;
            p += 2;
            int h = p;
            while (p < s.length() && isFollow(s.charAt(p))) p++;
            String hex = s.substring(h, p);
            if (hex.length() != digits || !hex.chars().allMatch(PtxLexer::isHex)) {
                throw src.error(line, col, "malformed floating-point literal '" + s.substring(start, p) + "'");
            }
            long bits = Long.parseUnsignedLong(hex, 16);
            return tok(digits == 8 ? Token.Kind.F32 : Token.Kind.F64, start, col, bits, false);
        }
        int radix = 10;
        int digitsStart = p;
        if (s.charAt(p) == '0' && (c1 == 'x' || c1 == 'X')) {
            radix = 16;
            p += 2;
            digitsStart = p;
        } else if (s.charAt(p) == '0' && (c1 == 'b' || c1 == 'B') && p + 2 < s.length()
                && (s.charAt(p + 2) == '0' || s.charAt(p + 2) == '1')) {
            radix = 2;
            p += 2;
            digitsStart = p;
        }
        while (p < s.length() && Character.digit(s.charAt(p), radix) >= 0 && s.charAt(p) < 128) p++;
        if (radix == 10 && p < s.length() && (s.charAt(p) == '.' || s.charAt(p) == 'e' || s.charAt(p) == 'E')
                && isDecimalFloatTail()) {
            return decimalFloat(start, col);
        }
        String digits = s.substring(digitsStart, p);
        boolean unsigned = false;
        if (p < s.length() && (s.charAt(p) == 'U' || s.charAt(p) == 'u')) {
            unsigned = true;
            p++;
        }
        if (p < s.length() && isFollow(s.charAt(p))) {
            while (p < s.length() && isFollow(s.charAt(p))) p++;
            throw src.error(line, col, "malformed number '" + s.substring(start, p) + "'");
        }
        if (digits.isEmpty()) throw src.error(line, col, "malformed number '" + s.substring(start, p) + "'");
        if (radix == 10 && digits.length() > 1 && digits.charAt(0) == '0') {
            radix = 8; // a leading zero means octal
            if (!digits.chars().allMatch(ch -> ch >= '0' && ch <= '7')) {
                throw src.error(line, col, "malformed octal number '" + s.substring(start, p) + "'");
            }
        }
        long value;
        try {
            value = Long.parseUnsignedLong(digits, radix);
        } catch (NumberFormatException e) {
            throw src.error(line, col, "integer literal out of range '" + s.substring(start, p) + "'");
        }
        return tok(Token.Kind.INT, start, col, value, unsigned);
    }

    /** At '.', 'e' or 'E' after decimal digits: is this a float like 1.5, 1e-3, 2.5E+7? */
    private boolean isDecimalFloatTail() {
        int q = p;
        if (s.charAt(q) == '.') {
            q++;
            if (q >= s.length() || !Character.isDigit(s.charAt(q)) || s.charAt(q) >= 128) return false;
            return true;
        }
        q++;
        if (q < s.length() && (s.charAt(q) == '+' || s.charAt(q) == '-')) q++;
        return q < s.length() && s.charAt(q) >= '0' && s.charAt(q) <= '9';
    }

    private Token decimalFloat(int start, int col) {
        if (s.charAt(p) == '.') {
            p++;
            while (p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9') p++;
        }
        if (p < s.length() && (s.charAt(p) == 'e' || s.charAt(p) == 'E')) {
            int save = p;
            p++;
            if (p < s.length() && (s.charAt(p) == '+' || s.charAt(p) == '-')) p++;
            int ds = p;
            while (p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9') p++;
            if (p == ds) p = save;
        }
        if (p < s.length() && isFollow(s.charAt(p))) {
            while (p < s.length() && isFollow(s.charAt(p))) p++;
            throw src.error(line, col, "malformed number '" + s.substring(start, p) + "'");
        }
        double d;
        try {
            d = Double.parseDouble(s.substring(start, p));
        } catch (NumberFormatException e) {
            throw src.error(line, col, "malformed number '" + s.substring(start, p) + "'");
        }
        return tok(Token.Kind.F64, start, col, Double.doubleToRawLongBits(d), false);
    }

    private Token string(int start, int col) {
        int startLine = line;
        p++;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '"') {
                p++;
                return new Token(Token.Kind.STRING, s.substring(start, p), start, p, startLine, col, 0, false);
            }
            if (c == '\n') break;
            if (c == '\\' && p + 1 < s.length() && s.charAt(p + 1) != '\n') p++;
            p++;
        }
        throw src.error(startLine, col, "unterminated string");
    }

    private void skipSpaceAndComments() {
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\n') {
                newline();
                p++;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B || (c == '\uFEFF' && p == 0)) {
                p++;
            } else if (c == '/' && p + 1 < s.length() && (s.charAt(p + 1) == '/' || s.charAt(p + 1) == '*')) {
                skipComment();
            } else {
                return;
            }
        }
    }

    /** At '//' or '/*'. */
    private void skipComment() {
        if (s.charAt(p + 1) == '/') {
            while (p < s.length() && s.charAt(p) != '\n') p++;
            return;
        }
        int startLine = line;
        int col = p - lineStart + 1;
        p += 2;
        while (p < s.length()) {
            if (s.charAt(p) == '*' && p + 1 < s.length() && s.charAt(p + 1) == '/') {
                p += 2;
                return;
            }
            if (s.charAt(p) == '\n') newline();
            p++;
        }
        throw src.error(startLine, col, "unterminated comment");
    }

    /** Called with p at a '\n', before stepping over it. */
    private void newline() {
        line++;
        lineStart = p + 1;
    }

    static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    }

    static boolean isFollow(char c) {
        return isIdentStart(c) || (c >= '0' && c <= '9');
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isPunct(char c) {
        return ";,{}[]()<>+-*/%!~&|^=:@?".indexOf(c) >= 0;
    }

    private static boolean isTwoCharOp(char a, char b) {
        for (int i = 0; i < TWO_CHAR_OPS.length(); i += 2) {
            if (TWO_CHAR_OPS.charAt(i) == a && TWO_CHAR_OPS.charAt(i + 1) == b) return true;
        }
        return false;
    }

    /** A character by its code point (a whole one, never half of a surrogate pair). */
    private static String describeChar(int c) {
        if (c >= 0x20 && c < 0x7F) return "'" + (char) c + "'";
        return String.format("U+%04X", c);
    }
}
