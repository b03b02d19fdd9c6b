package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;

/** Opening a file shows that it is loading and can be cancelled; the session shown stays usable meanwhile. */
class OpenCancelTest {
    private final ArrayDeque<Runnable> loads = new ArrayDeque<>();
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, loads::add, Runnable::run, l));

    private void finishLoads() {
        while (!loads.isEmpty()) loads.poll().run();
    }

    @Test
    void whileAFileLoadsTheShownSessionStepsAndCancelKeepsIt() {
        vm.open(TestFiles.sample("block-reduce"));
        assertTrue(vm.openingProperty().get());
        finishLoads();
        assertFalse(vm.openingProperty().get());
        String title = vm.titleProperty().get();

        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        assertTrue(vm.openingProperty().get(), "the status bar shows the load and Cancel");
        vm.step();
        assertEquals(1, vm.nowProperty().get(), "the session shown still steps");
        vm.cancelOpen();
        assertFalse(vm.openingProperty().get());
        assertTrue(vm.messageProperty().get().startsWith("Cancelled opening"), vm.messageProperty().get());
        assertTrue(vm.messageProperty().get().contains("still showing"), vm.messageProperty().get());
        finishLoads();
        assertEquals(title, vm.titleProperty().get(), "the cancelled file never replaced the session");
        assertEquals(1, vm.nowProperty().get());
    }

    @Test
    void cancellingTheFirstOpenGoesBackToTheWelcomeScreen() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.cancelOpen();
        finishLoads();
        assertFalse(vm.loadedProperty().get());
        assertTrue(vm.welcome().visibleProperty().get());
    }

    @Test
    void theStatusLineTellsHowFarATracesReplayHasCome() {
        java.nio.file.Path t = java.nio.file.Path.of("long.bstrace");
        vm.open(TestFiles.sample("block-reduce"));
        vm.openProgress(t, "replay", 8192, 50_000);
        assertEquals("Opening long.bstrace: replaying warp step 8192 of 50000 ...", vm.messageProperty().get());
        finishLoads();
        String after = vm.messageProperty().get();
        vm.openProgress(t, "replay", 12288, 50_000); // late news of an open that ended changes nothing
        assertEquals(after, vm.messageProperty().get());
    }
}
