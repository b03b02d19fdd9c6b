package io.barrierscope.app.lesson;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListBlock;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

/**
 * A lesson's Markdown as the lesson view draws it: blocks (headings, paragraphs, bullet and
 * numbered list items, code, tables, quotes, rules) of inline spans (text, code, bold, italics,
 * links). Parsed by commonmark-java with its GFM tables extension, so a lesson may use any
 * CommonMark; this class only flattens the parser's tree into these records. Pure, so what a
 * lesson looks like is tested without a toolkit.
 */
public final class Markdown {
    public enum SpanKind { TEXT, CODE, BOLD, ITALIC, LINK }

    /** A run of inline text; {@code url} only for links. */
    public record Span(SpanKind kind, String text, String url) {}

    public sealed interface Block permits Heading, Paragraph, Item, Code, Table, Quote, Rule {}

    public record Heading(int level, List<Span> spans) implements Block {}

    public record Paragraph(List<Span> spans) implements Block {}

    /** A list item; {@code marker} is "•" or "3.". */
    public record Item(String marker, int depth, List<Span> spans) implements Block {}

    public record Code(String text) implements Block {}

    public record Table(List<List<Span>> header, List<List<List<Span>>> rows) implements Block {}

    public record Quote(List<Span> spans) implements Block {}

    public record Rule() implements Block {}

    private Markdown() {}

    /** CommonMark with GitHub's tables: any Markdown a teacher writes (thread-safe, so one for all). */
    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    /**
     * The lesson's blocks, parsed by commonmark-java (CommonMark and GFM tables) and flattened
     * into what the lesson view draws: list items carry their marker and nesting depth; a block
     * quote's paragraphs become one quote; raw HTML stays plain text.
     */
    public static List<Block> parse(String text) {
        List<Block> out = new ArrayList<>();
        for (Node n = PARSER.parse(text).getFirstChild(); n != null; n = n.getNext()) block(n, 0, out);
        return List.copyOf(out);
    }

    private static void block(Node n, int depth, List<Block> out) {
        if (n instanceof org.commonmark.node.Heading h) {
            out.add(new Heading(Math.min(h.getLevel(), 6), spans(h)));
        } else if (n instanceof org.commonmark.node.Paragraph p) {
            out.add(new Paragraph(spans(p)));
        } else if (n instanceof BulletList || n instanceof OrderedList) {
            list((ListBlock) n, depth, out);
        } else if (n instanceof FencedCodeBlock c) {
            out.add(new Code(c.getLiteral().stripTrailing()));
        } else if (n instanceof IndentedCodeBlock c) {
            out.add(new Code(c.getLiteral().stripTrailing()));
        } else if (n instanceof BlockQuote q) {
            List<Span> spans = new ArrayList<>();
            for (Node c = q.getFirstChild(); c != null; c = c.getNext()) {
                if (!spans.isEmpty()) spans.add(new Span(SpanKind.TEXT, " ", null));
                spans.addAll(c instanceof org.commonmark.node.Paragraph || c instanceof org.commonmark.node.Heading
                        ? spans(c) : List.of(new Span(SpanKind.TEXT, literal(c), null)));
            }
            out.add(new Quote(merge(spans)));
        } else if (n instanceof ThematicBreak) {
            out.add(new Rule());
        } else if (n instanceof TableBlock t) {
            out.add(table(t));
        } else if (n instanceof HtmlBlock h) {
            out.add(new Paragraph(List.of(new Span(SpanKind.TEXT, h.getLiteral().strip(), null))));
        } else {
            for (Node c = n.getFirstChild(); c != null; c = c.getNext()) block(c, depth, out);
        }
    }

    /** Each item: its marker, then its first paragraph as the item's text; what follows in it (code, nested lists) after it. */
    private static void list(ListBlock l, int depth, List<Block> out) {
        int number = l instanceof OrderedList o ? startOf(o) : 0;
        for (Node item = l.getFirstChild(); item != null; item = item.getNext()) {
            String marker = l instanceof OrderedList ? (number++) + "." : "•";
            Node first = item.getFirstChild();
            boolean text = first instanceof org.commonmark.node.Paragraph;
            out.add(new Item(marker, depth, text ? spans(first) : List.of()));
            for (Node c = text ? first.getNext() : first; c != null; c = c.getNext()) block(c, depth + 1, out);
        }
    }

