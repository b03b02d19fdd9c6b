package io.barrierscope.runtime;

import io.barrierscope.exec.DeviceBuiltins;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Links the PTX of the translation units of a program built with relocatable device code
 * ({@code nvcc -rdc=true}) into one module, as nvlink links their cubins (docs/runtime.md,
 * "Relocatable device code"): every {@code .extern} function or variable is resolved to the
 * {@code .visible} (strong) or {@code .weak} definition of another object; a weak definition
 * yields to a strong one (two weak ones: the first object's is kept); two strong definitions of
 * one name, or an extern that nothing defines, are errors naming the objects, as a linker names
 * them. An {@code .extern .shared} nothing defines is dynamic shared memory, declared once.
 * Names without linkage (printf's {@code $str} strings) that two objects both define are renamed in the later object, and each object's {@code .file} indices
 * are moved past the earlier objects', so {@code .loc} still names the right file.
 * The result is text: the engine parses it as one module, and calls and variables defined later
 * in it are bound when the module is finished (the engine's parser binds names late).
 */
public final class PtxLinker {
    /** A link error: duplicate strong definitions or an unresolved extern, named as a linker would. */
    public static final class LinkException extends RuntimeException {
        LinkException(String message) { super(message); }
    }

    private enum Link { EXTERN, STRONG, WEAK, INTERNAL, NONE }

    /** One top-level item of one object: its text, what it declares and how. */
    private record Decl(String text, boolean function, boolean body, Link link, String name, boolean shared) {}

    private static final Pattern FILE = Pattern.compile("(?m)^(\\s*\\.file\\s+)(\\d+)");
    private static final Pattern LOC = Pattern.compile("(\\.loc\\s+)(\\d+)");
    private static final Pattern INLINED = Pattern.compile("(inlined_at\\s+)(\\d+)");
    private static final Pattern LABEL = Pattern.compile("([A-Za-z_$][A-Za-z0-9_$]*)\\s*:");
    private static final Pattern VERSION = Pattern.compile("\\.version\\s+(\\d+)\\.(\\d+)");
    private static final Pattern BLOCK_COMMENT = Pattern.compile("(?s)/\\*.*?\\*/");
    private static final Pattern LINE_COMMENT = Pattern.compile("//[^\\n]*");
    private static final Pattern WORD = Pattern.compile("\\.?[A-Za-z_$][A-Za-z0-9_$]*|\\d+|\\S");

    private PtxLinker() {}

    /** The objects' names in messages: their first {@code .file} (-lineinfo), else their position. */
    static List<String> names(List<String> ptx) {
        List<String> out = new ArrayList<>();
        Pattern first = Pattern.compile("(?m)^\\s*\\.file\\s+\\d+\\s+\"([^\"]*)\"");
        for (int i = 0; i < ptx.size(); i++) {
            Matcher m = first.matcher(ptx.get(i));
            String base = "object " + (i + 1) + " of " + ptx.size();
            out.add(m.find() ? base + " (" + m.group(1).substring(m.group(1).lastIndexOf('/') + 1) + ")" : base);
        }
        return out;
    }

    /** One module's PTX text made of every object's. */
    public static String link(List<String> ptx) {
        if (ptx.isEmpty()) throw new LinkException("no object to link");
        List<String> names = names(ptx);
        List<List<Decl>> objects = new ArrayList<>();
        for (String t : ptx) objects.add(decls(t));

        // Which object's definition each global name takes: strong over weak, first weak over later ones.
        Map<String, Integer> chosen = new LinkedHashMap<>();
        Map<String, Boolean> chosenStrong = new LinkedHashMap<>();
        Map<String, Integer> dynamicShared = new LinkedHashMap<>();
        Map<String, Integer> builtins = new LinkedHashMap<>(); // declared once, where first declared
        for (int o = 0; o < objects.size(); o++) {
            for (Decl d : objects.get(o)) {
                if (d.name == null || !(d.link == Link.STRONG || d.link == Link.WEAK) || (d.function && !d.body)) continue;
                Integer prev = chosen.get(d.name);
                boolean strong = d.link == Link.STRONG;
                if (prev != null && prev == o) continue;
                if (prev != null && strong && chosenStrong.get(d.name)) {
                    throw new LinkException("multiple definition of '" + d.name + "': first defined in " + names.get(prev)
                            + ", again in " + names.get(o));
                }
                if (prev == null || (strong && !chosenStrong.get(d.name))) {
                    chosen.put(d.name, o);
                    chosenStrong.put(d.name, strong);
                }
            }
        }
        for (int o = 0; o < objects.size(); o++) {
            for (Decl d : objects.get(o)) {
                if (d.link != Link.EXTERN || chosen.containsKey(d.name)) continue;
                if (d.function && DeviceBuiltins.NAMES.contains(d.name)) {
                    builtins.putIfAbsent(d.name, o);
                } else if (d.shared && !d.function) {
                    dynamicShared.putIfAbsent(d.name, o);
                } else if (!definedInternally(objects.get(o), d.name)) {
                    throw new LinkException("undefined reference to '" + d.name + "' in " + names.get(o)
                            + ": no object defines it (" + (d.function ? "a function" : "a variable")
                            + " declared extern; is the object that defines it linked in, compiled with -rdc=true?)");
                }
            }
        }

        // Names without linkage defined by more than one object (or by one and as a global name): renamed in the later ones.
        Set<String> taken = new LinkedHashSet<>(chosen.keySet());
        taken.addAll(dynamicShared.keySet());
        taken.addAll(builtins.keySet());
        List<Map<String, String>> renames = new ArrayList<>();
        for (int o = 0; o < objects.size(); o++) {
            Map<String, String> r = new LinkedHashMap<>();
            for (Decl d : objects.get(o)) {
                for (String n : internalNames(d)) {
                    if (r.containsKey(n)) continue;
                    if (taken.contains(n)) r.put(n, n + "$o" + (o + 1));
                }
            }
            for (Decl d : objects.get(o)) taken.addAll(internalNames(d));
            renames.add(r);
        }

        StringBuilder out = new StringBuilder();
        out.append(header(ptx, objects.get(0)));
        int fileBase = 0;
        for (int o = 0; o < objects.size(); o++) {
            StringBuilder obj = new StringBuilder();
            for (Decl d : objects.get(o)) {
                boolean take = d.name != null ? keep(d, o, chosen, dynamicShared, builtins) : !headerDirective(d.text);
                if (take) obj.append(d.text);
            }
            String text = rename(obj.toString(), renames.get(o));
            int maxFile = 0;
            Matcher fm = FILE.matcher(text);
            while (fm.find()) maxFile = Math.max(maxFile, Integer.parseInt(fm.group(2)));
            if (fileBase > 0) text = shiftFiles(text, fileBase);
            out.append("\n// barrierscope: linked ").append(names.get(o)).append('\n').append(text);
            fileBase += maxFile;
        }
        return out.toString();
    }

    private static boolean definedInternally(List<Decl> object, String name) {
        for (Decl d : object) if (name.equals(d.name) && d.link == Link.INTERNAL) return true;
        return false;
    }

    /** Whether an item with a name goes into the linked module. */
    private static boolean keep(Decl d, int o, Map<String, Integer> chosen, Map<String, Integer> dynamicShared,
                                Map<String, Integer> builtins) {
        Integer c = chosen.get(d.name);
        if (d.function && !d.body && d.link == Link.EXTERN) return c == null && Integer.valueOf(o).equals(builtins.get(d.name));
        if (d.function && !d.body) return c == null; // prototypes: the definition binds late
        if (d.link == Link.EXTERN) return c == null && Integer.valueOf(o).equals(dynamicShared.get(d.name));
        if (d.link == Link.STRONG || d.link == Link.WEAK) return c != null && c == o;
        return true;
    }

    private static List<String> internalNames(Decl d) {
        List<String> out = new ArrayList<>();
        if (d.name != null && d.link == Link.INTERNAL) out.add(d.name);
        if (d.name == null && d.text.stripLeading().startsWith(".section")) {
            Matcher m = LABEL.matcher(d.text);
            while (m.find()) out.add(m.group(1));
        }
        return out;
    }

    /** The first object's .target and .address_size (from its items, already split), the highest .version of all. */
    private static String header(List<String> ptx, List<Decl> first) {
        int bestMajor = -1, bestMinor = -1;
        for (String t : ptx) {
            Matcher m = VERSION.matcher(t);
            if (!m.find()) continue;
            int ma = Integer.parseInt(m.group(1)), mi = Integer.parseInt(m.group(2));
            if (ma > bestMajor || (ma == bestMajor && mi > bestMinor)) {
                bestMajor = ma;
                bestMinor = mi;
            }
        }
        StringBuilder h = new StringBuilder();
        if (bestMajor >= 0) h.append(".version ").append(bestMajor).append('.').append(bestMinor).append('\n');
        for (Decl d : first) {
            String s = d.text.strip();
            if (s.startsWith(".target") || s.startsWith(".address_size")) h.append(s).append('\n');
        }
        return h.toString();
    }

    private static boolean headerDirective(String text) {
        String s = stripComments(text).strip();
        return s.startsWith(".version") || s.startsWith(".target") || s.startsWith(".address_size");
    }

    private static String shiftFiles(String text, int base) {
        text = replaceNumber(FILE, text, base);
        text = replaceNumber(LOC, text, base);
        return replaceNumber(INLINED, text, base);
    }

    private static String replaceNumber(Pattern p, String text, int base) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + (Integer.parseInt(m.group(2)) + base)));
        m.appendTail(sb);
        return sb.toString();
    }

    /** Renames identifiers (not registers, not directives, not inside strings or comments). */
    static String rename(String t, Map<String, String> renames) {
        if (renames.isEmpty()) return t;
        StringBuilder out = new StringBuilder(t.length() + 64);
        int n = t.length();
        int i = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '/' && i + 1 < n && (t.charAt(i + 1) == '/' || t.charAt(i + 1) == '*')) {
                int end = t.charAt(i + 1) == '/' ? t.indexOf('\n', i) : t.indexOf("*/", i + 2);
                end = end < 0 ? n : (t.charAt(i + 1) == '/' ? end : end + 2);
                out.append(t, i, end);
                i = end;
            } else if (c == '"') {
                int j = i + 1;
                while (j < n && t.charAt(j) != '"') j += t.charAt(j) == '\\' ? 2 : 1;
                j = Math.min(n, j + 1);
                out.append(t, i, j);
                i = j;
            } else if (PtxSplitter.identStart(c)) {
                int j = i + 1;
                while (j < n && PtxSplitter.identPart(t.charAt(j))) j++;
                char before = i > 0 ? t.charAt(i - 1) : ' ';
                String word = t.substring(i, j);
                String to = before == '%' || before == '.' || PtxSplitter.identPart(before) ? null : renames.get(word);
                out.append(to != null ? to : word);
                i = j;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String stripComments(String t) {
        return LINE_COMMENT.matcher(BLOCK_COMMENT.matcher(t).replaceAll(" ")).replaceAll(" ");
    }

    /** The object's top-level items, each with what it declares. */
    private static List<Decl> decls(String t) {
        List<Decl> out = new ArrayList<>();
        for (PtxSplitter.Item it : PtxSplitter.split(t)) out.add(decl(t.substring(it.start(), it.end())));
        return out;
    }

    private static Decl decl(String text) {
        String s = stripComments(text).strip();
        List<String> words = new ArrayList<>();
        Matcher w = WORD.matcher(s);
        while (w.find()) words.add(w.group());
        Link link = Link.INTERNAL;
        int i = 0;
        for (; i < words.size(); i++) {
            String x = words.get(i);
            if (x.equals(".extern")) link = Link.EXTERN;
            else if (x.equals(".visible") && link != Link.EXTERN) link = Link.STRONG;
            else if ((x.equals(".weak") || x.equals(".common")) && link != Link.EXTERN) link = Link.WEAK;
            else break;
        }
        if (i >= words.size()) return new Decl(text, false, false, Link.NONE, null, false);
        String kw = words.get(i);
        boolean body = s.endsWith("}");
        if (kw.equals(".entry") || kw.equals(".func")) {
            int j = i + 1;
            if (j < words.size() && words.get(j).equals("(")) {
                while (j < words.size() && !words.get(j).equals(")")) j++;
                j++;
            }
            if (j >= words.size()) return new Decl(text, false, false, Link.NONE, null, false);
            // An entry is always a definition the host names: treat it as strong when it has a body.
            Link l = kw.equals(".entry") && link == Link.INTERNAL ? Link.STRONG : link;
            return new Decl(text, true, body, l, words.get(j), false);
        }
        if (kw.equals(".global") || kw.equals(".const") || kw.equals(".shared")) {
            for (int j = i + 1; j < words.size(); j++) {
                String x = words.get(j);
                if (x.startsWith(".") || Character.isDigit(x.charAt(0))) continue;
                if (PtxSplitter.identStart(x.charAt(0))) return new Decl(text, false, false, link, x, kw.equals(".shared"));
                break;
            }
        }
        return new Decl(text, false, false, Link.NONE, null, false);
    }
}
