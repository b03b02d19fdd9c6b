package io.barrierscope.app.lesson;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of Markdown the lessons use, parsed into blocks of inline spans: headings,
 * paragraphs, bullet and numbered lists, fenced code, tables, quotes and rules; inline code,
 * bold, italics and links. Pure, so what a lesson looks like is tested without a toolkit;
 * anything it does not know stays plain text.
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

    public static List<Block> parse(String text) {
        List<Block> out = new ArrayList<>();
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        int i = 0;
        while (i < lines.length) {
            String line = lines[i];
            String t = line.strip();
            if (t.isEmpty()) {
                i++;
            } else if (t.startsWith("```")) {
                StringBuilder code = new StringBuilder();
                i++;
                while (i < lines.length && !lines[i].strip().startsWith("```")) code.append(lines[i++]).append('\n');
                i++; // the closing fence (or the end)
                out.add(new Code(code.toString().stripTrailing()));
            } else if (t.startsWith("#")) {
                int level = 0;
                while (level < t.length() && t.charAt(level) == '#') level++;
                out.add(new Heading(Math.min(level, 6), inline(t.substring(level).strip())));
                i++;
            } else if (t.matches("(-{3,}|\\*{3,}|_{3,})")) {
                out.add(new Rule());
                i++;
            } else if (t.startsWith("|")) {
                List<String> rows = new ArrayList<>();
                while (i < lines.length && lines[i].strip().startsWith("|")) rows.add(lines[i++].strip());
                out.add(table(rows));
            } else if (t.startsWith(">")) {
                StringBuilder q = new StringBuilder();
                while (i < lines.length && lines[i].strip().startsWith(">")) {
                    q.append(q.length() > 0 ? " " : "").append(lines[i++].strip().substring(1).strip());
                }
                out.add(new Quote(inline(q.toString())));
            } else if (listMarker(line) != null) {
                String marker = listMarker(line);
                int indent = line.length() - line.stripLeading().length();
                StringBuilder item = new StringBuilder(t.substring(t.indexOf(' ') + 1).strip());
                i++;
                // Continuation lines: indented, not blank, not a new item or block.
                while (i < lines.length && !lines[i].isBlank() && listMarker(lines[i]) == null
                        && (lines[i].startsWith(" ") || lines[i].startsWith("\t")) && !lines[i].strip().startsWith("```")) {
                    item.append(' ').append(lines[i++].strip());
                }
                out.add(new Item(marker, indent / 2, inline(item.toString())));
            } else {
                StringBuilder p = new StringBuilder(t);
                i++;
                while (i < lines.length && !lines[i].isBlank() && !startsBlock(lines[i])) p.append(' ').append(lines[i++].strip());
                out.add(new Paragraph(inline(p.toString())));
            }
        }
        return List.copyOf(out);
    }

    private static boolean startsBlock(String line) {
        String t = line.strip();
        return t.startsWith("#") || t.startsWith("```") || t.startsWith("|") || t.startsWith(">") || listMarker(line) != null;
    }

    /** "•" for "- x" or "* x", "3." for "3. x", else null. */
    private static String listMarker(String line) {
        String t = line.stripLeading();
        if ((t.startsWith("- ") || t.startsWith("* ") || t.startsWith("+ ")) && t.length() > 2) return "•";
        int k = 0;
        while (k < t.length() && Character.isDigit(t.charAt(k))) k++;
        if (k > 0 && k + 1 < t.length() && (t.charAt(k) == '.' || t.charAt(k) == ')') && t.charAt(k + 1) == ' ') {
            return t.substring(0, k) + ".";
        }
        return null;
    }

    private static Table table(List<String> rows) {
        List<List<Span>> header = new ArrayList<>();
        List<List<List<Span>>> body = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            List<String> cells = cells(rows.get(r));
            if (r == 1 && cells.stream().allMatch(c -> c.matches(":?-{2,}:?"))) continue; // the alignment row
            List<List<Span>> parsed = cells.stream().map(Markdown::inline).toList();
            if (r == 0) header.addAll(parsed);
            else body.add(parsed);
        }
        return new Table(List.copyOf(header), List.copyOf(body));
    }

    private static List<String> cells(String row) {
        String r = row.strip();
        if (r.startsWith("|")) r = r.substring(1);
        if (r.endsWith("|")) r = r.substring(0, r.length() - 1);
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (int k = 0; k < r.length(); k++) {
            char c = r.charAt(k);
            if (c == '`') code = !code;
            if (c == '|' && !code) {
                out.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString().strip());
        return out;
    }

    /** Inline spans: `code`, **bold**, *italic* or _italic_, [text](url); the rest is text. */
    public static List<Span> inline(String s) {
        List<Span> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            if (c == '`' && (end = s.indexOf('`', i + 1)) > i) {
                flush(text, out);
                out.add(new Span(SpanKind.CODE, s.substring(i + 1, end), null));
                i = end + 1;
            } else if (s.startsWith("**", i) && (end = s.indexOf("**", i + 2)) > i + 2) {
                flush(text, out);
                out.add(new Span(SpanKind.BOLD, s.substring(i + 2, end), null));
                i = end + 2;
            } else if ((c == '*' || c == '_') && emphasisOpens(s, i) && (end = s.indexOf(c, i + 1)) > i + 1) {
                flush(text, out);
                out.add(new Span(SpanKind.ITALIC, s.substring(i + 1, end), null));
                i = end + 1;
            } else if (c == '[' && (end = s.indexOf("](", i)) > i && s.indexOf(')', end) > end) {
                int close = s.indexOf(')', end);
                flush(text, out);
                String label = s.substring(i + 1, end).replace("`", "");
                out.add(new Span(SpanKind.LINK, label, s.substring(end + 2, close)));
                i = close + 1;
            } else {
                text.append(c);
                i++;
            }
        }
        flush(text, out);
        return List.copyOf(out);
    }

    /** An emphasis mark opens at a word start and is followed by a non-blank (so "a * b" and snake_case stay text). */
    private static boolean emphasisOpens(String s, int i) {
        boolean wordBefore = i > 0 && Character.isLetterOrDigit(s.charAt(i - 1));
        return !wordBefore && i + 1 < s.length() && !Character.isWhitespace(s.charAt(i + 1));
    }

    private static void flush(StringBuilder text, List<Span> out) {
        if (text.length() == 0) return;
        out.add(new Span(SpanKind.TEXT, text.toString(), null));
        text.setLength(0);
    }

    /** The spans' text without marks, e.g. for a one-line description. */
    public static String plain(List<Span> spans) {
        StringBuilder sb = new StringBuilder();
        for (Span s : spans) sb.append(s.text());
        return sb.toString();
    }
}
