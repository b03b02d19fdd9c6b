package io.barrierscope.app.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.SessionRecorder;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnosticsViewModelTest {
    @Test
    void everyDiagnosticWithItsCodeMessageAndPlaces() {
        Snapshot end = SessionRecorder.open("double-bar-arrive").runToEnd();
        assertEquals(Outcome.DIAGNOSED, end.outcome());
        DiagnosticsViewModel vm = new DiagnosticsViewModel();
        vm.update(end.diagnostics());
        assertEquals("Diagnostics (1)", vm.titleProperty().get());
        DiagnosticsViewModel.Row r = vm.rows().get(0);
        assertEquals("barrier-over-arrival", r.code());
        assertEquals("error", r.severity());
        assertTrue(r.message().contains("arrived twice"), r.message());
        assertEquals("PTX " + r.ptxLine() + ", kernel.cu:46:5", r.locations());
        assertEquals(end.diagnostics().get(0).step(), r.step());
        List<DiagnosticsViewModel.Row> went = new ArrayList<>();
        vm.setOnActivate(went::add);
        vm.activate(r);
        assertEquals(List.of(r), went);
        vm.clear();
        assertEquals("Diagnostics", vm.titleProperty().get());
        assertTrue(vm.rows().isEmpty());
    }
}
