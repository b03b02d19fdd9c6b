package io.barrierscope.app.welcome;

import io.barrierscope.app.lesson.Markdown;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundled samples with a one-line description each: the lesson's title without the
 * sample's name ("# block-reduce: a tree reduction ..." gives "A tree reduction ..."), or else
 * its first sentence. Reads only the first lines of each lesson.
 */
public final class SampleCatalog {
    private SampleCatalog() {}

    /** @param launchFiles {@code samples/NAME/launch.json} files, in the order to list them */
    public static List<SampleInfo> read(List<Path> launchFiles) {
        List<SampleInfo> out = new ArrayList<>();
        for (Path launch : launchFiles) {
            Path dir = launch.getParent();
            String name = dir == null || dir.getFileName() == null ? launch.toString() : dir.getFileName().toString();
            out.add(new SampleInfo(launch, name, dir == null ? "" : describe(name, firstLines(dir.resolve("lesson.md")))));
        }
        return List.copyOf(out);
    }

    /** The description from a lesson's first non-blank lines. */
    static String describe(String name, List<String> lines) {
        for (String line : lines) {
            String t = line.strip();
            if (t.isEmpty()) continue;
            if (t.startsWith("#")) {
                String title = Markdown.plain(Markdown.inline(t.replaceFirst("^#+\\s*", "")));
                if (title.startsWith(name + ":")) title = title.substring(name.length() + 1).strip();
                return capitalise(title);
            }
            String text = Markdown.plain(Markdown.inline(t));
            int dot = text.indexOf(". ");
            return capitalise(dot > 0 ? text.substring(0, dot + 1) : text);
        }
        return "";
    }

    private static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static List<String> firstLines(Path lesson) {
        List<String> lines = new ArrayList<>();
        if (!Files.isRegularFile(lesson)) return lines;
        try (BufferedReader r = Files.newBufferedReader(lesson, StandardCharsets.UTF_8)) {
            String l;
            while (lines.size() < 5 && (l = r.readLine()) != null) lines.add(l);
        } catch (IOException e) {
            // An unreadable lesson just means a sample without a description.
        }
        return lines;
    }
}
