package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.fxmisc.richtext.model.StyleSpan;
import org.fxmisc.richtext.model.StyleSpans;
import org.junit.jupiter.api.Test;

class PtxHighlighterTest {
    /** The styled pieces of the text as "style:text", plain text left out. */
    private static List<String> tokens(String text) {
        StyleSpans<Collection<String>> spans = PtxHighlighter.highlight(text);
        assertEquals(text.length(), spans.length(), "spans cover the text exactly");
        List<String> out = new ArrayList<>();
        int pos = 0;
        for (StyleSpan<Collection<String>> s : spans) {
            if (!s.getStyle().isEmpty()) {
                out.add(String.join(",", s.getStyle()) + ":" + text.substring(pos, pos + s.getLength()));
            }
            pos += s.getLength();
        }
        return out;
    }

    @Test
    void instructionWithGuardRegistersAndLabelReference() {
        assertEquals(List.of("guard:@%p1", "opcode:bra", "comment:// out"),
                tokens("\t@%p1 bra \t$L__BB0_2; // out"));
        assertEquals(List.of("opcode:ld.global.nc.u32", "register:%r21", "register:%rd5"),
                tokens("ld.global.nc.u32 %r21, [%rd5];"));
    }

    @Test
    void negatedGuardAndSpecialRegisterWithComponent() {
        assertEquals(List.of("guard:@!%p2", "opcode:mov.u32", "register:%r1", "register:%ntid.x"),
                tokens("@!%p2 mov.u32 %r1, %ntid.x;"));
    }

    @Test
    void directivesNumbersAndDeclarations() {
        assertEquals(List.of("directive:.reg", "directive:.b32", "register:%r", "number:23"),
                tokens(".reg .b32 %r<23>;"));
        assertEquals(List.of("directive:.loc", "number:1", "number:12", "number:0"), tokens(".loc\t1 12 0"));
        assertEquals(List.of("opcode:mov.f32", "register:%f1", "number:0f3F800000"), tokens("mov.f32 %f1, 0f3F800000;"));
    }

    @Test
    void labelsAtStatementStartThenAnInstructionOnTheSameLine() {
        assertEquals(List.of("label:$L__BB0_3:"), tokens("$L__BB0_3:"));
        assertEquals(List.of("label:L1:", "opcode:ret"), tokens("L1: ret;"));
    }

    @Test
    void doubleColonQualifiersBelongToTheOpcodeNotALabel() {
        assertEquals(List.of("opcode:mbarrier.arrive.shared::cta.b64", "register:%rd1", "register:%r1"),
                tokens("mbarrier.arrive.shared::cta.b64 %rd1, [%r1];"));
        assertEquals(List.of("opcode:cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "register:%r1"),
                tokens("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1];"));
        assertEquals(List.of("directive:.shared::cluster"), tokens(".shared::cluster"));
    }

    @Test
    void eachStatementStartsAfterSemicolonBraceOrNewline() {
        assertEquals(List.of("opcode:bar.sync", "number:0", "opcode:exit", "opcode:ret"),
                tokens("bar.sync 0;\nexit; { ret; }"));
    }

    @Test
    void commentsAndStrings() {
        assertEquals(List.of("comment:/* a\nb */", "directive:.file", "number:1", "string:\"kernel.cu\""),
                tokens("/* a\nb */ .file 1 \"kernel.cu\""));
        assertEquals(List.of("comment:/* open"), tokens("/* open"));
    }

    @Test
    void emptyAndPlainTextAreCovered() {
        assertEquals(List.of(), tokens(""));
        assertEquals(List.of(), tokens("(\n)"));
    }

    @Test
    void wholeSampleKernelIsCovered() throws Exception {
        var lines = java.nio.file.Files.readAllLines(io.barrierscope.app.TestFiles.sample("block-reduce").resolveSibling("kernel.ptx"));
        List<String> t = tokens(String.join("\n", lines));
        assertEquals(true, t.contains("opcode:bar.sync"));
        assertEquals(true, t.contains("directive:.entry"));
    }
}
