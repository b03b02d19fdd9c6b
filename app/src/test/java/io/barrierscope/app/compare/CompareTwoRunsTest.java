package io.barrierscope.app.compare;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File > "Compare two runs…" once the files are chosen (the native dialog is not under test): inline executors. */
class CompareTwoRunsTest {
    private final CompareViewModel vm = new CompareViewModel(Runnable::run, Runnable::run);
    private final List<CompareViewModel.Side[]> opened = new ArrayList<>();

    private boolean pick(Path a, Path b) {
        return CompareViewModel.compareFiles(a, b, (x, y) -> {
            opened.add(new CompareViewModel.Side[] {x, y});
            vm.load(x, y);
        });
    }

    @Test
    void pickingASampleDirectoryAndItsFixedTwinComparesThem() {
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        Path fix = FixedTwin.of(bug).orElseThrow();
        assertTrue(pick(bug.getParent(), fix));
        assertEquals("cluster-barrier-one-partition", opened.get(0)[0].label(), "a directory is named after itself");
        assertEquals("cluster-barrier-one-partition-fixed", opened.get(0)[1].label(), "a launch.json after its sample");
        assertFalse(vm.result().same());
        assertTrue(vm.divergenceProperty().get() >= 0, vm.statusProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("The runs part at step"), vm.statusProperty().get());
    }

    @Test
    void aTraceComparesWithTheLaunchItRecorded(@TempDir Path dir) throws Exception {
        Path launch = TestFiles.sample("block-reduce");
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(launch).start());
        tt.replayTo(tt.maxSteps(), true);
        Path trace = dir.resolve("block-reduce.bstrace");
        TraceFile.write(tt, trace);
        assertTrue(pick(trace, launch));
        assertEquals("block-reduce.bstrace", vm.labelAProperty().get());
        assertTrue(vm.result().same(), vm.statusProperty().get());
    }

    @Test
    void aCancelledPickOpensNothing() {
        assertFalse(pick(TestFiles.sample("block-reduce"), null));
        assertFalse(pick(null, TestFiles.sample("block-reduce")));
        assertTrue(opened.isEmpty());
    }

    @Test
    void aBadFileIsReportedWithItsPlaceAndTheDebuggerKeepsItsSession(@TempDir Path dir) throws Exception {
        DebuggerViewModel debugger = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));
        Path open = TestFiles.sample("block-reduce");
        debugger.open(open);
        String title = debugger.titleProperty().get();
        Path bad = dir.resolve("launch.json");
        Files.writeString(bad, "{\n  \"kernel\": \"kernel.ptx\",\n  \"grid\": [1, 1, 1\n");
        assertTrue(pick(bad, open));
        String status = vm.statusProperty().get();
        assertTrue(status.startsWith("Cannot compare: "), status);
        assertTrue(status.matches(".*launch\\.json:\\d+:\\d+.*"), "file:line:col: " + status);
        assertEquals(open, debugger.openFile(), "the debugger's session is not touched");
        assertEquals(title, debugger.titleProperty().get());
    }
}
