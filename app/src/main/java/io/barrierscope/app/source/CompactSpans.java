package io.barrierscope.app.source;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.fxmisc.richtext.model.StyleSpan;
import org.fxmisc.richtext.model.StyleSpans;
import org.fxmisc.richtext.model.StyleSpansBuilder;

/**
 * Fewer style spans for the same look: a line cell ({@link CodeList}) has one text node per span
 * of its line, each styled by CSS (docs/performance.md, "Window responsiveness"). An
 * unstyled run of blanks (spaces, tabs, line ends) takes the style of the token after it (else of
 * the one before), since a blank shows no colour and the panes' font is monospaced, so its width
 * does not depend on the weight; spans next to each other with the same style are then joined.
 * So {@code "\tld.param.u64 \t%rd1"} is two nodes instead of four.
 */
final class CompactSpans {
    private CompactSpans() {}

    static StyleSpans<Collection<String>> of(String text, StyleSpans<Collection<String>> spans) {
        List<Collection<String>> styles = new ArrayList<>();
        List<Integer> lengths = new ArrayList<>();
        List<Boolean> blank = new ArrayList<>();
        int at = 0;
        for (StyleSpan<Collection<String>> s : spans) {
            styles.add(s.getStyle());
            lengths.add(s.getLength());
            blank.add(s.getStyle().isEmpty() && isBlank(text, at, at + s.getLength()));
            at += s.getLength();
        }
        StyleSpansBuilder<Collection<String>> b = new StyleSpansBuilder<>();
        Collection<String> style = null;
        int length = 0;
        for (int i = 0; i < styles.size(); i++) {
            Collection<String> st = styles.get(i);
            if (blank.get(i)) {
                if (i + 1 < styles.size() && !styles.get(i + 1).isEmpty()) st = styles.get(i + 1);
                else if (style != null) st = style;
            }
            if (style != null && !st.equals(style)) {
                b.add(style, length);
                length = 0;
            }
            style = st;
            length += lengths.get(i);
        }
        if (style == null) return spans;
        b.add(style, length);
        return b.create();
    }

    private static boolean isBlank(String text, int from, int to) {
        for (int i = from; i < to && i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
        }
        return true;
    }
}
