package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.cli.Main;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's trace and breakpoint options on real kernels. */
class CliTraceTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {}

    private static Result cli(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void runWithTraceWritesATraceThatReopens() {
        Path t = dir.resolve("run.bstrace");
        Result r = cli("run", SampleRuns.launch("tma-pipeline").toString(), "--policy", "random", "--seed", "4", "--trace", t.toString());
        assertEquals(Main.OK, r.code(), r.err());
        assertTrue(r.out().contains("trace: " + t), r.out());
        TimeTravel tt = TraceFile.open(t);
        assertTrue(tt.atEnd());
        assertEquals("random", tt.run().policyName());
        assertEquals(4, tt.run().seed());
    }

    @Test
    void breakpointsOnTheCommandLineReportEveryHit() {
        Result r = cli("run", SampleRuns.launch("block-reduce").toString(), "--break", "barrier,cta=0");
        assertEquals(Main.OK, r.code(), r.err());
        long hits = r.out().lines().filter(l -> l.startsWith("break [barrier,cta=0] at step ")).count();
        assertEquals(8, hits, r.out());
        assertTrue(r.out().contains("completed generation 7"), r.out());
    }

    @Test
    void aDeadlockStillExitsWithItsCodeWhenTraced() {
        Path t = dir.resolve("dl.bstrace");
        Result r = cli("run", SampleRuns.launch("mbarrier-init-count-too-high").toString(), "--trace", t.toString(), "--break", "deadlock");
        assertTrue(r.out().contains("break [deadlock]"), r.out());
        assertTrue(Files.exists(t));
        assertTrue(r.code() == Main.OK || r.code() == Main.DEADLOCK, "expect block decides: " + r.code());
    }

    @Test
    void exportWritesPerfettoJsonFromATrace() throws Exception {
        Path t = dir.resolve("p.bstrace");
        assertEquals(Main.OK, cli("run", SampleRuns.launch("mbarrier-parity-pipeline").toString(), "--trace", t.toString()).code());
        Path json = dir.resolve("p.json");
        Result r = cli("export", t.toString(), "--format", "chrome", "-o", json.toString());
        assertEquals(Main.OK, r.code(), r.err());
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertTrue(root.path("traceEvents").size() > 100);
        boolean counter = false, flow = false;
        for (var e : root.path("traceEvents")) {
            counter |= e.path("ph").asText().equals("C");
            flow |= e.path("ph").asText().equals("s");
        }
        assertTrue(counter && flow, "mbarrier counters and flow arrows");
    }

    @Test
    void exportRefusesAnUnknownFormatAndADamagedTrace() throws Exception {
        Path t = dir.resolve("q.bstrace");
        cli("run", SampleRuns.launch("block-reduce").toString(), "--trace", t.toString());
        Path json = dir.resolve("q.json");
        assertEquals(Main.BAD_INPUT, cli("export", t.toString(), "--format", "svg", "-o", json.toString()).code());
        byte[] b = Files.readAllBytes(t);
        b[40] ^= 1;
        Files.write(t, b);
        Result r = cli("export", t.toString(), "--format", "chrome", "-o", json.toString());
        assertEquals(Main.BAD_INPUT, r.code());
        assertTrue(r.err().contains("damaged"), r.err());
        assertFalse(Files.exists(json));
    }

    @Test
    void aBadBreakpointIsBadInputAndWritesNothing() {
        Path t = dir.resolve("never.bstrace");
        Result r = cli("run", SampleRuns.launch("block-reduce").toString(), "--trace", t.toString(), "--break", "mbarrier:nosuch");
        assertEquals(Main.BAD_INPUT, r.code());
        assertTrue(r.err().contains("no shared variable 'nosuch'"), r.err());
        assertFalse(Files.exists(t));
        Result r2 = cli("run", SampleRuns.launch("block-reduce").toString(), "--break", "line:zz");
        assertEquals(Main.BAD_INPUT, r2.code());
        assertTrue(r2.err().contains("'zz' is not a number"), r2.err());
    }
}
