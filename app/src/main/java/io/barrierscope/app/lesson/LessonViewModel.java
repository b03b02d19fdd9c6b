package io.barrierscope.app.lesson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The lesson of the open sample, parsed into blocks for the view to render. A link to another
 * sample's lesson ({@code ../other/lesson.md}) opens that sample.
 *
 * <p>A link whose target is {@code break:SPEC} is a <em>moment</em>: a place in the run the
 * lesson points at, named by a breakpoint as the engine reads them ({@code KIND[:ARG][,KEY=VALUE]...},
 * docs/time-travel.md), e.g. {@code [full completes phase 0](break:mbarrier:full,phase=0)}.
 * Following one asks the window to show that moment (set the breakpoint, run to its hit). The
 * window checks every moment against the open kernel; those the engine refuses carry its message
 * and are not followed.
 */
public final class LessonViewModel {
    /** The link target prefix that makes a link a moment. */
    public static final String MOMENT_SCHEME = "break:";

    /** A moment of the lesson: its number (1-based, in reading order), its link text and its breakpoint. */
    public record Moment(int number, String label, String spec) {}

    private final ReadOnlyObjectWrapper<List<Markdown.Block>> blocks = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<List<Moment>> moments = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<Map<String, String>> refused = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper(false);
    private Path lessonFile;
    private Consumer<Path> onOpen = p -> {};
    private Consumer<String> onMoment = s -> {};

    /** Shows a lesson (null: there is none). */
    public void load(Path file, String text) {
        lessonFile = file;
        refused.set(Map.of()); // until the window has checked the new lesson's moments
        List<Markdown.Block> parsed = text == null ? List.of() : Markdown.parse(text);
        moments.set(moments(parsed));
        blocks.set(parsed);
        available.set(text != null);
    }

    /**
     * Follows a link: a moment ({@code break:SPEC}) is shown; a relative link to a lesson or
     * launch file of another sample opens that sample's launch file. Returns false for links it
     * does not follow (web addresses, refused moments).
     */
    public boolean follow(String url) {
        String spec = momentSpec(url);
        if (spec != null) return showMoment(spec);
        Path target = launchFileOf(lessonFile, url);
        if (target == null) return false;
        onOpen.accept(target);
        return true;
    }

    /** Asks the window to show a moment; false (and nothing happens) if the engine refused its breakpoint. */
    public boolean showMoment(String spec) {
        if (spec == null || spec.isBlank() || refusal(spec) != null) return false;
        onMoment.accept(spec.strip());
        return true;
    }

    /** The breakpoint spec of a moment link ({@code break:SPEC}), or null for any other link. */
    public static String momentSpec(String url) {
        if (url == null) return null;
        String u = url.strip();
        if (!u.toLowerCase(Locale.ROOT).startsWith(MOMENT_SCHEME)) return null;
        String spec = u.substring(MOMENT_SCHEME.length()).strip();
        return spec.isEmpty() ? null : spec;
    }

    /** The moments of a parsed lesson, in reading order (headings, paragraphs, list items, quotes, tables). */
    public static List<Moment> moments(List<Markdown.Block> blocks) {
        List<Moment> out = new ArrayList<>();
        for (Markdown.Block b : blocks) {
            for (List<Markdown.Span> spans : spansOf(b)) {
                for (Markdown.Span s : spans) {
                    String spec = s.kind() == Markdown.SpanKind.LINK ? momentSpec(s.url()) : null;
                    if (spec != null) out.add(new Moment(out.size() + 1, s.text().strip(), spec));
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<List<Markdown.Span>> spansOf(Markdown.Block b) {
        if (b instanceof Markdown.Heading h) return List.of(h.spans());
        if (b instanceof Markdown.Paragraph p) return List.of(p.spans());
        if (b instanceof Markdown.Item i) return List.of(i.spans());
        if (b instanceof Markdown.Quote q) return List.of(q.spans());
        if (b instanceof Markdown.Table t) {
            List<List<Markdown.Span>> all = new ArrayList<>(t.header());
            t.rows().forEach(all::addAll);
            return all;
        }
        return List.of();
    }

    /** The distinct breakpoint specs of the lesson's moments, for the window to check against the kernel. */
    public List<String> momentSpecs() {
        LinkedHashSet<String> specs = new LinkedHashSet<>();
        for (Moment m : moments.get()) specs.add(m.spec());
        return List.copyOf(specs);
    }

    /** The window's verdict on the moments: each refused spec with the engine's message (accepted ones are absent). */
    public void setRefused(Map<String, String> refusals) {
        refused.set(refusals == null ? Map.of() : Map.copyOf(refusals));
    }

    /** Why the engine refuses a moment's breakpoint for this kernel, or null if it accepts it (or has not been asked). */
    public String refusal(String spec) {
        return spec == null ? null : refused.get().get(spec.strip());
    }

    /** The launch file a relative link points at (its lesson's folder), or null. */
    static Path launchFileOf(Path lesson, String url) {
        if (lesson == null || url == null || url.contains("://") || url.startsWith("#") || lesson.getParent() == null) return null;
        if (momentSpec(url) != null) return null;
        String path = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        if (path.isEmpty()) return null;
        Path target = lesson.getParent().resolve(path).normalize();
        Path dir = Files.isDirectory(target) ? target : target.getParent();
        Path launch = dir == null ? null : dir.resolve("launch.json");
        return launch != null && Files.isRegularFile(launch) ? launch : null;
    }

    public void setOnOpen(Consumer<Path> action) { onOpen = action == null ? p -> {} : action; }

    /** What showing a moment does (the window: set the breakpoint and run to its hit). */
    public void setOnMoment(Consumer<String> action) { onMoment = action == null ? s -> {} : action; }

    public ReadOnlyObjectProperty<List<Markdown.Block>> blocksProperty() { return blocks.getReadOnlyProperty(); }
    /** The lesson's moments in reading order; set before the blocks, so a view rendering the blocks sees them. */
    public ReadOnlyObjectProperty<List<Moment>> momentsProperty() { return moments.getReadOnlyProperty(); }
    /** Refused moment specs with the engine's message. */
    public ReadOnlyObjectProperty<Map<String, String>> refusedProperty() { return refused.getReadOnlyProperty(); }
    /** Whether the open file has a lesson. */
    public ReadOnlyBooleanProperty availableProperty() { return available.getReadOnlyProperty(); }
}
