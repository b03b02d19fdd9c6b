package io.barrierscope.runtime;

import io.barrierscope.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code barrierscope exec -- PROGRAM ARGS}: runs an unmodified CUDA program built with
 * {@code nvcc -cudart shared}, with our libcudart.so.13 in its LD_LIBRARY_PATH, so that every
 * kernel launch runs on the engine in this JVM (docs/runtime.md). Exit code: the program's,
 * unless a launch failed (then `run`'s code for the worst failure: 3 deadlock, 4 diagnostics,
 * 5 step limit) or the program could not be run or used a kernel the engine cannot compile (2).
 */
@Command(name = "exec", description = "Run your own CUDA program (built with nvcc -cudart shared); every kernel launch runs on the engine.")
public final class ExecCommand implements Callable<Integer> {
    /** Where the C build puts the library, relative to this module's classes (runtime/target/classes). */
    public static final String LIBRARY = "libcudart.so.13";

    @Option(names = "--policy", description = "round-robin, random or adversarial (every launch)")
    String policy = "round-robin";

    @Option(names = "--seed", description = "seed of the policy")
    long seed;

    @Option(names = "--max-steps", description = "warp-step budget of each launch")
    long maxSteps = LaunchOptions.DEFAULT_MAX_STEPS;

    @Option(names = "--no-race", description = "turn the race detector off (it is on by default)")
    boolean noRace;

    @Option(names = "--bundle-all", paramLabel = "DIR", description = "write a launch bundle for every launch into DIR (failed ones included)")
    Path bundleAll;

    @Option(names = "--bundle-dir", paramLabel = "DIR", description = "where failed launches' bundles go (default: barrierscope-bundles)")
    Path bundleDir;

    @Option(names = "--no-bundles", description = "write no launch bundles, not even for failed launches")
    boolean noBundles;

    @Option(names = "--kernel", paramLabel = "REGEX", description = "only launches of kernels whose (mangled) name matches get bundles")
    String kernel;

    @Option(names = "--on-failure", paramLabel = "WHAT", description = "after a failed launch: continue (the program gets the CUDA error; default), abort (the program is stopped) or gui (the window opens on the launch's bundle while the program waits; it goes on when the window is closed)")
    String onFailure = "continue";

