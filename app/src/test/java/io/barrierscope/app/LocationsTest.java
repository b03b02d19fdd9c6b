package io.barrierscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationsTest {
    @TempDir
    Path tmp;

    private Path repo() throws IOException {
        Path repo = tmp.resolve("repo");
        for (String s : List.of("block-reduce", "warp-shuffle")) {
            Files.createDirectories(repo.resolve("samples").resolve(s));
            Files.writeString(repo.resolve("samples").resolve(s).resolve("launch.json"), "{}");
        }
        Files.createDirectories(repo.resolve("samples/no-launch"));
        Files.createDirectories(repo.resolve("app/target/classes"));
        return repo;
    }

    @Test
    void argumentWinsAndIsResolvedAgainstTheCurrentDirectory() throws IOException {
        Path repo = repo();
        Optional<Path> f = Locations.startupFile(List.of("gui", "x/k.ptx"), tmp, repo);
        assertEquals(Optional.of(tmp.resolve("x/k.ptx")), f);
    }

    @Test
    void withoutArgumentsTheSampleIsFoundFromTheCurrentDirectory() throws IOException {
        Path repo = repo();
        assertEquals(Optional.of(repo.resolve(Locations.DEFAULT_SAMPLE)),
                Locations.startupFile(List.of(), repo, null));
    }

    @Test
    void elseByWalkingUpFromTheCodeLocation() throws IOException {
        Path repo = repo();
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        assertEquals(Optional.of(repo.resolve(Locations.DEFAULT_SAMPLE)),
                Locations.startupFile(List.of("gui"), elsewhere, repo.resolve("app/target/classes")));
    }

    @Test
    void nothingWhenNoSampleAnywhere() {
        assertTrue(Locations.startupFile(List.of(), tmp, tmp).isEmpty());
    }

    @Test
    void samplesAreTheFoldersWithALaunchFileInNameOrder() throws IOException {
        Path repo = repo();
        assertEquals(List.of(repo.resolve("samples/block-reduce/launch.json"), repo.resolve("samples/warp-shuffle/launch.json")),
                Locations.samples(repo));
    }

    @Test
    void shortNameIsFolderAndFile() {
        assertEquals("block-reduce/launch.json", Locations.shortName(Path.of("/a/samples/block-reduce/launch.json")));
        assertEquals("k.ptx", Locations.shortName(Path.of("k.ptx")));
    }
    @Test
    void samplesFollowTheCourseOrderOfTheLessonsPageThenTheRestByName() throws IOException {
        Path repo = tmp.resolve("course");
        for (String n : List.of("a-bug", "a-bug-fixed", "intro", "later", "z-extra", "m-extra", "m-extra-fixed")) {
            Files.createDirectories(repo.resolve("samples/" + n));
            Files.writeString(repo.resolve("samples/" + n + "/launch.json"), "{}");
        }
        Files.createDirectories(repo.resolve("docs"));
        Files.writeString(repo.resolve("docs/lessons.md"), "# Lessons\n- [`intro`](../samples/intro/lesson.md): first\n"
                + "- [`later`](../samples/later/lesson.md): then\n"
                + "- [`a-bug`](../samples/a-bug/lesson.md): a bug (fixed: [`a-bug-fixed`](../samples/a-bug-fixed/lesson.md))\n");
        List<String> names = Locations.samplesInCourseOrder(repo).stream().map(p -> p.getParent().getFileName().toString()).toList();
        assertEquals(List.of("intro", "later", "a-bug", "a-bug-fixed", "m-extra", "m-extra-fixed", "z-extra"), names);
    }

    @Test
    void theBundledSamplesStartWithTheFirstLessonAndPutEachBugBeforeItsFix() {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();
        List<String> names = Locations.samplesInCourseOrder(root).stream().map(p -> p.getParent().getFileName().toString()).toList();
        assertEquals("block-reduce", names.get(0), "the course starts with block-reduce");
        assertEquals(Locations.samples(root).size(), names.size(), "every sample, once");
        for (String n : names) {
            if (n.endsWith("-fixed") && names.contains(n.substring(0, n.length() - 6))) {
                assertEquals(names.indexOf(n.substring(0, n.length() - 6)) + 1, names.indexOf(n), n + " right after its bug");
            }
        }
    }
}
