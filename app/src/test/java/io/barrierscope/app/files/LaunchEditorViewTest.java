package io.barrierscope.app.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.files.LaunchEditorViewModel.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/** The launch editor's fields on screen: one row per kernel parameter, the fields its kind takes. */
@ExtendWith(ApplicationExtension.class)
class LaunchEditorViewTest {
    @TempDir Path dir;
    private Stage stage;

    private LaunchEditorViewModel show(FxRobot robot, Path ptx) {
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        robot.interact(() -> {
            stage = new Stage(); // a stage of its own: nothing here changes the shared primary stage
            stage.setScene(new Scene(new LaunchEditorView(vm), 900, 600));
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        return vm;
    }

    @AfterEach
    void close(FxRobot robot) {
        if (stage != null) robot.interact(stage::close);
    }

    @Test
    void fieldsWriteThroughToTheModel(FxRobot robot) throws Exception {
        Path ptx = dir.resolve("p.ptx");
        Files.copy(TestFiles.printfPtx(), ptx);
        LaunchEditorViewModel vm = show(robot, ptx);
        robot.interact(() -> {
            robot.lookup("#launchBlock").queryAs(TextField.class).setText("128");
            robot.lookup("#paramCount-debug_print_param_0").queryAs(TextField.class).setText("64");
        });
        assertEquals("128", vm.block.get());
        assertEquals("64", vm.params().get(0).count.get());
        assertTrue(robot.lookup("#param-debug_print_param_0").queryAs(Label.class).getText().contains(".u64"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPointerSwitchedToAValueShowsTheValueFieldInsteadOfTheBufferFields(FxRobot robot) throws Exception {
        Path ptx = dir.resolve("p.ptx");
        Files.copy(TestFiles.printfPtx(), ptx);
        LaunchEditorViewModel vm = show(robot, ptx);
        TextField buffer = robot.lookup("#paramBuffer-debug_print_param_1").queryAs(TextField.class);
        TextField value = robot.lookup("#paramValue-debug_print_param_1").queryAs(TextField.class);
        assertTrue(buffer.isVisible());
        assertFalse(value.isVisible());
        robot.interact(() -> robot.lookup("#paramKind-debug_print_param_1").queryAs(ComboBox.class).setValue(Kind.VALUE));
        assertEquals(Kind.VALUE, vm.params().get(1).kind.get());
        assertFalse(buffer.isVisible());
        assertTrue(value.isVisible());
        assertEquals(1, robot.lookup("#paramKind-debug_print_param_2").queryAs(ComboBox.class).getItems().size(),
                "a 32-bit parameter is a value only");
    }

    @Test
    void aTensorMapRowIsItsNote(FxRobot robot) throws Exception {
        Path ptx = dir.resolve("tma.ptx");
        Files.writeString(ptx, """
                .version 8.0
                .target sm_90a
                .address_size 64
                .visible .entry tma(.param .align 64 .b8 tmap[128])
                {
                    ret;
                }
                """);
        show(robot, ptx);
        assertTrue(robot.lookup("#paramNote-tmap").queryAs(Label.class).getText().contains("tensorMap"));
        assertFalse(robot.lookup("#paramKind-tmap").tryQuery().isPresent());
    }
}
