package io.barrierscope.app.source;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fxmisc.richtext.model.StyleSpans;
import org.fxmisc.richtext.model.StyleSpansBuilder;

/**
 * CUDA C++ colouring as a pure function from text to style spans: comments, strings, numbers,
 * preprocessor lines, keywords and the CUDA qualifiers and synchronization calls a lesson is
 * about. Style classes: {@code comment}, {@code string}, {@code number}, {@code directive},
 * {@code keyword}, {@code cuda}.
 */
public final class CudaHighlighter {
    private static final Set<String> KEYWORDS = Set.of("auto", "bool", "break", "case", "char", "const", "constexpr",
            "continue", "default", "do", "double", "else", "enum", "extern", "false", "float", "for", "if", "inline",
            "int", "long", "namespace", "nullptr", "return", "short", "signed", "sizeof", "static", "struct",
            "switch", "template", "true", "typedef", "typename", "unsigned", "using", "void", "volatile", "while",
            "uint32_t", "uint64_t", "int32_t", "int64_t", "size_t", "asm");
    private static final Pattern TOKEN = Pattern.compile(
            "(?<comment>//[^\\n]*|/\\*(?s:.*?)(?:\\*/|\\z))"
                    + "|(?<string>\"(?:[^\"\\\\\\n]|\\\\.)*\"?|'(?:[^'\\\\\\n]|\\\\.)*'?)"
                    + "|(?<directive>^[ \\t]*#[^\\n]*)"
                    + "|(?<word>[A-Za-z_][A-Za-z0-9_]*)"
                    + "|(?<number>\\b(?:0[xX][0-9a-fA-F]+|\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?)[uUlLfF]*)",
            Pattern.MULTILINE);

    private CudaHighlighter() {}

    public static StyleSpans<Collection<String>> highlight(String text) {
        StyleSpansBuilder<Collection<String>> b = new StyleSpansBuilder<>();
        Matcher m = TOKEN.matcher(text);
        int last = 0;
        boolean any = false;
        while (m.find()) {
            String style = style(m);
            if (style == null) continue;
            b.add(List.of(), m.start() - last);
            b.add(List.of(style), m.end() - m.start());
            last = m.end();
            any = true;
        }
        if (!any || last < text.length()) b.add(List.of(), text.length() - last);
        return b.create();
    }

    private static String style(Matcher m) {
        if (m.group("comment") != null) return "comment";
        if (m.group("string") != null) return "string";
        if (m.group("directive") != null) return "directive";
        if (m.group("number") != null) return "number";
        String w = m.group("word");
        if (w == null) return null;
        if (w.startsWith("__")) return "cuda"; // __global__, __syncthreads, __shared__, ...
        if (w.startsWith("mbarrier") || w.startsWith("cp_async") || w.equals("barrier")) return "cuda";
        return KEYWORDS.contains(w) ? "keyword" : null;
    }
}
