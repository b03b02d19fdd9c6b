package io.barrierscope.cli;

import io.barrierscope.exec.Outcome;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.launch.ReportWriter;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.trace.BreakpointSet;
import io.barrierscope.trace.ChromeExport;

import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The command line (README, "Command line"). Exit codes: 0 completed, 2 bad input, 3 deadlock,
 * 4 diagnostics, 5 step limit, 1 the tool's own failure; with an expect block, 0 met / 6 not.
 */
@Command(name = "barrierscope", mixinStandardHelpOptions = true, version = "BarrierScope 0.1.0",
        description = "A debugger for the barriers of NVIDIA GPUs: runs real PTX deterministically.",
        subcommands = {Main.Run.class, Main.Check.class, Main.Export.class, ExploreCommand.class, DiffCommand.class})
public final class Main implements Callable<Integer> {
    public static final int OK = 0;
    public static final int TOOL_FAILURE = 1;
    public static final int BAD_INPUT = 2;
    public static final int DEADLOCK = 3;
    public static final int DIAGNOSED = 4;
    public static final int STEP_LIMIT = 5;
    public static final int EXPECT_NOT_MET = 6;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        ProgressLine.stderrIsTerminal = ProgressLine.detectStderrTerminal();
        int code = execute(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the CLI with the given streams and returns the exit code (tests call this). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        addExec(cl);
        helpOnEveryCommand(cl);
        asciiNumbers(cl);
        systemPaths(cl);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage());
            err.println("usage: barrierscope run LAUNCH.json | explore LAUNCH.json | check FILE.ptx | export TRACE --format chrome -o OUT.json   (barrierscope --help)");
            return BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            if (ex instanceof BadInputException || ex instanceof PtxException) {
                err.println(ex.getMessage());
                return BAD_INPUT;
            }
            err.println("internal error (please report it): " + ex);
            ex.printStackTrace(err);
            return TOOL_FAILURE;
        });
        return cl.execute(args);
    }

    /**
     * {@code run --help} (and every other command's {@code -h}, {@code --help}, {@code -V}) shows
     * that command's usage, exit 0: it was refused as a missing LAUNCH or an unknown option.
     */
    private static void helpOnEveryCommand(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandLine.Model.CommandSpec s = sub.getCommandSpec();
            if (s.mixinStandardHelpOptions()) continue;
            s.mixinStandardHelpOptions(true);
            s.version(cl.getCommandSpec().version());
        }
    }

    /**
     * A path argument the system cannot name (a NUL in it) is refused saying so, not with the
     * JDK's "cannot convert ... to interface java.nio.file.Path (InvalidPathException ...)" and
     * the raw NUL echoed to the terminal.
     */
    private static void systemPaths(CommandLine cl) {
        cl.registerConverter(java.nio.file.Path.class, s -> {
            String shown = s.replace("\0", "\\0");
            if (s.indexOf('\0') >= 0) {
                throw new CommandLine.TypeConversionException("'" + shown + "' holds a NUL character (\\0), which no file name can");
            }
            try {
                return java.nio.file.Path.of(s);
            } catch (java.nio.file.InvalidPathException e) {
                throw new CommandLine.TypeConversionException("'" + shown + "' is no file name this system takes: " + e.getReason());
            }
        });
    }

    /**
     * Whole-number options take ASCII digits only, as breakpoint and schedule numbers do
     * (docs/reliability.md): the JDK's parsing took other scripts' digits, so {@code --max-steps
     * ١٢} (Arabic-Indic) or {@code １２} (full-width) ran as 12.
     */
    private static void asciiNumbers(CommandLine cl) {
        CommandLine.ITypeConverter<Long> asLong = s -> Long.valueOf(ascii(s, "long"));
        CommandLine.ITypeConverter<Integer> asInt = s -> Integer.valueOf(ascii(s, "int"));
        cl.registerConverter(Long.class, asLong);
        cl.registerConverter(long.class, asLong);
        cl.registerConverter(Integer.class, asInt);
        cl.registerConverter(int.class, asInt);
    }

    private static String ascii(String s, String what) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (!(ch >= '0' && ch <= '9') && !(i == 0 && (ch == '-' || ch == '+'))) {
                throw new CommandLine.TypeConversionException("'" + s + "' is not a" + (what.equals("int") ? "n " : " ") + what
                        + " (ASCII digits 0-9 only)");
            }
        }
        try {
            if (what.equals("int")) Integer.parseInt(s);
            else Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is not a" + (what.equals("int") ? "n " : " ") + what);
        }
        return s;
    }

    /**
     * {@code exec} lives in the runtime module (it needs that module's C library, and the module
     * depends on this one), so it is added when that module is on the class path.
     */
    private static void addExec(CommandLine cl) {
        try {
            Object exec = Class.forName("io.barrierscope.runtime.ExecCommand").getDeclaredConstructor().newInstance();
            // The program's own options follow it: `exec ./prog --flag` passes --flag to the program.
            cl.addSubcommand("exec", new CommandLine(exec).setStopAtPositional(true));
        } catch (ReflectiveOperationException | LinkageError e) {
            // The engine alone: no exec subcommand.
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        // No command (nothing, or only "--"): bad input, said as such before the usage.
        spec.commandLine().getErr().println("error: name a command: run, check, export, explore or diff (barrierscope --help)");
        spec.commandLine().usage(spec.commandLine().getOut());
        return BAD_INPUT;
    }

    static int exitCode(Outcome o) {
        return switch (o) {
            case COMPLETED -> OK;
            case DEADLOCK -> DEADLOCK;
            case DIAGNOSED -> DIAGNOSED;
            case STEP_LIMIT -> STEP_LIMIT;
            default -> TOOL_FAILURE;
        };
    }

    @Command(name = "run", description = "Run a launch headless: print a summary, write the JSON report.")
    static final class Run implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "LAUNCH", description = "launch file (.json), .ptx, or .cu (compiled with nvcc when installed)")
        Path launch;

        @Option(names = "--policy", description = "round-robin, random or adversarial")
        String policy;

        @Option(names = "--seed", description = "seed of the policy")
        Long seed;

        @Option(names = "--max-steps", description = "warp-step budget")
        Long maxSteps;

        @Option(names = "--schedule", paramLabel = "S", description = "replay this schedule string (as printed by explore) exactly")
        String schedule;

        @Option(names = "--report", paramLabel = "R.json", description = "write the JSON report here")
        Path report;

        @Option(names = "--report-elements", paramLabel = "N", description = "elements of each buffer the report embeds (default 65536)")
        int reportElements = ReportWriter.DEFAULT_ELEMENTS;

        @Option(names = "--no-race", description = "turn the race detector off (it is on by default)")
        boolean noRace;

        @Option(names = "--trace", paramLabel = "T", description = "record the run and write a trace file here")
        Path trace;

        @Option(names = "--break", paramLabel = "SPEC", description = "report every hit of this breakpoint "
                + "(line:42, line:kernel.cu:17, barrier[:ID], mbarrier[:VAR|:0xOFF], tx-zero, arrive, wait-false, park, "
                + "deadlock, diagnostic[:CODE]; conditions ,cta=N ,warp=N ,thread=N ,cluster=N ,phase=N ,hits=N); repeatable")
        List<String> breaks = new java.util.ArrayList<>();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (policy != null && !io.barrierscope.exec.Policy.NAMES.contains(policy)) {
                err.println("error: unknown policy '" + policy + "' (expected round-robin, random or adversarial)");
                return BAD_INPUT;
            }
            if (maxSteps != null && maxSteps < 1) {
                err.println("error: --max-steps must be at least 1");
                return BAD_INPUT;
            }
            if (reportElements < 0) {
                err.println("error: --report-elements must be at least 0");
                return BAD_INPUT;
            }
            SchedulePolicy replay = null;
            if (schedule != null) {
                if (policy != null || seed != null) {
                    err.println("error: --schedule fixes every scheduling decision; it cannot be combined with --policy or --seed");
                    return BAD_INPUT;
                }
                if (trace != null) {
                    err.println("error: --schedule cannot be combined with --trace yet (a trace names a policy by name and seed)");
                    return BAD_INPUT;
                }
                replay = new SchedulePolicy(Schedule.parse(schedule));
            }
            // Read, checked and planned in one place, its memory counted with the race detector as chosen.
            ValidatedLaunch valid = LaunchValidation.validate(launch, new LaunchValidation.Use(!noRace, 0));
            LaunchedRun run = replay != null ? valid.start(replay) : valid.start(policy, seed);
            Path[] inputs = OutputPaths.all(launch, OutputPaths.inputsOf(run.spec())); // the launch text parsed once for both checks
            OutputPaths.notAnInput("--report", report, inputs);
            OutputPaths.notAnInput("--trace", trace, inputs);
            OutputPaths.distinct("--trace", trace, "--report", report);
            // By the writer's own rules before the run: a folder or a file where a folder should be
            // was refused only after the whole run (as diff's report was).
            if (trace != null) io.barrierscope.launch.AtomicFiles.check(trace);
            if (report != null) io.barrierscope.launch.AtomicFiles.check(report);
            for (String n : run.spec().notes()) out.println("note: " + n);
            long maxS = maxSteps != null ? maxSteps : run.maxSteps();
            // Wall time is measured around the run for the report only; the run itself never reads it.
            long t0 = System.nanoTime();
            Outcome o;
            if (trace != null || !breaks.isEmpty()) {
                TimeTravel tt = new TimeTravel(run, maxS);
                for (String b : breaks) {
                    try {
                        tt.breakpoints().add(b);
                    } catch (IllegalArgumentException e) {
                        err.println("error: " + e.getMessage());
                        return BAD_INPUT;
                    }
                }
                while (true) {
                    TimeTravel.Stop stop = tt.runForwardPastBrkpts(() -> false);
                    if (stop.reason() != TimeTravel.Reason.BREAKPOINT) break;
                    BreakpointSet.Hit h = stop.hit();
                    out.println("break [" + h.breakpoint() + "] at step " + stop.step() + ": " + h.description());
                }
                o = run.interpreter().outcome();
                if (trace != null) {
                    TraceFile.write(tt, trace);
                    out.println("trace: " + trace + " (" + tt.recording().events() + " events, " + tt.recording().bytes()
                            + " bytes before compression)");
                }
            } else {
                o = run.runToEnd(maxS);
            }
            long wall = (System.nanoTime() - t0) / 1_000_000;
            if (replay != null && replay.unconsumed() > 0 && o != Outcome.STEP_LIMIT) {
                err.println("error: the schedule does not match this launch: the run ended (" + o.jsonName() + ") at step "
                        + run.machine().steps + " with " + replay.unconsumed() + " of its decisions not reached");
                return BAD_INPUT;
            }
            out.print(run.summary());
            run.interpreter().printfLines().forEach(p -> out.println("printf " + p.thread() + ": " + p.text().stripTrailing()));
            if (report != null) {
                java.util.Map<String, Object> r = ReportWriter.report(run, wall, reportElements);
                if (replay != null) r.put("schedule", replay.taken().toString());
                ReportWriter.writeAtomically(report, r);
            }
            if (replay != null) out.println("schedule: " + replay.taken());
            if (run.spec().expect() != null) {
                List<String> diff = run.expectDifferences();
                if (diff.isEmpty()) {
                    out.println("expect: met");
                    return OK;
                }
                out.println("expect: NOT met");
                diff.forEach(d -> out.println("  " + d));
                return EXPECT_NOT_MET;
            }
            return exitCode(o);
        }
    }

    @Command(name = "export", description = "Convert a trace file for other tools: --format chrome writes JSON for Perfetto "
            + "(ui.perfetto.dev) and chrome://tracing.")
    static final class Export implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TRACE")
        Path trace;

        @Option(names = "--format", required = true, description = "chrome")
        String format;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT.json")
        Path output;

        @Option(names = "--progress", description = "show how far opening the trace has come on stderr (shown anyway when it is a terminal)")
        boolean progress;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (!format.equals("chrome")) {
                err.println("error: unknown format '" + format + "' (expected chrome)");
                return BAD_INPUT;
            }
            OutputPaths.notAnInput("-o", output, trace);
            io.barrierscope.launch.AtomicFiles.check(output); // before the trace's replay, not after it
            ProgressLine p = ProgressLine.forOpening(trace, err, progress);
            TimeTravel tt;
            try {
                tt = TraceFile.open(trace, p.cancellation());
            } finally {
                p.done();
            }
            ChromeExport.write(tt, output);
            out.println(output + ": " + tt.recording().events() + " events of " + tt.run().program().kernel.name()
                    + " for Perfetto / chrome://tracing");
            return OK;
        }
    }

    @Command(name = "check", description = "Parse and validate a PTX file (every entry), without running it.")
    static final class Check implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE.ptx")
        Path file;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Module m = PtxParser.parse(file.toString(), io.barrierscope.launch.Utf8Text.read(file, "PTX file",
                    io.barrierscope.launch.LaunchValidation.MAX_PTX_BYTES));
            for (Function f : m.entries()) io.barrierscope.exec.ProgramBuilder.build(m, f.name());
            out.println(file + ": ok (" + m.entries().size() + " entr" + (m.entries().size() == 1 ? "y" : "ies") + ": "
                    + String.join(", ", m.entries().stream().map(Function::name).toList()) + ")");
            return OK;
        }
    }
}
