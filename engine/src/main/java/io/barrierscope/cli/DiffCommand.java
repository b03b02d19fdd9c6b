package io.barrierscope.cli;

import io.barrierscope.explore.RunDiff;
import io.barrierscope.explore.RunInput;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ReportWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code diff A [B]}: runs two runs from their start and says where they part and how their
 * barriers and memory end up differing. A and B are each a trace file, a launch file (or .ptx,
 * .cu) or a sample directory (its launch.json); without B, A is compared with itself under the
 * other schedule, seed or policy given with {@code --b-...}. Exit code: 0 the runs are the same,
 * 7 they differ, 2 bad input.
 */
@Command(name = "diff", description = "Compare two runs (two traces, a launch under two schedules or seeds, or a sample and its "
        + "-fixed twin): the first step where they diverge and why, barrier and mbarrier arrivals that differ, final memory differences.")
final class DiffCommand implements Callable<Integer> {
    /** Exit code when the runs differ. */
    static final int DIFFERENT = 7;
    /** Barrier and mbarrier differences printed (the report has them all). */
    static final int SHOWN = 12;

    @Parameters(index = "0", paramLabel = "A", description = "trace file, launch file (.json, .ptx, .cu) or sample directory")
    Path a;

    @Parameters(index = "1", arity = "0..1", paramLabel = "B", description = "the same kinds (default: A again)")
    Path b;

    @Option(names = "--schedule", paramLabel = "S", description = "schedule of both runs (launch inputs)")
    String schedule;
    @Option(names = "--a-schedule", paramLabel = "S", description = "schedule of run A (as printed by explore)")
    String aSchedule;
    @Option(names = "--b-schedule", paramLabel = "S", description = "schedule of run B")
    String bSchedule;
    @Option(names = "--seed", paramLabel = "N", description = "seed of both runs")
    Long seed;
    @Option(names = "--a-seed", paramLabel = "N", description = "seed of run A")
    Long aSeed;
    @Option(names = "--b-seed", paramLabel = "N", description = "seed of run B")
    Long bSeed;
    @Option(names = "--policy", paramLabel = "P", description = "policy of both runs: round-robin, random or adversarial")
    String policy;
    @Option(names = "--a-policy", paramLabel = "P", description = "policy of run A")
    String aPolicy;
    @Option(names = "--b-policy", paramLabel = "P", description = "policy of run B")
    String bPolicy;
    @Option(names = "--max-steps", paramLabel = "N", description = "warp-step budget of each run (default: each launch's)")
    Long maxSteps;
    @Option(names = "--report", paramLabel = "R.json", description = "write the comparison as JSON here")
    Path report;

