package io.barrierscope.app.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.session.ConsoleLine;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.LaunchSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Console tab's logic on the engine's printf kernel, through the whole window's view model (no toolkit). */
class ConsoleViewModelTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));
    private final ConsoleViewModel console = vm.console();

    /** The printf kernel launched with {@code ctas} CTAs of 32 threads. */
    private void open(int ctas) {
        vm.open(TestFiles.printfPtx(), LaunchSettings.parse(Integer.toString(ctas), "32", "", "round-robin", "0"));
    }

    @Test
    void eachLineShowsItsThreadItsStepAndItsText() {
        open(2);
        vm.run();
        List<ConsoleLine> rows = List.copyOf(console.rows());
        assertEquals(3, rows.size(), rows.toString());
        assertEquals("CTA (0,0,0) thread (0,0,0)", rows.get(0).thread());
        assertEquals("debug_print: n=0 grid=2 block=32\n", rows.get(0).text());
        assertTrue(rows.stream().skip(1).anyMatch(l -> l.thread().equals("CTA (1,0,0) thread (0,0,0)")
                && l.text().equals("block 1 done\n")), rows.toString());
        for (int i = 1; i < rows.size(); i++) assertTrue(rows.get(i - 1).step() <= rows.get(i).step(), "in step order");
        assertTrue(vm.source().getLines().get(rows.get(0).ptxLine() - 1).contains("call.uni"),
                "the line of the call: " + vm.source().getLines().get(rows.get(0).ptxLine() - 1));
        assertEquals("Console (3)", console.titleProperty().get());
    }

    @Test
    void goingBackHidesTheLinesPrintedLaterAndGoingForwardShowsThemAgain() {
        open(2);
        vm.run();
        ConsoleLine last = console.rows().get(console.rows().size() - 1);
        vm.seek(last.step()); // the state before the step that printed it
        assertEquals(2, console.rows().size());
        assertTrue(console.rows().stream().allMatch(l -> l.step() < last.step()));
        assertEquals("2 lines printed up to step " + last.step() + " · 1 more later in the recording",
                console.summaryProperty().get());
        vm.seek(0);
        assertEquals(0, console.rows().size());
        assertEquals("Console", console.titleProperty().get());
        vm.seek(last.stopStep());
        assertEquals(3, console.rows().size());
    }

    @Test
    void aLargeOutputKeepsEveryLineAndTheReportSaysWhereTheRestIs() {
        open(1000);
        vm.run();
        assertEquals("completed", vm.outcomeProperty().get());
        assertEquals(1001, console.rows().size());
        assertEquals("Console (1001)", console.titleProperty().get());
        assertTrue(vm.reportProperty().get().contains("801 more: every line is in the Console tab"), vm.reportProperty().get());
    }

    @Test
    void theFilterKeepsTheLinesOfOneThreadAndSaysHowManyMatch() {
        open(12);
        vm.run();
        console.filterProperty().set("CTA (11,");
        assertEquals(1, console.rows().size());
        assertEquals("block 11 done\n", console.rows().get(0).text());
        assertEquals("1 of 13 lines match", console.summaryProperty().get());
        console.filterProperty().set("done, cta (1");
        assertEquals(3, console.rows().size(), "CTAs 1, 10 and 11");
        vm.seek(console.rows().get(1).step()); // back: the filter still applies to what is left
        assertEquals(1, console.rows().size());
        console.filterProperty().set("");
        assertTrue(console.rows().size() > 1);
    }

    @Test
    void activatingALineGoesToTheStepThatPrintedItAndSelectsItsThread() {
        open(4);
        vm.run();
        ConsoleLine done2 = console.rows().stream().filter(l -> l.text().startsWith("block 2")).findFirst().orElseThrow();
        console.activate(done2);
        assertEquals(done2.stopStep(), vm.nowProperty().get());
        assertTrue(console.rows().contains(done2), "the line stays shown: its step is done");
        assertTrue(vm.registers().titleProperty().get().startsWith("Registers of CTA (2,0,0) thread (0,0,0)"),
                vm.registers().titleProperty().get());
        assertEquals(java.util.Set.of(done2.ptxLine()), vm.source().linkedLinesProperty().get());
        assertEquals("t" + done2.slot(), vm.threads().selectedKeyProperty().get());
        assertEquals(done2.warp(), vm.timelineProperty().get().selectedWarpProperty().get());
    }

    @Test
    void aSavedTraceOpensWithTheOutputOfItsRecording(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        open(3);
        vm.run();
        java.nio.file.Path trace = tmp.resolve("printf.bstrace");
        vm.saveTrace(trace);
        vm.open(trace);
        assertEquals(4, console.rows().size(), "a trace opens at its last step: everything is printed");
        vm.reset();
        assertEquals(0, console.rows().size());
        assertEquals("Nothing printed up to step 0 · 4 lines later in the recording", console.summaryProperty().get());
    }

    @Test
    void aRerunStartsTheConsoleAfresh() {
        open(2);
        vm.run();
        vm.rerun();
        assertEquals(0, console.rows().size());
        vm.run();
        assertEquals(3, console.rows().size());
    }
}
