package io.barrierscope.app.source;

import java.util.Collection;
import java.util.List;
import org.fxmisc.richtext.model.StyleSpans;
import org.fxmisc.richtext.model.StyleSpansBuilder;

/**
 * PTX syntax colouring as a pure function from text to style spans. A small hand-written
 * scanner rather than one big regex: PTX tells an opcode from an operand by position (first
 * word of a statement, after an optional {@code @p} guard), which a scanner tracks simply.
 *
 * <p>Style classes: {@code comment}, {@code string}, {@code directive} ({@code .reg},
 * {@code .u64} in declarations), {@code opcode} ({@code ld.param.u64}), {@code label}
 * ({@code $L__BB0_2:}), {@code guard} ({@code @!%p1}), {@code register} ({@code %r4},
 * {@code %tid.x}) and {@code number}.
 */
public final class PtxHighlighter {
    private static final Collection<String> PLAIN = List.of();

    private PtxHighlighter() {}

    public static StyleSpans<Collection<String>> highlight(String text) {
        Spans out = new Spans();
        int n = text.length();
        int i = 0;
        boolean statementStart = true;
        while (i < n) {
            char c = text.charAt(i);
            int start = i;
            if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                i = indexOr(text, "\n", i, n);
                out.add(start, i, "comment");
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.add(start, i, "comment");
            } else if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"' && text.charAt(i) != '\n') i += text.charAt(i) == '\\' ? 2 : 1;
                i = Math.min(n, i + 1);
                out.add(start, i, "string");
            } else if (c == '.' && i + 1 < n && Character.isLetter(text.charAt(i + 1))) {
                i = wordEnd(text, i + 1, false);
                out.add(start, i, "directive");
                statementStart = false;
            } else if (c == '@') {
                i++;
                if (i < n && text.charAt(i) == '!') i++;
                if (i < n && text.charAt(i) == '%') i++;
                i = wordEnd(text, i, false);
                out.add(start, i, "guard"); // the opcode still follows: statementStart stays
            } else if (c == '%') {
                i = wordEnd(text, i + 1, true);
                out.add(start, i, "register");
                statementStart = false;
            } else if (isIdentStart(c)) {
                i = wordEnd(text, i, true);
                if (statementStart && nextNonBlank(text, i) == ':') {
                    i = text.indexOf(':', i) + 1;
                    out.add(start, i, "label"); // an instruction may follow on the same line
                } else {
                    out.add(start, i, statementStart ? "opcode" : null);
                    statementStart = false;
                }
            } else if (Character.isDigit(c)) {
                i = numberEnd(text, i);
                out.add(start, i, "number");
                statementStart = false;
            } else {
                i++;
                if (c == ';' || c == '{' || c == '}' || c == '\n') statementStart = true;
                else if (!Character.isWhitespace(c)) statementStart = false;
            }
        }
        return out.build(n);
    }

    private static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '$';
    }

    /** End of a word; with {@code dots}, dotted suffixes belong to it ({@code ld.global.u32}, {@code %tid.x}); {@code ::} parts always do. */
    private static int wordEnd(String t, int i, boolean dots) {
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_' || c == '$') i++;
            else if (dots && c == '.' && i + 1 < n && Character.isLetterOrDigit(t.charAt(i + 1))) i++;
            // State spaces and completion mechanisms: shared::cta, mbarrier::complete_tx::bytes.
            else if (c == ':' && i + 2 < n && t.charAt(i + 1) == ':' && Character.isLetter(t.charAt(i + 2))) i += 2;
            else break;
        }
        return i;
    }

    /** End of a number: decimal, 0x hex, 0f/0d hex floats, decimals with a fraction or exponent. */
    private static int numberEnd(String t, int i) {
        int n = t.length();
        i++;
        while (i < n) {
            char c = t.charAt(i);
            boolean exponentSign = (c == '+' || c == '-') && (t.charAt(i - 1) == 'e' || t.charAt(i - 1) == 'E');
            if (Character.isLetterOrDigit(c) || c == '.' || exponentSign) i++;
            else break;
        }
        return i;
    }

    private static char nextNonBlank(String t, int i) {
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '\t')) i++;
        return i < t.length() ? t.charAt(i) : 0;
    }

    private static int indexOr(String t, String s, int from, int otherwise) {
        int k = t.indexOf(s, from);
        return k < 0 ? otherwise : k;
    }

    /** Collects styled ranges, filling the gaps between them with plain text. */
    private static final class Spans {
        private final StyleSpansBuilder<Collection<String>> b = new StyleSpansBuilder<>();
        private int end;
        private boolean any;

        void add(int from, int to, String style) {
            if (style == null) return;
            if (from > end) b.add(PLAIN, from - end);
            b.add(List.of(style), to - from);
            end = to;
            any = true;
        }

        StyleSpans<Collection<String>> build(int length) {
            if (length > end || !any) b.add(PLAIN, length - end);
            return b.create();
        }
    }
}
