package io.barrierscope.launch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.barrierscope.check.Deadlock;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.PrintfLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON report (docs/report.md), built from a finished run and written atomically. Version 2:
 * a deadlock wait's "on" and "needs" and a diagnostic's "barrier" are objects of facts with a
 * "description", and locations are objects with a column (version 1, without "reportVersion",
 * had strings there).
 */
public final class ReportWriter {
    /** The "reportVersion" written: bumped when a field changes or goes (docs/report.md). */
    public static final int VERSION = 2;

    private ReportWriter() {}

    /** Elements of each buffer a report embeds unless asked for more (run --report-elements). */
    public static final int DEFAULT_ELEMENTS = 1 << 16;

    public static Map<String, Object> report(LaunchedRun run, long wallMillis) { return report(run, wallMillis, DEFAULT_ELEMENTS); }

    /**
     * The report, each buffer cut to its first {@code elements} elements; a cut buffer is named in
     * "buffersCut" with its full length, so a reader knows the list is a prefix.
     */
    public static Map<String, Object> report(LaunchedRun run, long wallMillis, int elements) {
        Machine m = run.machine();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("reportVersion", VERSION);
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
        if (run.raceDetectionStoppedAt() >= 0) {
            Map<String, Object> rd = new LinkedHashMap<>();
            rd.put("stoppedAtStep", run.raceDetectionStoppedAt());
            rd.put("note", run.raceDetectionNote());
            r.put("raceDetection", rd);
        }
        Deadlock dl = run.deadlock();
        if (dl != null) {
            Map<String, Object> dm = new LinkedHashMap<>();
            List<Object> waits = new ArrayList<>();
            for (Deadlock.Wait w : dl.waits()) waits.add(wait(run, w));
            dm.put("waits", waits);
            dm.put("cycle", dl.cycle());
            dm.put("text", dl.text());
            r.put("deadlock", dm);
        }
        r.put("buffers", run.buffers(elements));
        Map<String, Long> cut = new LinkedHashMap<>();
        run.bufferElements().forEach((k, n) -> {
            if (n > elements) cut.put(k, n);
        });
        if (!cut.isEmpty()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("shownElements", elements);
            c.put("elements", cut);
            r.put("buffersCut", c);
        }
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

    private static Map<String, Object> wait(LaunchedRun run, Deadlock.Wait w) {
        Map<String, Object> wm = new LinkedHashMap<>();
        wm.put("threads", w.threads());
        if (w.group() != null) wm.put("group", ReportFacts.group(w.group()));
        wm.put("on", w.onFacts() != null ? ReportFacts.barrier(w.onFacts()) : Map.of("description", w.on()));
        wm.put("needs", ReportFacts.needs(w.needsFacts(), w.needs()));
        List<Object> miss = new ArrayList<>();
        for (Deadlock.Missing x : w.missing()) {
            Map<String, Object> mm = new LinkedHashMap<>();
            mm.put("threads", x.threads());
            mm.put("state", x.state());
            if (x.status() != null) mm.put("status", x.status());
            if (x.group() != null) mm.put("group", ReportFacts.group(x.group()));
            if (x.place() != null) mm.put("location", ReportFacts.place(x.place()));
            miss.add(mm);
        }
        wm.put("missing", miss);
        if (w.place() != null) {
            wm.put("location", ReportFacts.place(w.place()));
        } else {
            Map<String, Object> loc = new LinkedHashMap<>();
            loc.put("file", run.ptxPath().getFileName().toString());
            loc.put("line", w.ptxLine());
            wm.put("location", loc);
        }
        return wm;
    }

    private static Map<String, Object> diagnostic(Machine m, Diagnostic d) {
        Map<String, Object> dm = new LinkedHashMap<>();
        dm.put("code", d.code().code());
        dm.put("severity", d.severity().jsonName());
        dm.put("message", d.message());
        dm.put("step", d.step());
        List<Object> locs = new ArrayList<>();
        for (var p : d.ptxLocations()) locs.add(ReportFacts.ptx(p));
        for (var c : d.cudaLocations()) locs.add(ReportFacts.cuda(c));
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
        dm.put("barrier", d.barrierRef() == null ? Map.of() : ReportFacts.barrier(d.barrierRef()));
        return dm;
    }

    /** Writes JSON to {@code path} through a temporary file and a rename, so a reader never sees half a file. */
    public static void writeAtomically(Path path, Object json) throws IOException {
        AtomicFiles.write(path, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(json));
    }
}
