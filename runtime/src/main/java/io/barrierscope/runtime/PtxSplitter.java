package io.barrierscope.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a module's PTX down to what one launch needs, so that a program embedding megabytes of
 * PTX with hundreds of entries is not parsed whole: every top-level item that is not a function
 * body (directives, variables, prototypes, debug sections) is kept as written, plus the entry and
 * the functions its text names, transitively; every other body is replaced by its newlines, so
 * line numbers (in messages, explanations and the window) are those of the whole module.
 * Every entry's cut declares the same module variables in the same order, so they are placed at
 * the same addresses whichever entry is compiled.
 */
public final class PtxSplitter {
    /** DECLARATION: a function prototype (kept, but naming a function there does not need its body). */
    enum Kind { ENTRY, FUNCTION, DECLARATION, OTHER }

    /** One top-level item: [start, end) of the text; the name of an entry or function body. */
    record Item(int start, int end, Kind kind, String name) {
        /** The newlines a left-out body is replaced by. */
        int newlines(String t) {
            int n = 0;
            for (int i = t.indexOf('\n', start); i >= 0 && i < end; i = t.indexOf('\n', i + 1)) n++;
            return n;
        }
    }

    private static final Pattern IDENT = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final Set<String> LINE_DIRECTIVES = Set.of(".version", ".target", ".address_size", ".file");

    private final String text;
    private final List<Item> items;
    private final Map<String, Item> entries = new LinkedHashMap<>();
    private final Map<String, Item> functions = new LinkedHashMap<>();

    public PtxSplitter(String text) {
        this.text = text;
        this.items = split(text);
        for (Item it : items) {
            if (it.kind == Kind.ENTRY) entries.put(it.name, it);
            if (it.kind == Kind.FUNCTION) functions.put(it.name, it);
        }
    }

    /** The names of the module's entries, in order. */
    public List<String> entries() { return List.copyOf(entries.keySet()); }

    /** The module cut down to {@code entry} (the whole text when there is no such entry: the parser then says so). */
    public String only(String entry) {
        Item e = entries.get(entry);
        if (e == null) return text;
        Set<Item> keep = new LinkedHashSet<>();
        keep.add(e);
        Deque<Item> work = new ArrayDeque<>();
        work.add(e);
        for (Item it : items) if (it.kind == Kind.OTHER) work.add(it);
        while (!work.isEmpty()) {
            Item it = work.poll();
            Matcher m = IDENT.matcher(text).region(it.start, it.end);
            while (m.find()) {
                Item f = functions.get(m.group());
                if (f != null && keep.add(f)) work.add(f);
            }
        }
        StringBuilder out = new StringBuilder(text.length() / 4);
        for (Item it : items) {
            if (it.kind == Kind.OTHER || it.kind == Kind.DECLARATION || keep.contains(it)) {
                out.append(text, it.start, it.end);
            } else {
                out.append("\n".repeat(it.newlines(text)));
            }
        }
        return out.toString();
    }

    /** The top-level items, covering the whole text in order. */
    static List<Item> split(String t) {
        List<Item> out = new ArrayList<>();
        int n = t.length();
        int start = 0;
        int i = 0;
        int depth = 0;
        boolean lineItem = false;
        boolean fresh = true;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '/' && i + 1 < n && t.charAt(i + 1) == '/') {
                while (i < n && t.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && t.charAt(i + 1) == '*') {
                int close = t.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                continue;
            }
            if (c == '"') {
                i++;
                while (i < n && t.charAt(i) != '"') i += t.charAt(i) == '\\' ? 2 : 1;
                i++;
                continue;
            }
            if (fresh && !Character.isWhitespace(c)) {
                // The item's first token: a line directive ends at its line's end.
                fresh = false;
                int e = i;
                while (e < n && !Character.isWhitespace(t.charAt(e))) e++;
                lineItem = depth == 0 && LINE_DIRECTIVES.contains(t.substring(i, e));
            }
            if (lineItem && c == '\n') {
                out.add(item(t, start, i + 1));
                start = i + 1;
                lineItem = false;
                fresh = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
                if (depth == 0) {
                    out.add(item(t, start, i + 1));
                    start = i + 1;
                    fresh = true;
                }
            } else if (c == ';' && depth == 0) {
                out.add(item(t, start, i + 1));
                start = i + 1;
                fresh = true;
            }
            i++;
        }
        if (start < n) out.add(new Item(start, n, Kind.OTHER, null));
        return out;
    }

    private static final Pattern HEADER = Pattern.compile(
            "\\A(?:\\s|//[^\\n]*\\n|/\\*.*?\\*/)*((?:\\.(?:visible|weak|extern)\\s+)*)\\.(entry|func)\\b\\s*(\\([^)]*\\)\\s*)?([A-Za-z_$][A-Za-z0-9_$]*)",
            Pattern.DOTALL);

    /** Classifies [start, end): an entry or function with a body, else anything else. */
    private static Item item(String t, int start, int end) {
        Matcher m = HEADER.matcher(t).region(start, end);
        if (m.lookingAt()) {
            if (t.charAt(end - 1) == ';') return new Item(start, end, Kind.DECLARATION, m.group(4));
            if (!m.group(1).contains(".extern")) return new Item(start, end, m.group(2).equals("entry") ? Kind.ENTRY : Kind.FUNCTION, m.group(4));
        }
        return new Item(start, end, Kind.OTHER, null);
    }
}
