package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.CudaFile;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.SessionRecorder;
import io.barrierscope.app.session.SourceMap;
import io.barrierscope.diag.CudaLoc;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CudaSourceViewModelTest {
    private final CudaSourceViewModel vm = new CudaSourceViewModel();

    /** PTX lines 10 and 11 come from k.cu:3, lines 12 and 13 from a header that is not there (12 inlined at k.cu:4). */
    private static OpenedFile file() {
        SourceMap map = new SourceMap(Map.of(10, new CudaLoc("k.cu", 3, 1), 11, new CudaLoc("k.cu", 3, 9),
                12, new CudaLoc("inc/h.h", 7, 1), 13, new CudaLoc("inc/h.h", 8, 1)), Map.of(9, new CudaLoc("k.cu", 3, 1)),
                Map.of(12, new CudaLoc("k.cu", 4, 2)));
        CudaFile k = new CudaFile("k.cu", Path.of("/x/k.cu"), List.of("a", "b", "c", "d"), null, 2);
        CudaFile h = new CudaFile("inc/h.h", Path.of("/x/inc/h.h"), null, "not found", 1);
        return new OpenedFile(Path.of("/x/launch.json"), "k.ptx", List.of(), map, List.of(k, h), null, null);
    }

    @Test
    void showsTheMostUsedFileAndFollowsTheFocusedWarp() {
        vm.load(file());
        assertEquals("k.cu", vm.shownProperty().get().name());
        assertEquals(List.of("a", "b", "c", "d"), vm.linesProperty().get());
        assertEquals("", vm.messageProperty().get());
        vm.update(new CudaLoc("k.cu", 3, 9), 11);
        assertEquals(3, vm.currentLineProperty().get());
        assertEquals("followed warp: k.cu:3:9", vm.focusNoteProperty().get());
        // Into an inlined function of a header that is not there: its call site is shown.
        vm.update(new CudaLoc("inc/h.h", 7, 1), 12);
        assertEquals("k.cu", vm.shownProperty().get().name());
        assertEquals(4, vm.currentLineProperty().get());
        assertEquals("followed warp: in h.h:7, inlined at line 4", vm.focusNoteProperty().get());
        // Without a call site the pane stays, and says where the warp is.
        vm.update(new CudaLoc("inc/h.h", 8, 1), 13);
        assertEquals(0, vm.currentLineProperty().get());
        assertEquals("followed warp: inc/h.h:8:1 (file not available)", vm.focusNoteProperty().get());
        assertEquals(Set.of(3), vm.mappedLines());
    }

    @Test
    void aClickedCudaLineLinksItsPtxLinesAndAPtxLineLinksItsCudaLine() {
        vm.load(file());
        List<List<Integer>> ptx = new ArrayList<>();
        vm.setOnLineClicked(ptx::add);
        vm.clickLine(3);
        assertEquals(List.of(List.of(10, 11)), ptx);
        assertEquals(Set.of(3), vm.linkedLinesProperty().get());
        vm.showPtxLine(9); // a .loc line
        assertEquals(Set.of(3), vm.linkedLinesProperty().get());
        assertEquals(3, vm.revealProperty().get().line());
        vm.showPtxLine(12); // maps into a file that is not there
        assertEquals(Set.of(), vm.linkedLinesProperty().get());
    }

    @Test
    void saysWhenTheCudaFileIsMissing() {
        CudaFile h = new CudaFile("kernel.cu", Path.of("/y/kernel.cu"), null, "not found", 3);
        vm.load(new OpenedFile(Path.of("/y/l.json"), "k.ptx", List.of(), SourceMap.EMPTY, List.of(h), null, null));
        assertEquals("kernel.cu is not available: not found (looked for /y/kernel.cu).", vm.messageProperty().get());
        assertTrue(vm.linesProperty().get().isEmpty());
        vm.load(new OpenedFile(Path.of("/y/k.ptx"), "k.ptx", List.of()));
        assertEquals("No CUDA source: this PTX has no .loc line information (compile with nvcc -lineinfo).",
                vm.messageProperty().get());
    }

    @Test
    void onARealSampleTheFocusedLineIsTheLineOfItsLoc() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        vm.load(r.opened);
        var s = r.step(3);
        vm.update(s.focusLoc(), s.focusLine());
        assertEquals(s.focusLoc().line(), vm.currentLineProperty().get());
        assertTrue(vm.currentLineProperty().get() > 0);
    }
}
