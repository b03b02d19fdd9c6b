package io.barrierscope.app.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class MarkdownTest {
    @Test
    void blocks() {
        List<Markdown.Block> b = Markdown.parse("""
                # Title `x`

                First line
                continues here.

                - one
                  more
                - two

                3. three

                ```
                code  line
                ```
                | a | `b\\|c` |
                | --- | --- |
                | 1 | 2 |
                > quoted
                ---
                """);
        assertEquals(new Markdown.Heading(1, List.of(new Markdown.Span(Markdown.SpanKind.TEXT, "Title ", null),
                new Markdown.Span(Markdown.SpanKind.CODE, "x", null))), b.get(0));
        assertEquals("First line continues here.", Markdown.plain(((Markdown.Paragraph) b.get(1)).spans()));
        assertEquals("one more", Markdown.plain(((Markdown.Item) b.get(2)).spans()));
        assertEquals("•", ((Markdown.Item) b.get(3)).marker());
        assertEquals("3.", ((Markdown.Item) b.get(4)).marker());
        assertEquals(new Markdown.Code("code  line"), b.get(5));
        Markdown.Table t = (Markdown.Table) b.get(6);
        assertEquals(2, t.header().size());
        assertEquals("b|c", Markdown.plain(t.header().get(1)), "an escaped pipe inside code is no column (GFM)");
        assertEquals(1, t.rows().size());
        assertInstanceOf(Markdown.Quote.class, b.get(7));
        assertInstanceOf(Markdown.Rule.class, b.get(8));
        assertEquals(9, b.size());
    }

    @Test
    void inlineSpans() {
        List<Markdown.Span> s = Markdown.inline("a **bold** and *it* [see `x`](../x/lesson.md) snake_case a * b");
        assertEquals(List.of(
                new Markdown.Span(Markdown.SpanKind.TEXT, "a ", null),
                new Markdown.Span(Markdown.SpanKind.BOLD, "bold", null),
                new Markdown.Span(Markdown.SpanKind.TEXT, " and ", null),
                new Markdown.Span(Markdown.SpanKind.ITALIC, "it", null),
                new Markdown.Span(Markdown.SpanKind.TEXT, " ", null),
                new Markdown.Span(Markdown.SpanKind.LINK, "see x", "../x/lesson.md"),
                new Markdown.Span(Markdown.SpanKind.TEXT, " snake_case a * b", null)), s);
    }

    @Test
    void everyBundledLessonParsesAndKeepsItsText() throws Exception {
        Path samples = TestFiles.sample("block-reduce").getParent().getParent();
        try (Stream<Path> dirs = Files.list(samples)) {
            for (Path lesson : dirs.map(d -> d.resolve("lesson.md")).filter(Files::isRegularFile).toList()) {
                List<Markdown.Block> b = Markdown.parse(Files.readString(lesson));
                assertInstanceOf(Markdown.Heading.class, b.get(0), lesson.toString());
                assertTrue(b.size() > 2, lesson.toString());
            }
        }
    }

    @Test
    void aLinkToAnotherLessonOpensThatSample() {
        Path lesson = TestFiles.sample("tma-pipeline").getParent().resolve("lesson.md");
        assertEquals(TestFiles.sample("bulk-copy-pipeline").normalize(),
                LessonViewModel.launchFileOf(lesson, "../bulk-copy-pipeline/lesson.md"));
        assertEquals(null, LessonViewModel.launchFileOf(lesson, "https://docs.nvidia.com/x"));
        assertEquals(null, LessonViewModel.launchFileOf(lesson, "../no-such-sample/lesson.md"));
    }
    @Test
    void anyCommonMarkATeacherWritesIsUnderstood() {
        List<Markdown.Block> b = Markdown.parse("""
                Setext title
                ============

                    indented code

                1) first
                   1. nested
                2) second

                * a *nested **bold** inside* item with a <kbd>key</kbd>
                """);
        assertEquals(new Markdown.Heading(1, List.of(new Markdown.Span(Markdown.SpanKind.TEXT, "Setext title", null))), b.get(0));
        assertEquals(new Markdown.Code("indented code"), b.get(1));
        assertEquals(new Markdown.Item("1.", 0, List.of(new Markdown.Span(Markdown.SpanKind.TEXT, "first", null))), b.get(2));
        assertEquals(new Markdown.Item("1.", 1, List.of(new Markdown.Span(Markdown.SpanKind.TEXT, "nested", null))), b.get(3));
        assertEquals("2.", ((Markdown.Item) b.get(4)).marker());
        Markdown.Item item = (Markdown.Item) b.get(5);
        assertEquals(new Markdown.Span(Markdown.SpanKind.ITALIC, "nested bold inside", null), item.spans().get(1));
        assertEquals("a nested bold inside item with a <kbd>key</kbd>", Markdown.plain(item.spans()));
    }
}
