package io.barrierscope.launch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.barrierscope.check.Deadlock;
import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.PrintfLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON report of interfaces.md, built from a finished run and written atomically. */
public final class ReportWriter {
    private ReportWriter() {}

    public static Map<String, Object> report(LaunchedRun run, long wallMillis) {
        Machine m = run.machine();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("outcome", run.interpreter().outcome().jsonName());
        r.put("kernel", run.program().kernel.name());
        r.put("policy", run.interpreter().policy().name());
        r.put("seed", run.seed());
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("warpSteps", m.steps);
        stats.put("threadInstructions", m.threadInstructions);
        stats.put("virtualCycles", m.cycles);
        stats.put("wallMillis", wallMillis);
        r.put("stats", stats);
        List<Object> diags = new ArrayList<>();
        for (Diagnostic d : run.interpreter().diagnostics()) diags.add(diagnostic(m, d));
        r.put("diagnostics", diags);
        Deadlock dl = run.deadlock();
        if (dl != null) {
            Map<String, Object> dm = new LinkedHashMap<>();
            List<Object> waits = new ArrayList<>();
            for (Deadlock.Wait w : dl.waits()) {
                Map<String, Object> wm = new LinkedHashMap<>();
                wm.put("threads", w.threads());
                wm.put("on", w.on());
                wm.put("needs", w.needs());
                List<Object> miss = new ArrayList<>();
                for (Deadlock.Missing x : w.missing()) {
                    Map<String, Object> mm = new LinkedHashMap<>();
                    mm.put("threads", x.threads());
                    mm.put("state", x.state());
                    mm.put("location", x.location());
                    miss.add(mm);
                }
                wm.put("missing", miss);
                Map<String, Object> loc = new LinkedHashMap<>();
                loc.put("file", run.ptxPath().getFileName().toString());
                loc.put("line", w.ptxLine());
                loc.put("cuda", w.cudaLocation());
                wm.put("location", loc);
                waits.add(wm);
            }
            dm.put("waits", waits);
            dm.put("cycle", dl.cycle());
            dm.put("text", dl.text());
            r.put("deadlock", dm);
        }
        r.put("buffers", run.buffers());
        List<Object> out = new ArrayList<>();
        for (PrintfLine p : run.interpreter().printfLines()) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("step", p.step());
            pm.put("thread", p.thread());
            pm.put("text", p.text());
            out.add(pm);
        }
        r.put("printf", out);
        if (run.spec().expect() != null) {
            List<String> diff = run.expectDifferences();
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("met", diff.isEmpty());
            e.put("differences", diff);
            r.put("expect", e);
        }
        if (!run.spec().notes().isEmpty()) r.put("notes", run.spec().notes());
        return r;
    }

    private static Map<String, Object> diagnostic(Machine m, Diagnostic d) {
        Map<String, Object> dm = new LinkedHashMap<>();
        dm.put("code", d.code().code());
        dm.put("severity", d.severity().jsonName());
        dm.put("message", d.message());
        dm.put("step", d.step());
        List<Object> locs = new ArrayList<>();
        for (int i = 0; i < d.ptxLocations().size(); i++) {
            Map<String, Object> l = new LinkedHashMap<>();
            var p = d.ptxLocations().get(i);
            l.put("file", Path.of(p.file()).getFileName().toString());
            l.put("line", p.line());
            l.put("column", p.col());
            locs.add(l);
        }
        for (var c : d.cudaLocations()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("file", c.file());
            l.put("line", c.line());
            l.put("column", c.col());
            locs.add(l);
        }
        dm.put("locations", locs);
        List<Object> threads = new ArrayList<>();
        for (int s : d.threads()) {
            Map<String, Object> t = new LinkedHashMap<>();
            Dim3 cta = m.grid.unflatten(m.ctaOfSlot(s));
            Dim3 th = m.block.unflatten(m.tidOfSlot(s));
            t.put("cta", List.of(cta.x(), cta.y(), cta.z()));
            t.put("thread", List.of(th.x(), th.y(), th.z()));
            threads.add(t);
        }
        dm.put("threads", threads);
        dm.put("barrier", d.barrier() == null ? Map.of() : Map.of("description", d.barrier()));
        return dm;
    }

    /** Writes JSON to {@code path} through a temporary file and a rename, so a reader never sees half a file. */
    public static void writeAtomically(Path path, Object json) throws IOException {
        Path abs = path.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(tmp.toFile(), json);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