    @Parameters(index = "0", paramLabel = "PROGRAM", description = "the program (built with nvcc -cudart shared)")
    Path program;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "its arguments")
    List<String> args = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!io.barrierscope.exec.Policy.NAMES.contains(policy)) {
            err.println("error: unknown policy '" + policy + "' (expected round-robin, random or adversarial)");
            return Main.BAD_INPUT;
        }
        if (maxSteps < 1) {
            err.println("error: --max-steps must be at least 1");
            return Main.BAD_INPUT;
        }
        LaunchOptions.OnFailure then = switch (onFailure) {
            case "continue" -> LaunchOptions.OnFailure.CONTINUE;
            case "abort" -> LaunchOptions.OnFailure.ABORT;
            case "gui" -> LaunchOptions.OnFailure.GUI;
            default -> null;
        };
        if (then == null) {
            err.println("error: --on-failure is continue, abort or gui, not '" + onFailure + "'");
            return Main.BAD_INPUT;
        }
        java.util.regex.Pattern kernels = null;
        if (kernel != null) {
            try {
                kernels = java.util.regex.Pattern.compile(kernel);
            } catch (java.util.regex.PatternSyntaxException e) {
                err.println("error: --kernel: " + e.getDescription() + " in '" + kernel + "'");
                return Main.BAD_INPUT;
            }
        }
        if (noBundles && (bundleAll != null || bundleDir != null)) {
            err.println("error: --no-bundles contradicts " + (bundleAll != null ? "--bundle-all" : "--bundle-dir") + "; give one");
            return Main.BAD_INPUT;
        }
        if (bundleAll != null && bundleDir != null) {
            err.println("error: --bundle-all DIR and --bundle-dir DIR both name where bundles go; give one");
            return Main.BAD_INPUT;
        }
        Path dir = noBundles ? null : bundleAll != null ? bundleAll : bundleDir != null ? bundleDir : LaunchOptions.DEFAULT_BUNDLE_DIR;
        // An empty name is no folder: it would have put bundles into whatever folder exec runs in.
        if (dir != null && dir.toString().isEmpty()) {
            err.println("error: " + (bundleAll != null ? "--bundle-all" : "--bundle-dir") + ": the folder's name is empty");
            return Main.BAD_INPUT;
        }
        // Said before the program runs, not once per launch after it has: a folder bundles cannot go into.
        if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
            err.println("error: " + dir + ": launch bundles go into a folder, and this is a file");
            return Main.BAD_INPUT;
        }
        for (Path up = dir == null ? null : dir.toAbsolutePath().getParent(); up != null; up = up.getParent()) {
            if (Files.exists(up) && !Files.isDirectory(up)) {
                err.println("error: " + dir + ": cannot make this folder for launch bundles: " + up + " is a file");
                return Main.BAD_INPUT;
            }
        }
        LaunchOptions o = new LaunchOptions(policy, seed, maxSteps, !noRace, dir, bundleAll != null && !noBundles, kernels, then);
        return exec(program, args, o, out, err);
    }

    /** Runs the program; the exit code as the class comment says. Tests call this. */
    public static int exec(Path program, List<String> args, LaunchOptions options, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        return exec(program, args, options, out, err, null);
    }

    /** As above, the program's stdout and stderr going to {@code programOutput} when it is not null (tests). */
    public static int exec(Path program, List<String> args, LaunchOptions options, PrintWriter out, PrintWriter err,
                           Path programOutput) throws IOException, InterruptedException {
        return exec(program, args, options, out, err, programOutput, FailureWindow.fromSystem());
    }

    /** As above, {@code --on-failure gui} opening {@code window} (tests). */
    static int exec(Path program, List<String> args, LaunchOptions options, PrintWriter out, PrintWriter err,
                    Path programOutput, FailureWindow window) throws IOException, InterruptedException {
        return exec(program, args, options, out, err, programOutput, window, session -> { });
    }

    /** As above, {@code inspect} given the session once the program has ended (tests read what its launches moved). */
    static int exec(Path program, List<String> args, LaunchOptions options, PrintWriter out, PrintWriter err,
                    Path programOutput, FailureWindow window, java.util.function.Consumer<DeviceSession> inspect)
            throws IOException, InterruptedException {
        String notAProgram = notAProgram(program);
        if (notAProgram != null) {
            err.println("error: " + (program.toString().isEmpty() ? "the program's name is empty" : program + ": " + notAProgram));
            return Main.BAD_INPUT;
        }
        Path exe = resolve(program);
        if (exe == null) {
            err.println("error: " + program + ": no such program" + (program.getNameCount() == 1 ? " (here or on the PATH)" : ""));
            return Main.BAD_INPUT;
        }
        if (!Files.isExecutable(exe)) {
            // Said as such, not as the JDK's "Cannot run program ...: error=13, Permission denied".
            err.println("error: " + program + ": not executable (no x permission: chmod +x it, or name the program that runs it)");
            return Main.BAD_INPUT;
        }
        String linkage = ProgramCheck.cudaRuntimeOf(exe);
        if (linkage != null) {
            err.println("error: " + program + ": " + linkage);
            return Main.BAD_INPUT;
        }
        Path lib = libraryDir();
        if (lib == null) {
            err.println("error: BarrierScope's " + LIBRARY + " is not built (it needs gcc when BarrierScope is built: "
                    + "apt-get install gcc, then build again)");
            return Main.BAD_INPUT;
        }
        DeviceSession session = new DeviceSession(options, out, err);
        int code;
        try (RuntimeServer server = new RuntimeServer(session, err)) {
            List<String> cmd = new ArrayList<>();
            cmd.add(exe.toAbsolutePath().toString());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
            if (programOutput != null) pb.redirectErrorStream(true).redirectOutput(programOutput.toFile());
            Map<String, String> env = pb.environment();
            String old = env.get("LD_LIBRARY_PATH");
            env.put("LD_LIBRARY_PATH", lib + (old == null || old.isEmpty() ? "" : ":" + old));
            env.put("BARRIERSCOPE_SOCKET", server.socket().toString());
            out.flush();
            err.flush();
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                err.println("error: cannot run " + program + ": " + e.getMessage());
                return Main.BAD_INPUT;
            }
            switch (options.onFailure()) {
                case ABORT -> session.onFailure(bundle -> {
                    err.println("barrierscope: --on-failure abort: stopping the program");
                    err.flush();
                    p.destroyForcibly();
                });
                case GUI -> session.onFailure(bundle -> window.open(bundle, err));
                case CONTINUE -> { }
            }
            code = p.waitFor();
        }
        inspect.accept(session);
        out.flush();
        if (!session.unimplemented().isEmpty()) {
            err.println("barrierscope: the program called " + session.unimplemented().size() + " CUDA function(s) BarrierScope does not implement: "
                    + String.join(", ", session.unimplemented()));
        }
        if (!session.uncompilable().isEmpty()) {
            err.println("barrierscope: " + session.uncompilable().size() + " kernel(s) use PTX the engine does not run (each launch"
                    + " returned cudaErrorInvalidDeviceFunction): " + String.join(", ", session.uncompilable()));
        }
        if (!session.failures().isEmpty()) {
            err.println("barrierscope: " + session.failures().size() + " of " + session.launches() + " launches failed:");
            for (String f : session.failures()) err.println("  " + f);
            err.flush();
            return session.worstExit();
        }
        err.flush();
        return session.uncompilable().isEmpty() ? code : io.barrierscope.cli.Main.BAD_INPUT; // beyond what we emulate
    }

    /**
     * Why a program named by a path that exists is no program: a folder, a device or a pipe (was
     * said to be "no such program"); null when it is a file or does not exist (then looked up).
     */
    static String notAProgram(Path program) {
        if (program.toString().isEmpty()) return "";
        if (program.getNameCount() == 1 && !program.isAbsolute() && !Files.exists(program)) return null; // looked up on the PATH
        if (Files.isDirectory(program)) return "it is a folder, not a program";
        if (Files.exists(program) && !Files.isRegularFile(program)) return "it is a device or pipe, not a program";
        return null;
    }

    /** The program as a file: a path as given, or a bare name found on the PATH as a shell would; null when neither. */
    static Path resolve(Path program) {
        if (program.getNameCount() != 1 || program.isAbsolute() || Files.isRegularFile(program)) {
            return Files.isRegularFile(program) ? program : null;
        }
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir).resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }

    /**
     * The folder holding our libcudart.so.13: the system property barrierscope.cudart.dir, else
     * target/native beside this module's classes; null when it was not built.
     */
    public static Path libraryDir() {
        String prop = System.getProperty("barrierscope.cudart.dir");
        if (prop != null) return Files.isRegularFile(Path.of(prop, LIBRARY)) ? Path.of(prop).toAbsolutePath() : null;
        try {
            Path classes = Path.of(ExecCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = classes.resolveSibling("native");
            return Files.isRegularFile(dir.resolve(LIBRARY)) ? dir : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
