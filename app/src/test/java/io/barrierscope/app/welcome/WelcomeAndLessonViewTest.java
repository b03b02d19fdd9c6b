package io.barrierscope.app.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The welcome screen's samples, and the lesson shown when one is opened. */
@ExtendWith(ApplicationExtension.class)
class WelcomeAndLessonViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage, "block-reduce", "tma-pipeline", "bulk-copy-pipeline");
        w.vm.welcome().show();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSampleOpensFromTheWelcomeScreenWithItsLessonAndItsLinksOpenOthers(FxRobot robot) {
        assertTrue(robot.lookup("#welcome").query().isVisible());
        ListView<SampleInfo> list = robot.lookup("#sampleList").queryAs(ListView.class);
        assertEquals(3, list.getItems().size());
        assertTrue(robot.lookup("A tree reduction held together by __syncthreads()").tryQuery().isPresent());

        robot.clickOn("tma-pipeline"); // one click opens
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(robot.lookup("#welcome").query().isVisible());
        assertEquals("tma-pipeline/launch.json — BarrierScope", w.vm.titleProperty().get());
        assertEquals("lessonTab", robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getId());
        VBox lesson = robot.lookup("#lessonContent").queryAs(VBox.class);
        TextFlow title = (TextFlow) lesson.getChildren().get(0);
        assertTrue(title.getStyleClass().contains("lesson-h1"));
        assertTrue(((Text) title.getChildren().get(0)).getText().startsWith("tma-pipeline"));
        assertTrue(lesson.getChildren().stream().anyMatch(n -> n.getStyleClass().contains("lesson-item")
                || n instanceof javafx.scene.layout.HBox), "the bullet list is rendered");

        // The lesson links to bulk-copy-pipeline: following it opens that sample.
        Node link = robot.lookup(".lesson-link").queryAll().stream()
                .filter(n -> ((Hyperlink) n).getText().equals("bulk-copy-pipeline")).findFirst().orElseThrow();
        robot.interact(() -> ((Hyperlink) link).fire());
        assertEquals("bulk-copy-pipeline/launch.json — BarrierScope", w.vm.titleProperty().get());

        // Back to the welcome screen and away again with Esc.
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.W).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#welcome").query().isVisible());
        robot.type(KeyCode.ESCAPE);
        assertFalse(robot.lookup("#welcome").query().isVisible());
    }

    @Test
    @SuppressWarnings("unchecked")
    void enterOpensTheSelectedSample(FxRobot robot) {
        ListView<SampleInfo> list = robot.lookup("#sampleList").queryAs(ListView.class);
        robot.interact(() -> {
            list.requestFocus();
            list.getSelectionModel().select(2);
        });
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(robot.lookup("#welcome").query().isVisible());
        assertEquals(list.getItems().get(2).name() + "/launch.json — BarrierScope", w.vm.titleProperty().get());
    }
}
