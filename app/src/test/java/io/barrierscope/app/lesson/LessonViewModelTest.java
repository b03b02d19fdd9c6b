package io.barrierscope.app.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Moments: lesson links to a breakpoint ({@code [text](break:SPEC)}), found in reading order and followed. */
class LessonViewModelTest {
    static final String LESSON = """
            # demo: a lesson with moments

            **What to watch.** The barrier [`bar` completes phase 0](break:mbarrier:bar,phase=0) `mbarrier:bar,phase=0`,
            then see [the other sample](../other/lesson.md) and [the spec](https://docs.nvidia.com/cuda/).

            **Moments** (click one):

            - [A consumer waits]( break:wait-false,warp=1 ) `wait-false,warp=1`: look at warp 1.
            - [The deadlock](break:deadlock) `deadlock`: the deadlock panel.

            | moment | spec |
            | --- | --- |
            | [in a table](break:barrier:0,cta=1) | `barrier:0,cta=1` |

            ```
            [not a moment in code](break:park)
            ```
            """;

    @Test
    void momentsAreTheBreakLinksInReadingOrder() {
        List<LessonViewModel.Moment> ms = LessonViewModel.moments(Markdown.parse(LESSON));
        assertEquals(List.of(
                new LessonViewModel.Moment(1, "bar completes phase 0", "mbarrier:bar,phase=0"),
                new LessonViewModel.Moment(2, "A consumer waits", "wait-false,warp=1"),
                new LessonViewModel.Moment(3, "The deadlock", "deadlock"),
                new LessonViewModel.Moment(4, "in a table", "barrier:0,cta=1")), ms);
    }

    @Test
    void momentSpecReadsOnlyTheBreakScheme() {
        assertEquals("mbarrier:full,phase=1", LessonViewModel.momentSpec("break:mbarrier:full,phase=1"));
        assertEquals("line:kernel.cu:27", LessonViewModel.momentSpec(" BREAK:line:kernel.cu:27 "));
        assertNull(LessonViewModel.momentSpec("break:"));
        assertNull(LessonViewModel.momentSpec("../block-reduce/lesson.md"));
        assertNull(LessonViewModel.momentSpec("https://example.com/break:park"));
        assertNull(LessonViewModel.momentSpec(null));
    }

    @Test
    void followingAMomentAsksTheWindowToShowItUnlessTheEngineRefusedIt(@TempDir Path dir) throws Exception {
        Path lesson = Files.writeString(dir.resolve("lesson.md"), LESSON);
        LessonViewModel vm = new LessonViewModel();
        List<String> shown = new ArrayList<>();
        List<Path> opened = new ArrayList<>();
        vm.setOnMoment(shown::add);
        vm.setOnOpen(opened::add);
        vm.load(lesson, LESSON);
        assertEquals(4, vm.momentsProperty().get().size());
        assertEquals(List.of("mbarrier:bar,phase=0", "wait-false,warp=1", "deadlock", "barrier:0,cta=1"), vm.momentSpecs());

        assertTrue(vm.follow("break:deadlock"));
        assertTrue(vm.showMoment("wait-false,warp=1"));
        assertEquals(List.of("deadlock", "wait-false,warp=1"), shown);
        assertTrue(opened.isEmpty(), "a moment never opens a file");

        vm.setRefused(Map.of("barrier:0,cta=1", "breakpoint 'barrier:0,cta=1': no such CTA"));
        assertEquals("breakpoint 'barrier:0,cta=1': no such CTA", vm.refusal("barrier:0,cta=1"));
        assertNull(vm.refusal("deadlock"));
        assertFalse(vm.follow("break:barrier:0,cta=1"));
        assertFalse(vm.showMoment(" barrier:0,cta=1 "));
        assertEquals(2, shown.size(), "a refused moment is not shown");

        // Another lesson: its moments are unchecked until the window says otherwise.
        vm.load(lesson, "# plain\n\nNo moments here.");
        assertTrue(vm.momentsProperty().get().isEmpty());
        assertTrue(vm.refusedProperty().get().isEmpty());
        vm.load(null, null);
        assertFalse(vm.availableProperty().get());
    }

    @Test
    void aMomentIsNotALinkToAnotherSample(@TempDir Path dir) throws Exception {
        Path lesson = Files.writeString(dir.resolve("lesson.md"), LESSON);
        Files.writeString(dir.resolve("launch.json"), "{}");
        assertNull(LessonViewModel.launchFileOf(lesson, "break:launch.json"));
        assertEquals(dir.resolve("launch.json"), LessonViewModel.launchFileOf(lesson, "launch.json"));
    }

    @Test
    void everyBundledLessonParsesAndItsMomentsHaveText() throws Exception {
        Path samples = io.barrierscope.app.TestFiles.sample("block-reduce").getParent().getParent();
        int withMoments = 0;
        try (var dirs = Files.list(samples)) {
            for (Path d : dirs.filter(p -> Files.isRegularFile(p.resolve("lesson.md"))).toList()) {
                List<LessonViewModel.Moment> ms = LessonViewModel.moments(Markdown.parse(Files.readString(d.resolve("lesson.md"))));
                for (LessonViewModel.Moment m : ms) assertFalse(m.label().isBlank(), d + ": " + m);
                if (!ms.isEmpty()) withMoments++;
            }
        }
        assertTrue(withMoments >= 12, "lessons with moments: " + withMoments);
    }
}
