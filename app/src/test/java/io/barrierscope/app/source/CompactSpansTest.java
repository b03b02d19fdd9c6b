package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.fxmisc.richtext.model.StyleSpan;
import org.fxmisc.richtext.model.StyleSpans;
import org.junit.jupiter.api.Test;

class CompactSpansTest {
    /** Each span as "style:text", plain text as ":text". */
    private static List<String> spans(String text, StyleSpans<Collection<String>> spans) {
        List<String> out = new ArrayList<>();
        int at = 0;
        for (StyleSpan<Collection<String>> s : spans) {
            out.add(String.join(",", s.getStyle()) + ":" + text.substring(at, at + s.getLength()));
            at += s.getLength();
        }
        return out;
    }

    @Test
    void blanksTakeTheStyleOfTheTokenAfterThemSoALineNeedsFewerTextNodes() {
        String line = "\tld.param.u64 \t%rd1, [p];";
        assertEquals(List.of(":\t", "opcode:ld.param.u64", ": \t", "register:%rd1", ":, [p];"),
                spans(line, PtxHighlighter.highlight(line)), "the highlighter's spans");
        assertEquals(List.of("opcode:\tld.param.u64", "register: \t%rd1", ":, [p];"),
                spans(line, CompactSpans.of(line, PtxHighlighter.highlight(line))));
    }

    @Test
    void blanksBeforePlainTextJoinTheTokenBeforeAndPunctuationKeepsItsOwnStyle() {
        String text = "add.s32 %r3, %r1;\n";
        assertEquals(List.of("opcode:add.s32", "register: %r3", ":, ", "register:%r1", ":;\n"),
                spans(text, CompactSpans.of(text, PtxHighlighter.highlight(text))));
    }

    @Test
    void textWithoutStyledTokensIsLeftAsItIs() {
        String text = "  \n ";
        StyleSpans<Collection<String>> plain = PtxHighlighter.highlight(text);
        assertEquals(spans(text, plain), spans(text, CompactSpans.of(text, plain)));
    }
}