    @Option(names = "--progress", description = "show how far opening a trace has come on stderr (shown anyway when it is a terminal)")
    boolean progress;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (maxSteps != null && maxSteps < 1) throw new BadInputException("error: --max-steps must be at least 1");
        Path bPath = b != null ? b : a;
        // An empty name was read as the current folder ("./launch.json: no such launch file").
        for (Path in : new Path[] {a, bPath}) {
            if (in.toString().isEmpty()) throw new BadInputException("error: " + (in == a ? "A" : "B") + " is an empty name; name a launch, trace, PTX file or sample folder");
        }
        // An option for both runs that each run's own option overrides would be ignored: refused, not dropped.
        overridden("--schedule", schedule, aSchedule, bSchedule);
        overridden("--seed", seed, aSeed, bSeed);
        overridden("--policy", policy, aPolicy, bPolicy);
        // Refused before the runs, not after them: a folder, a device, an empty name, a file as its folder.
        if (report != null) io.barrierscope.launch.AtomicFiles.check(report);
        PrintWriter err = spec.commandLine().getErr();
        LaunchedRun ra = open(a, pick(aSchedule, schedule), pick(aSeed, seed), pick(aPolicy, policy), "A", err);
        LaunchedRun rb = open(bPath, pick(bSchedule, schedule), pick(bSeed, seed), pick(bPolicy, policy), "B", err);
        OutputPaths.notAnInput("--report", report, OutputPaths.all(a, bPath, OutputPaths.inputsOf(ra.spec()), OutputPaths.inputsOf(rb.spec())));
        long budget = maxSteps != null ? maxSteps : Math.max(ra.maxSteps(), rb.maxSteps());
        RunDiff.Result r = RunDiff.compare(ra, rb, budget);
        out.println("A: " + a + describe(aSchedule, schedule, aSeed, seed, aPolicy, policy) + " -> " + r.outcomeA() + " after " + r.stepsA()
                + " warp steps");
        out.println("B: " + bPath + describe(bSchedule, schedule, bSeed, seed, bPolicy, policy) + " -> " + r.outcomeB() + " after "
                + r.stepsB() + " warp steps");
        if (r.same()) out.println("the runs are the same: every warp step, barrier arrival and final buffer");
        if (r.divergence() != null) out.println("first divergence at step " + r.divergence().step() + ": " + r.divergence().why());
        int shown = 0;
        for (RunDiff.SyncDifference d : r.sync()) {
            if (shown++ == SHOWN) {
                out.println("  ... " + (r.syncDiffering() - SHOWN) + " more generations or phases differ" + (report == null ? ""
                        : r.syncDiffering() > r.sync().size() ? " (the first " + r.sync().size() + " in the report)" : " (all in the report)"));
                break;
            }
            String what = d.object().startsWith("mbarrier") ? " phase " : " generation ";
            out.println("  " + d.object() + what + d.generation() + ": A " + d.a() + "; B " + d.b());
        }
        if (r.syncNote() != null) out.println("note: " + r.syncNote());
        for (RunDiff.BufferDifference d : r.memory()) {
            StringBuilder sb = new StringBuilder("  buffer " + d.buffer() + ": ");
            if (d.differing() >= 0) sb.append(d.differing()).append(" elements differ");
            if (d.note() != null) sb.append(d.differing() >= 0 ? "; " : "").append(d.note());
            for (Object[] e : d.first()) sb.append("; [").append(e[0]).append("] A ").append(e[1]).append(" B ").append(e[2]);
            out.println(sb);
        }
        if (report != null) ReportWriter.writeAtomically(report, json(r, bPath));
        return r.same() ? Main.OK : DIFFERENT;
    }

    private static void overridden(String option, Object both, Object a, Object b) {
        if (both != null && a != null && b != null) {
            throw new BadInputException("error: " + option + " would apply to neither run: --a-" + option.substring(2) + " and --b-"
                    + option.substring(2) + " are both given; drop one of the three");
        }
    }

    private static <T> T pick(T own, T both) { return own != null ? own : both; }

    private static String describe(String s, String s2, Long seed, Long seed2, String p, String p2) {
        StringBuilder sb = new StringBuilder();
        if (pick(s, s2) != null) sb.append(" schedule ").append(pick(s, s2));
        if (pick(p, p2) != null) sb.append(" policy ").append(pick(p, p2));
        if (pick(seed, seed2) != null) sb.append(" seed ").append(pick(seed, seed2));
        return sb.toString();
    }

    /** A fresh run of {@code input}: a trace's launch under its policy and seed, or a launch under what is asked. */
    private LaunchedRun open(Path input, String schedule, Long seed, String policy, String which, PrintWriter err) {
        ProgressLine p = ProgressLine.forOpening(input, err, progress);
        try {
            return RunInput.open(input, schedule, seed, policy, which, p.cancellation());
        } finally {
            p.done();
        }
    }

    private Map<String, Object> json(RunDiff.Result r, Path bPath) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reportVersion", ReportWriter.VERSION);
        m.put("command", "diff");
        m.put("a", a.toString());
        m.put("b", bPath.toString());
        m.put("same", r.same());
        m.put("outcomeA", r.outcomeA());
        m.put("outcomeB", r.outcomeB());
        m.put("stepsA", r.stepsA());
        m.put("stepsB", r.stepsB());
        if (r.divergence() == null) {
            m.put("divergence", null);
        } else {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("step", r.divergence().step());
            d.put("why", r.divergence().why());
            d.put("a", step(r.divergence().a()));
            d.put("b", step(r.divergence().b()));
            d.put("decisionsA", r.divergence().decisionsA());
            d.put("decisionsB", r.divergence().decisionsB());
            m.put("divergence", d);
        }
        List<Object> sync = new ArrayList<>();
        for (RunDiff.SyncDifference s : r.sync()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("object", s.object());
            d.put("generation", s.generation());
            d.put("a", s.a());
            d.put("b", s.b());
            sync.add(d);
        }
        m.put("sync", sync);
        m.put("syncDiffering", r.syncDiffering());
        m.put("syncNote", r.syncNote());
        List<Object> mem = new ArrayList<>();
        for (RunDiff.BufferDifference b2 : r.memory()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("buffer", b2.buffer());
            d.put("differing", b2.differing());
            d.put("note", b2.note());
            List<Object> first = new ArrayList<>();
            for (Object[] e : b2.first()) first.add(Map.of("index", e[0], "a", e[1], "b", e[2]));
            d.put("first", first);
            mem.add(d);
        }
        m.put("memory", mem);
        return m;
    }

    private static Object step(RunDiff.Step s) {
        if (s == null) return null;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("step", s.step());
        d.put("warp", s.warp());
        d.put("pc", s.pc());
        d.put("line", s.line());
        d.put("instruction", s.insn());
        d.put("group", s.group());
        d.put("active", s.active());
        return d;
    }
}
