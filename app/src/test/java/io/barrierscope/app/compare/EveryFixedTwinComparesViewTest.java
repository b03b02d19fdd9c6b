package io.barrierscope.app.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.Locations;
import io.barrierscope.app.debugger.DebuggerView;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.welcome.SampleCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.Scene;
import io.barrierscope.app.welcome.SampleInfo;
import java.util.Set;
import java.util.TreeSet;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Menu;
import org.testfx.util.WaitForAsyncUtils;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Every bug sample with a {@code -fixed} twin in the repository gets "Compare with the fix", in the
 * window as the application builds it (every sample, in course order): the twins are enumerated from
 * the samples folder itself, not from a list kept in the test.
 */
@ExtendWith(ApplicationExtension.class)
class EveryFixedTwinComparesViewTest {
    private static final Path ROOT = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();

    @Start
    void start(Stage stage) {
        DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));
        DebuggerView view = new DebuggerView(vm, SampleCatalog.read(Locations.samplesInCourseOrder(ROOT)));
        stage.setScene(new Scene(view.root(), 1280, 800));
        stage.show();
        vm.welcome().show();
    }

    /** Folders X of samples/ with a sibling X-fixed, both holding a launch.json, sorted by name. */
    private static List<String> bugsWithTwins() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT.resolve("samples"))) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("launch.json")))
                    .map(d -> d.getFileName().toString())
                    .filter(n -> !n.endsWith(FixedTwin.SUFFIX))
                    .filter(n -> Files.isRegularFile(ROOT.resolve("samples").resolve(n + FixedTwin.SUFFIX).resolve("launch.json")))
                    .sorted().toList();
        }
    }

    @Test
    void everyBugSampleWithAFixedTwinIsInTheSamplesMenusCompareWithTheFix(FxRobot robot) throws IOException {
        List<String> bugs = bugsWithTwins();
        assertTrue(bugs.size() >= 20, "the repository has its bug samples: " + bugs);
        MenuBar bar = robot.lookup(".menu-bar").queryAs(MenuBar.class);
        Menu samples = bar.getMenus().stream().filter(m -> m.getText().equals("Samples")).findFirst().orElseThrow();
        Menu compare = (Menu) samples.getItems().stream().filter(i -> "Compare with the fix".equals(i.getText())).findFirst().orElseThrow();
        assertEquals(bugs, compare.getItems().stream().map(MenuItem::getText).sorted().toList());
        for (String b : bugs) {
            Path launch = ROOT.resolve("samples").resolve(b).resolve("launch.json");
            assertEquals(ROOT.resolve("samples").resolve(b + FixedTwin.SUFFIX).resolve("launch.json").toAbsolutePath().normalize(),
                    FixedTwin.of(launch).orElseThrow(), b);
            assertFalse(FixedTwin.of(ROOT.resolve("samples").resolve(b + FixedTwin.SUFFIX).resolve("launch.json")).isPresent(),
                    b + "-fixed has no fix of its own");
        }
    }

    @Test
    void everyBugSampleWithAFixedTwinHasTheButtonOnItsWelcomeCard(FxRobot robot) throws IOException {
        // The list makes cells only for what is in view: scroll through it and note each card shown.
        @SuppressWarnings("unchecked")
        ListView<SampleInfo> list = robot.lookup("#sampleList").queryAs(ListView.class);
        Set<String> withButton = new TreeSet<>(), seen = new TreeSet<>();
        for (int i = 0; i < list.getItems().size(); i++) {
            int at = i;
            robot.interact(() -> list.scrollTo(at));
            WaitForAsyncUtils.waitForFxEvents();
            for (Node n : robot.from(list).lookup(".list-cell").queryAll()) {
                if (!(n instanceof ListCell<?> c) || c.isEmpty() || !(c.getItem() instanceof SampleInfo si) || !c.isVisible()) continue;
                seen.add(si.name());
                Node b = c.lookup(".sample-compare");
                if (b != null && b.isVisible()) withButton.add(si.name());
            }
        }
        assertEquals(list.getItems().size(), seen.size(), "every card was shown once scrolled to");
        assertEquals(new TreeSet<>(bugsWithTwins()), withButton, "the button on exactly the bug samples with a twin");
    }
}
