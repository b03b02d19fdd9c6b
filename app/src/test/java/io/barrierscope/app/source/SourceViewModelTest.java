package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.diag.Severity;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SourceViewModelTest {
    private final SourceViewModel vm = new SourceViewModel();

    @Test
    void loadShowsTheTextAndClearsMarkers() {
        vm.update(Snapshots.at(Outcome.RUNNING, 3, 2, Map.of(2, 1), List.of(), List.of()));
        vm.load(new OpenedFile(Path.of("k.ptx"), "k.ptx", List.of("a", "b")));
        assertEquals(List.of("a", "b"), vm.getLines());
        assertEquals("k.ptx", vm.sourceNameProperty().get());
        assertEquals(0, vm.getCurrentLine());
        assertEquals("", vm.warpBadge(2));
    }

    @Test
    void snapshotMovesTheCurrentLineAndCountsWarps() {
        vm.load(new OpenedFile(Path.of("k.ptx"), "k.ptx", List.of("a", "b", "c")));
        vm.update(Snapshots.at(Outcome.RUNNING, 1, 3, Map.of(3, 1, 1, 4), List.of(), List.of()));
        assertEquals(3, vm.getCurrentLine());
        assertEquals("1 warp", vm.warpBadge(3));
        assertEquals("4 warps", vm.warpBadge(1));
        assertEquals("", vm.warpBadge(2));
    }

    @Test
    void diagnosticLinesAreThoseInThisPtxFile() {
        vm.load(new OpenedFile(Path.of("k.ptx"), "kernel.ptx", List.of("a", "b", "c")));
        Diagnostic d = new Diagnostic(DiagnosticCode.TRAP, Severity.ERROR, "trap", 4,
                List.of(new SourcePos("samples/x/kernel.ptx", 2, 1), new SourcePos("other.ptx", 3, 1)),
                List.of(), List.of(0), null);
        vm.update(Snapshots.at(Outcome.DIAGNOSED, 5, 2, Map.of(), List.of(), List.of(d)));
        assertEquals(Set.of(2), vm.diagnosticLinesProperty().get());
    }
}
