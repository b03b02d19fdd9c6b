package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.threads.ThreadNode;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How the window's panes follow one another, on real samples with a synchronous session: source
 * panes, threads and inspection, diagnostics, deadlock, lesson and the panel shown.
 */
class DebuggerLinksTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    @Test
    void aSampleOpensOnItsLessonWithItsCudaSourceBeside() {
        vm.open(TestFiles.sample("block-reduce"));
        assertEquals(Panel.LESSON, vm.panelProperty().get().panel());
        assertTrue(vm.lesson().availableProperty().get());
        assertEquals("kernel.cu", vm.cuda().shownProperty().get().name());
        vm.step();
        int cudaLine = vm.cuda().currentLineProperty().get();
        assertTrue(cudaLine > 0);
        assertTrue(vm.threads().summaryProperty().get().startsWith("512 threads: "), vm.threads().summaryProperty().get());
        long serial = vm.panelProperty().get().serial();
        vm.reset();
        assertEquals(serial, vm.panelProperty().get().serial(), "a reset leaves the panel alone");
    }

    @Test
    void aClickInEitherSourcePaneHighlightsTheOtherOne() {
        vm.open(TestFiles.sample("block-reduce"));
        int bar = vm.source().getLines().indexOf(vm.source().getLines().stream()
                .filter(l -> l.contains("bar.sync")).findFirst().orElseThrow()) + 1;
        vm.source().clickLine(bar);
        Set<Integer> cuda = vm.cuda().linkedLinesProperty().get();
        assertEquals(1, cuda.size());
        int cudaLine = cuda.iterator().next();
        assertTrue(vm.cuda().linesProperty().get().get(cudaLine - 1).contains("__syncthreads"));
        vm.cuda().clickLine(cudaLine);
        assertTrue(vm.source().linkedLinesProperty().get().contains(bar));
        assertEquals(vm.source().linkedLinesProperty().get().stream().min(Integer::compare).orElseThrow(),
                vm.source().revealProperty().get().line());
    }

    @Test
    void choosingAThreadInspectsItAndShowsItsLine() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        ThreadNode cta1 = vm.threads().rootsProperty().get().get(1);
        ThreadNode warp2 = cta1.children().get(2);
        ThreadNode thread = warp2.children().get(5);
        vm.threads().select(thread);
        assertEquals("Registers of CTA (1,0,0) thread (69,0,0) in block_reduce", vm.registers().titleProperty().get());
        assertTrue(vm.shared().titleProperty().get().startsWith("Shared memory of CTA (1,0,0)"));
        assertEquals(Set.of(thread.ptxLine()), vm.source().linkedLinesProperty().get());
        vm.step(); // the chosen thread stays chosen while stepping, and across a reset
        assertTrue(vm.registers().titleProperty().get().contains("thread (69,0,0)"));
        vm.reset();
        assertTrue(vm.registers().titleProperty().get().contains("thread (69,0,0)"));
        assertEquals("t" + thread.slot(), vm.threads().selectedKeyProperty().get());
    }

    @Test
    void aDeadlockBringsItsExplanationForwardAndItsBoxesPointAtTheSource() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high"));
        vm.run();
        assertEquals(Panel.DEADLOCK, vm.panelProperty().get().panel());
        assertTrue(vm.deadlock().headlineProperty().get().startsWith("Deadlock: 4 blocked thread groups"));
        var waiter = vm.deadlock().graphProperty().get().nodes().get(0);
        vm.deadlock().select(waiter);
        assertEquals(Set.of(waiter.ptxLine()), vm.source().linkedLinesProperty().get());
        assertFalse(vm.cuda().linkedLinesProperty().get().isEmpty());
    }

    @Test
    void aDiagnosticGoesToItsLine() {
        vm.open(TestFiles.sample("double-bar-arrive"));
        vm.run();
        assertEquals(Panel.DIAGNOSTICS, vm.panelProperty().get().panel());
        var row = vm.diagnosticsList().rows().get(0);
        vm.diagnosticsList().activate(row);
        assertEquals(Set.of(row.ptxLine()), vm.source().linkedLinesProperty().get());
        assertEquals(row.ptxLine(), vm.source().revealProperty().get().line());
    }

    @Test
    void aCompletedRunShowsItsReportAndTheWelcomeScreenOpensSamples() {
        vm.welcome().show();
        vm.welcome().open(new io.barrierscope.app.welcome.SampleInfo(TestFiles.sample("block-reduce"), "block-reduce", ""));
        assertFalse(vm.welcome().visibleProperty().get());
        vm.run();
        assertEquals(Panel.REPORT, vm.panelProperty().get().panel());
    }
}
