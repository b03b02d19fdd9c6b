package io.barrierscope.app;

import io.barrierscope.app.debugger.DebuggerView;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.explore.ExploreRunner;
import io.barrierscope.app.files.RecentFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.welcome.SampleCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * The debugger window. Arguments: {@code [gui] [FILE]} where FILE is a launch file, a trace
 * ({@code .bstrace}), or a bare {@code .ptx} or {@code .cu}, for which the window asks how to
 * launch it as File > Open does (README, "Command line"); with no FILE the bundled sample opens (see
 * {@link Locations#startupFile}) behind the welcome screen.
 */
public final class BarrierScopeApp extends Application {
    private DebuggerViewModel vm;

    @Override
    public void start(Stage stage) {
        ErrorDialog.install(stage);
        Path cwd = Path.of("").toAbsolutePath();
        Path code = Locations.codeLocation();
        List<Path> samples = Locations.repoRoot(cwd, code).map(Locations::samplesInCourseOrder).orElse(List.of());

        vm = new DebuggerViewModel(listener -> DebugSession.withWorkerThread(Platform::runLater, listener),
                RecentFiles.storedIn(RecentFiles.defaultStore()), new ExploreRunner(Platform::runLater));
        DebuggerView view = new DebuggerView(vm, SampleCatalog.read(samples));
        view.setBrowser(url -> getHostServices().showDocument(url));
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.titleProperty().bind(vm.titleProperty());
        stage.setScene(scene);
        stage.show();

        List<String> args = getParameters().getRaw();
        Optional<Path> file = Locations.startupFile(args, cwd, code);
        // After the window is up: a bare .ptx or .cu asks for its launch in a dialog over it.
        Platform.runLater(() -> view.openAtStartup(file.orElse(null), Locations.hasFileArgument(args)));
    }

    @Override
    public void stop() {
        if (vm != null) vm.close();
    }
}