    @SuppressWarnings("deprecation") // getStartNumber: the one name both 0.21 and 0.22 have
    private static int startOf(OrderedList o) { return o.getStartNumber(); }

    private static Table table(TableBlock t) {
        List<List<Span>> header = new ArrayList<>();
        List<List<List<Span>>> rows = new ArrayList<>();
        for (Node section = t.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                List<List<Span>> cells = new ArrayList<>();
                for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) cells.add(spans(cell));
                if (section instanceof TableHead) header.addAll(cells);
                else rows.add(List.copyOf(cells));
            }
        }
        return new Table(List.copyOf(header), List.copyOf(rows));
    }

    /** The inline spans of a block: text, `code`, **bold**, *italic*, [links](url); line breaks as spaces. */
    private static List<Span> spans(Node block) {
        List<Span> out = new ArrayList<>();
        for (Node n = block.getFirstChild(); n != null; n = n.getNext()) {
            if (n instanceof Text t) out.add(new Span(SpanKind.TEXT, t.getLiteral(), null));
            else if (n instanceof org.commonmark.node.Code c) out.add(new Span(SpanKind.CODE, c.getLiteral(), null));
            else if (n instanceof StrongEmphasis) out.add(new Span(SpanKind.BOLD, literal(n), null));
            else if (n instanceof Emphasis) out.add(new Span(SpanKind.ITALIC, literal(n), null));
            else if (n instanceof Link l) out.add(new Span(SpanKind.LINK, literal(l), l.getDestination()));
            else if (n instanceof SoftLineBreak || n instanceof HardLineBreak) out.add(new Span(SpanKind.TEXT, " ", null));
            else out.add(new Span(SpanKind.TEXT, literal(n), null));
        }
        return merge(out);
    }

    /** The text under a node without its marks (code spans, emphasis and links give their text). */
    private static String literal(Node n) {
        if (n instanceof Text t) return t.getLiteral();
        if (n instanceof org.commonmark.node.Code c) return c.getLiteral();
        if (n instanceof HtmlInline h) return h.getLiteral();
        if (n instanceof SoftLineBreak || n instanceof HardLineBreak) return " ";
        StringBuilder sb = new StringBuilder();
        for (Node c = n.getFirstChild(); c != null; c = c.getNext()) sb.append(literal(c));
        return sb.toString();
    }

    /** Neighbouring text spans as one (the parser splits text at every would-be mark). */
    private static List<Span> merge(List<Span> spans) {
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            int last = out.size() - 1;
            if (s.kind() == SpanKind.TEXT && last >= 0 && out.get(last).kind() == SpanKind.TEXT) {
                out.set(last, new Span(SpanKind.TEXT, out.get(last).text() + s.text(), null));
            } else if (!(s.kind() == SpanKind.TEXT && s.text().isEmpty())) {
                out.add(s);
            }
        }
        return List.copyOf(out);
    }

    /** Inline spans of one line of Markdown (a title or a sentence), whatever block it would make. */
    public static List<Span> inline(String s) {
        List<Span> out = new ArrayList<>();
        for (Block b : parse(s)) {
            List<Span> spans = b instanceof Heading h ? h.spans()
                    : b instanceof Paragraph p ? p.spans()
                    : b instanceof Item i ? i.spans()
                    : b instanceof Quote q ? q.spans()
                    : b instanceof Code c ? List.of(new Span(SpanKind.TEXT, c.text(), null))
                    : List.<Span>of();
            if (!out.isEmpty() && !spans.isEmpty()) out.add(new Span(SpanKind.TEXT, " ", null));
            out.addAll(spans);
        }
        return merge(out);
    }

    /** The spans' text without marks, e.g. for a one-line description. */
    public static String plain(List<Span> spans) {
        StringBuilder sb = new StringBuilder();
        for (Span s : spans) sb.append(s.text());
        return sb.toString();
    }
}
