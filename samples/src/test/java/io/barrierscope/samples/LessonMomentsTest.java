package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.Breakpoint;
import io.barrierscope.trace.TimeTravel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Keeps the lessons honest: every moment a lesson points at ({@code [text](break:SPEC)}, see
 * docs/lessons.md) is a breakpoint the engine accepts for that sample's kernel, and it happens in
 * a run of the sample (round-robin, seed 0, as the window opens it), so clicking it in the window
 * always stops somewhere.
 */
class LessonMomentsTest {
    /** A moment link: {@code [label](break:SPEC)}; the spec runs to the closing parenthesis. */
    static final Pattern MOMENT = Pattern.compile("\\[([^\\]]*)\\]\\(\\s*break:([^)\\s]+)\\s*\\)");

    record Moment(String sample, String label, String spec) {
        @Override
        public String toString() { return sample + " [" + spec + "]"; }
    }

    static List<Moment> moments() throws IOException {
        List<Moment> out = new ArrayList<>();
        for (Path launch : SampleRuns.all()) {
            Path lesson = launch.resolveSibling("lesson.md");
            if (!Files.isRegularFile(lesson)) continue;
            String sample = launch.getParent().getFileName().toString();
            Matcher m = MOMENT.matcher(Files.readString(lesson));
            while (m.find()) out.add(new Moment(sample, m.group(1), m.group(2)));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("moments")
    void everyMomentIsAcceptedAndHappens(Moment moment) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch(moment.sample())).start("round-robin", 0L));
        Breakpoint bp = tt.breakpoints().add(moment.spec()); // throws with the engine's message if refused
        TimeTravel.Stop stop = tt.runForward(() -> false);
        assertEquals(TimeTravel.Reason.BREAKPOINT, stop.reason(),
                moment + " (\"" + moment.label() + "\") never happens in a round-robin run; the run ended: " + stop);
        assertNotNull(stop.hit());
        assertTrue(stop.hit().breakpoint() == bp);
    }

    @Test
    void theCourseHasMomentsInAtLeastTwelveLessons() throws IOException {
        List<Moment> all = moments();
        long lessons = all.stream().map(Moment::sample).distinct().count();
        assertTrue(lessons >= 12, "lessons with moments: " + lessons);
        for (Moment m : all) assertFalse(m.label().isBlank(), m + " has no text to click");
    }

    @Test
    void theMomentPatternReadsTheDocumentedSyntax() {
        Matcher m = MOMENT.matcher("see [`full` completes phase 0](break:mbarrier:full,phase=0) `mbarrier:full,phase=0`");
        assertTrue(m.find());
        assertEquals("mbarrier:full,phase=0", m.group(2));
        assertFalse(MOMENT.matcher("[other](../tma-pipeline/lesson.md)").find());
    }
}
