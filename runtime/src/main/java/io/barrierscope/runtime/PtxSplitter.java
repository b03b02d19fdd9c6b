package io.barrierscope.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** One top-level item: [start, end) of the text, its newlines (what a left-out body is replaced by); the name of an entry or function body. */
    record Item(int start, int end, int newlines, Kind kind, String name) {}

    private static final String[] LINE_DIRECTIVES = {".version", ".target", ".address_size", ".file"};

    private final String text;
    private final List<Item> items;
    private final Map<String, Item> entries = new LinkedHashMap<>();
    private final Map<String, Item> functions = new LinkedHashMap<>();
    /** nameLengths[n]: some function's name has n characters. */
    private final boolean[] nameLengths;

    public PtxSplitter(String text) {
        this.text = text;
        this.items = split(text);
        for (Item it : items) {
            if (it.kind == Kind.ENTRY) entries.put(it.name, it);
            if (it.kind == Kind.FUNCTION) functions.put(it.name, it);
        }
        int longest = 0;
        for (String f : functions.keySet()) longest = Math.max(longest, f.length());
        nameLengths = new boolean[longest + 1];
        for (String f : functions.keySet()) nameLengths[f.length()] = true;
    }

    static boolean identStart(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$';
    }

    static boolean identPart(char c) { return identStart(c) || (c >= '0' && c <= '9'); }

    /** The names of the module's entries, in order. */
    public List<String> entries() { return List.copyOf(entries.keySet()); }

    /** The module cut down to {@code entry} (the whole text when there is no such entry: the parser then says so). */
    public String only(String entry) {
        Item e = entries.get(entry);
        if (e == null) return text;
        // By identity: a record's own hashCode is bootstrapped on its first call, tens of ms in a fresh JVM.
        Set<Item> keep = Collections.newSetFromMap(new IdentityHashMap<>());
        keep.add(e);
        Deque<Item> work = new ArrayDeque<>();
        work.add(e);
        for (Item it : items) if (it.kind == Kind.OTHER) work.add(it);
        while (!work.isEmpty()) {
            Item it = work.poll();
            for (int i = it.start; i < it.end; ) {
                if (!identStart(text.charAt(i))) {
                    i++;
                    continue;
                }
                int j = i + 1;
                while (j < it.end && identPart(text.charAt(j))) j++;
                // Only a word as long as some function's name can be one (no String made for the rest).
                if (j - i < nameLengths.length && nameLengths[j - i]) {
                    Item f = functions.get(text.substring(i, j));
                    if (f != null && keep.add(f)) work.add(f);
                }
                i = j;
            }
        }
        StringBuilder out = new StringBuilder(text.length() / 4);
        for (Item it : items) {
            if (it.kind == Kind.OTHER || it.kind == Kind.DECLARATION || keep.contains(it)) {
                out.append(text, it.start, it.end);
            } else {
                out.append("\n".repeat(it.newlines));
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
        int lines = 0; // newlines of the current item so far
        while (i < n) {
            char c = t.charAt(i);
            if (c == '/' && i + 1 < n && t.charAt(i + 1) == '/') {
                while (i < n && t.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && t.charAt(i + 1) == '*') {
                int close = t.indexOf("*/", i + 2);
                int to = close < 0 ? n : close + 2;
                for (; i < to; i++) if (t.charAt(i) == '\n') lines++;
                continue;
            }
            if (c == '"') {
                i++;
                while (i < n && t.charAt(i) != '"') {
                    int step = t.charAt(i) == '\\' ? 2 : 1;
                    for (int k = i; k < Math.min(n, i + step); k++) if (t.charAt(k) == '\n') lines++;
                    i += step;
                }
                i++;
                continue;
            }
            if (fresh && !Character.isWhitespace(c)) {
                // The item's first token: a line directive ends at its line's end.
                fresh = false;
                lineItem = depth == 0 && c == '.' && lineDirective(t, i);
            }
            if (c == '\n') lines++;
            if (lineItem && c == '\n') {
                out.add(item(t, start, i + 1, lines));
                lines = 0;
                start = i + 1;
                lineItem = false;
                fresh = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
                if (depth == 0) {
                    out.add(item(t, start, i + 1, lines));
                    lines = 0;
                    start = i + 1;
                    fresh = true;
                }
            } else if (c == ';' && depth == 0) {
                out.add(item(t, start, i + 1, lines));
                lines = 0;
                start = i + 1;
                fresh = true;
            }
            i++;
        }
        if (start < n) out.add(new Item(start, n, lines, Kind.OTHER, null));
        return out;
    }

    /** Whether a line directive's name (followed by white space or the end) starts at {@code i}. */
    private static boolean lineDirective(String t, int i) {
        for (String d : LINE_DIRECTIVES) {
            int e = i + d.length();
            if (t.startsWith(d, i) && (e == t.length() || Character.isWhitespace(t.charAt(e)))) return true;
        }
        return false;
    }

    /**
     * Classifies [start, end): an entry or function with a body, else anything else. The header
     * read: white space and comments, then {@code .visible}, {@code .weak} or {@code .extern}
     * words, {@code .entry} or {@code .func}, an optional return parameter list, the name.
     */
    private static Item item(String t, int start, int end, int lines) {
        int i = skipSpace(t, start, end);
        boolean extern = false;
        boolean entry;
        while (true) {
            int w = word(t, i, end);
            String d = t.substring(i, w);
            if (d.equals(".visible") || d.equals(".weak") || d.equals(".extern")) {
                if (w == end || !Character.isWhitespace(t.charAt(w))) return other(start, end, lines);
                extern |= d.equals(".extern");
                i = skipBlanks(t, w, end);
            } else if (d.equals(".entry") || d.equals(".func")) {
                entry = d.equals(".entry");
                i = skipBlanks(t, w, end);
                break;
            } else {
                return other(start, end, lines);
            }
        }
        if (i < end && t.charAt(i) == '(') {
            int close = t.indexOf(')', i);
            if (close < 0 || close >= end) return other(start, end, lines);
            i = skipBlanks(t, close + 1, end);
        }
        if (i >= end || !identStart(t.charAt(i))) return other(start, end, lines);
        int j = i + 1;
        while (j < end && identPart(t.charAt(j))) j++;
        String name = t.substring(i, j);
        if (t.charAt(end - 1) == ';') return new Item(start, end, lines, Kind.DECLARATION, name);
        if (extern) return other(start, end, lines);
        return new Item(start, end, lines, entry ? Kind.ENTRY : Kind.FUNCTION, name);
    }

    private static Item other(int start, int end, int lines) { return new Item(start, end, lines, Kind.OTHER, null); }

    /** A directive word: '.' and identifier characters, from {@code i}. */
    private static int word(String t, int i, int end) {
        if (i >= end || t.charAt(i) != '.') return i;
        int j = i + 1;
        while (j < end && identPart(t.charAt(j))) j++;
        return j;
    }

    /** White space only. */
    private static int skipBlanks(String t, int i, int end) {
        while (i < end && Character.isWhitespace(t.charAt(i))) i++;
        return i;
    }

    /** White space, line comments and block comments. */
    private static int skipSpace(String t, int i, int end) {
        while (i < end) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < end && t.charAt(i + 1) == '/') {
                int nl = t.indexOf('\n', i);
                if (nl < 0 || nl >= end) return end;
                i = nl + 1;
            } else if (c == '/' && i + 1 < end && t.charAt(i + 1) == '*') {
                int close = t.indexOf("*/", i + 2);
                if (close < 0 || close + 2 > end) return end;
                i = close + 2;
            } else {
                return i;
            }
        }
        return i;
    }
}
