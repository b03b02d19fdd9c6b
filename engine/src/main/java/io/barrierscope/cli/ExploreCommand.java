package io.barrierscope.cli;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Outcome;
import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Minimization;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.launch.ReportWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code explore}: searches schedules for deadlocks, diagnostics and step-limit hangs and prints
 * each finding once with the command that replays it. Exit code: 0 no finding, 4 any diagnostic
 * finding (UB, fault, race), else 3 any deadlock, else 5 step-limit only; 2 bad input. An expect
 * block in the launch file is not checked (it describes one run, not all of them).
 */
@Command(name = "explore", description = "Search schedules (warp interleavings, convergence groups, async completion "
        + "orders, try_wait early returns) for deadlocks, races, UB and hangs; print a replayable schedule per finding.")
final class ExploreCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "LAUNCH", description = "launch file (.json), .ptx, or .cu (compiled with nvcc when installed)")
    Path launch;

    @Option(names = "--schedules", paramLabel = "N", description = "schedule budget (default ${DEFAULT-VALUE})", defaultValue = "1000")
    long schedules;

    @Option(names = "--time-limit", paramLabel = "S", description = "seconds, checked between schedules (default ${DEFAULT-VALUE}; 0: none)",
            defaultValue = "60")
    double timeLimit;

    @Option(names = "--seed", paramLabel = "N", description = "seed of the random phase (default ${DEFAULT-VALUE})", defaultValue = "0")
    long seed;

    // The bound counts every non-default decision (a deviation), not only preemptions; the old name stays an alias for scripts.
    @Option(names = {"--max-deviations", "--max-preemptions"}, paramLabel = "K", description = "deviation bound of the systematic "
            + "phase: at most K non-default decisions (warp switches, convergence groups, copy latencies, early try_wait) per "
            + "schedule (default ${DEFAULT-VALUE}; --max-preemptions is the old name)", defaultValue = "3")
    int maxDeviations;

    @Option(names = "--max-steps", paramLabel = "N", description = "warp-step budget of each schedule (default: the launch file's)")
    Long maxSteps;

    @Option(names = "--no-symmetry", description = "also explore warps symmetric to one already explored at a decision point "
            + "(exhaustive within the bound; slower)")
    boolean noSymmetry;

    @Option(names = "--no-por", description = "also run schedules that only reorder independent steps of one already run "
            + "(turns the partial-order reduction off; slower)")
    boolean noPor;

    @Option(names = "--no-source-sets", description = "partial-order reduction by sleep sets alone, not bounded: fork every "
            + "alternative not asleep (docs/explore.md, source sets); a completed bound states only what the reduced search ran")
    boolean noSourceSets;

    @Option(names = "--source-sets", description = "partial-order reduction by source sets over sleep sets (fewer schedules "
            + "within a bound, but a completed bound states only what the reduced search ran; docs/explore.md, within a bound)")
    boolean sourceSets;

    @Option(names = "--bounded-por", description = "the default: partial-order reduction sound within the deviation bound "
            + "(bounded sleep sets), so a completed bound K covers every interleaving with at most K deviations up to "
            + "equivalence (docs/explore.md, sleep sets within the bound); kept as an alias")
    boolean boundedPor;

    @Option(names = "--no-exhaustion-pass", description = "with the default reduction: skip the unbounded source-set search "
            + "that proves all interleavings of a small kernel after bound 1 (docs/explore.md, exhausting small kernels)")
    boolean noExhaustionPass;

    @Option(names = "--decision-order", description = "with the default reduction: make each run's forks in decision order "
            + "instead of race-reversing forks first (the same schedules per completed bound, bugs found later; docs/explore.md)")
    boolean decisionOrder;

    @Option(names = "--minimize-time", paramLabel = "S", description = "seconds for minimising the findings' schedules, "
            + "shared among them (default ${DEFAULT-VALUE}; 0: bounded by replays only)", defaultValue = "10")
    double minimizeTime;

    @Option(names = "--no-minimize", description = "report the schedules as found, without minimising them")
    boolean noMinimize;

    @Option(names = "--jobs", paramLabel = "N", description = "schedules run at once, each on its own copy of the launch "
            + "(default: all cores); the result is the same for every N")
    Integer jobs;

    @Option(names = "--report", paramLabel = "R.json", description = "write the JSON report here")
    Path report;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (schedules < 1) return usage(err, "--schedules must be at least 1");
        // NaN compares false both ways, so each range is checked as what must hold.
        if (!Explorer.Options.validSeconds(timeLimit)) return usage(err, "--time-limit must be in 0..1e9 seconds (0: none)");
        if (maxDeviations < 0 || maxDeviations > 8) return usage(err, "--max-deviations must be in 0..8");
        if (maxSteps != null && maxSteps < 1) return usage(err, "--max-steps must be at least 1");
        if (jobs != null && (jobs < 1 || jobs > 1024)) return usage(err, "--jobs must be in 1..1024");
        if (!Explorer.Options.validSeconds(minimizeTime)) return usage(err, "--minimize-time must be in 0..1e9 seconds");
        // Any of these asks for a reduction other than the default one (bounded sleep sets).
        boolean otherReduction = noPor || noSourceSets || sourceSets;
        if (boundedPor && otherReduction) return usage(err, "--bounded-por is a partial-order reduction of its own; "
                + "give it without --no-por, --no-source-sets and --source-sets");
        if (sourceSets && (noPor || noSourceSets)) return usage(err, "--source-sets contradicts --no-por and --no-source-sets; give one");
        // The order of forks belongs to the default reduction; with another one the flag would do nothing.
        if (decisionOrder && otherReduction) return usage(err, "--decision-order orders the forks of the default "
                + "reduction; give it without --no-por, --no-source-sets and --source-sets");
        if (noExhaustionPass && otherReduction) return usage(err, "--no-exhaustion-pass belongs to the "
                + "default reduction; give it without --no-por, --no-source-sets and --source-sets");
        if (noMinimize && spec.commandLine().getParseResult().hasMatchedOption("--minimize-time")) {
            return usage(err, "--no-minimize and --minimize-time contradict each other; give one");
        }
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        // Read, checked and planned in one place, every job's machine, race shadow and checkpoints counted before any is made.
        ValidatedLaunch valid = LaunchValidation.validate(launch,
                new LaunchValidation.Use(true, n, maxSteps != null ? maxSteps : 0, maxDeviations));
        LaunchedRun run = valid.start(new SchedulePolicy());
        OutputPaths.notAnInput("--report", report, OutputPaths.all(launch, OutputPaths.inputsOf(run.spec())));
        // By the writer's own rules before the search, not after it (as diff's report is).
        if (report != null) io.barrierscope.launch.AtomicFiles.check(report);
        for (String note : run.spec().notes()) out.println("note: " + note);
        long steps = maxSteps != null ? maxSteps : run.maxSteps();
        Explorer ex = new Explorer(run, () -> System.nanoTime() / 1_000_000);
        ex.partialOrder(!noPor);
        ex.sourceSets(!noSourceSets);
        // The reduction sound within the bound is the default; --source-sets and --no-source-sets ask for the others.
        ex.boundedPartialOrder(!otherReduction);
        ex.raceFirst(!decisionOrder);
        ex.exhaustionPass(!noExhaustionPass);
        // Copies of the launch already read and validated (a .cu is not compiled again, no file read again).
        ex.jobs(n, () -> valid.start(new SchedulePolicy()));
        long t0 = System.nanoTime();
        Explorer.Result res = ex.explore(new Explorer.Options(schedules, Explorer.Options.millis(timeLimit), seed, maxDeviations, steps,
                !noSymmetry, noMinimize ? -1 : Explorer.Options.millis(minimizeTime)));
        long wall = (System.nanoTime() - t0) / 1_000_000;
        Coverage c = res.coverage();
        out.println(run.program().kernel.name() + ": explored " + c.schedules() + " schedules (" + c.systematic() + " systematic, "
                + c.random() + " random; " + c.boundText() + "; " + c.prunedByState()
                + " pruned as already explored, " + c.skippedBySymmetry() + " alternatives skipped as symmetric warps"
                + (noSymmetry ? " (reduction off)" : "") + ", "
                + c.skippedByPartialOrder() + " forks skipped as reorderings of independent steps" + (noPor ? " (reduction off)" : "")
                + "), " + c.distinctOutcomes() + " distinct outcomes, " + c.decisionPoints()
                + " decision alternatives in the default schedule; stopped: " + c.stoppedBy() + "; " + wall + " ms");
        String replayOpts = maxSteps != null ? " --max-steps " + steps : "";
        List<Object> fs = new ArrayList<>();
        for (Finding f : res.findings()) {
            out.println("finding [" + f.code() + "] " + f.message());
            out.println("  cause " + f.cause() + ", fails at step " + f.step() + " (found by schedule #" + f.foundAtSchedule() + ")");
            Minimization mn = f.minimized();
            if (mn == null) {
                out.println("  replay: ./barrierscope run " + launch + replayOpts + " --schedule " + f.schedule());
            } else {
                out.println("  found schedule: " + mn.foundSize() + " decisions off the default, " + mn.foundPreemptions()
                        + " preemptions: " + f.schedule());
                out.println("  minimal schedule: " + mn.minimalSize() + " decisions off the default, " + mn.minimalPreemptions()
                        + " preemptions" + (mn.complete() ? "" : " (minimisation cut by its budget: smaller, maybe not minimal)")
                        + ": " + mn.minimal() + (mn.failingStep() >= 0 ? ", fails at step " + mn.failingStep() : ""));
                if (mn.decisive().isEmpty()) out.println("  the default schedule (s1:, not run's round-robin) alone ends in this cause");
                for (Minimization.Decision d : mn.decisive()) out.println("  decisive: " + d.text());
                out.println("  replay: ./barrierscope run " + launch + replayOpts + " --schedule " + mn.minimal());
            }
            fs.add(findingJson(ex, run, f));
        }
        String proven = c.proven(!noSymmetry);
        if (res.findings().isEmpty()) out.println("no findings" + (proven.isEmpty() ? "" : "; covered: " + proven));
        int code = exitCode(res.findings());
        if (report != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("reportVersion", ReportWriter.VERSION);
            r.put("command", "explore");
            r.put("outcome", worst(res.findings()));
            r.put("kernel", run.program().kernel.name());
            r.put("policy", "explore");
            r.put("seed", seed);
            Map<String, Object> cov = new LinkedHashMap<>();
            cov.put("schedules", c.schedules());
            cov.put("systematic", c.systematic());
            cov.put("random", c.random());
            cov.put("distinctOutcomes", c.distinctOutcomes());
            cov.put("decisionPoints", c.decisionPoints());
            cov.put("prunedByState", c.prunedByState());
            cov.put("deviationBoundCompleted", c.deviationBoundCompleted());
            // The field's old name, the same number, kept for scripts that read it (docs/explore.md).
            cov.put("preemptionBoundCompleted", c.deviationBoundCompleted());
            cov.put("stoppedBy", c.stoppedBy());
            cov.put("warpSteps", c.warpSteps());
            cov.put("skippedBySymmetry", c.skippedBySymmetry());
            cov.put("symmetryReduction", !noSymmetry);
            cov.put("skippedByPartialOrder", c.skippedByPartialOrder());
            cov.put("partialOrderReduction", !noPor);
            cov.put("sourceSets", ex.usedSourceSets());
            cov.put("boundedPartialOrder", c.boundedPartialOrder());
            cov.put("allSchedules", c.allSchedules());
            // Which search ran out of schedules, so a script can tell the pass's proof from the bounded search's (docs/explore.md).
            cov.put("exhaustedBy", !c.allSchedules() ? null : ex.exhaustedByPass() ? "exhaustion-pass" : noPor ? "no-reduction"
                    : sourceSets || noSourceSets ? (ex.usedSourceSets() ? "source-sets" : "sleep-sets") : "bounded-sleep-sets");
            cov.put("proven", res.findings().isEmpty() ? proven : null);
            cov.put("wallMillis", wall);
            r.put("coverage", cov);
            r.put("findings", fs);
            r.put("schedule", res.findings().isEmpty() ? null : res.findings().get(0).schedule().toString());
            ReportWriter.writeAtomically(report, r);
        }
        return code;
    }

    /** The finding, with the report of its schedule replayed from the start (which also checks it replays). */
    private static Map<String, Object> findingJson(Explorer ex, LaunchedRun run, Finding f) {
        Outcome o = ex.replay(f.schedule());
        boolean same = o.jsonName().equals(f.outcome());
        if (f.kind().equals(Finding.DIAGNOSTIC)) {
            boolean hit = false;
            for (Diagnostic d : run.interpreter().diagnostics()) {
                hit |= d.code().code().equals(f.code()) && d.step() == f.step()
                        && d.ptxLocations().stream().map(SourcePos::line).toList().equals(f.ptxLines());
            }
            same &= hit;
        } else {
            same &= run.machine().steps == f.step();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kind());
        m.put("code", f.code());
        m.put("cause", f.cause());
        m.put("message", f.message());
        m.put("step", f.step());
        m.put("ptxLines", f.ptxLines());
        m.put("schedule", f.schedule().toString());
        m.put("foundAtSchedule", f.foundAtSchedule());
        m.put("replayed", same);
        Map<String, Object> rep = ReportWriter.report(run, 0);
        rep.put("schedule", f.schedule().toString());
        m.put("report", rep);
        Minimization mn = f.minimized();
        if (mn != null) {
            Map<String, Object> z = new LinkedHashMap<>();
            z.put("found", f.schedule().toString());
            z.put("foundSize", mn.foundSize());
            z.put("foundPreemptions", mn.foundPreemptions());
            z.put("minimal", mn.minimal().toString());
            z.put("minimalSize", mn.minimalSize());
            z.put("minimalPreemptions", mn.minimalPreemptions());
            z.put("failingStep", mn.failingStep());
            z.put("complete", mn.complete());
            z.put("replays", mn.replays());
            List<Object> ds = new ArrayList<>();
            for (Minimization.Decision d : mn.decisive()) {
                Map<String, Object> dm = new LinkedHashMap<>();
                dm.put("decision", d.index());
                dm.put("step", d.step());
                dm.put("kind", String.valueOf(d.kind()));
                dm.put("text", d.text());
                ds.add(dm);
            }
            z.put("decisive", ds);
            ex.replay(mn.minimal());
            z.put("minimalReplayed", ex.replayEndsIn(f.cause()));
            m.put("minimization", z);
        }
        return m;
    }

    static int exitCode(List<Finding> fs) {
        if (fs.stream().anyMatch(f -> f.kind().equals(Finding.DIAGNOSTIC))) return Main.DIAGNOSED;
        if (fs.stream().anyMatch(f -> f.kind().equals(Finding.DEADLOCK))) return Main.DEADLOCK;
        if (!fs.isEmpty()) return Main.STEP_LIMIT;
        return Main.OK;
    }

    private static String worst(List<Finding> fs) {
        return switch (exitCode(fs)) {
            case Main.DIAGNOSED -> "diagnosed";
            case Main.DEADLOCK -> "deadlock";
            case Main.STEP_LIMIT -> "step-limit";
            default -> "completed";
        };
    }

    private static int usage(PrintWriter err, String msg) {
        err.println("error: " + msg);
        return Main.BAD_INPUT;
    }
}
