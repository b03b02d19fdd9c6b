package io.barrierscope.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Race detection's cost in two or more builds at once, for a loaded machine: each benchmarks jar
 * is loaded by a class loader of its own into one JVM, and the jars' runs with detection off and
 * on are interleaved (jar order reversed every round), so load drifts hit every jar alike. Times
 * are thread CPU time of {@code runToEnd} of a fresh launch, as in {@link RaceBenchmark#main}.
 * Only long-standing public API is called (by reflection: the launch lookup, validate, start,
 * raceDetection, runToEnd), so a jar built before this class existed can be the "before".
 * {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.RaceJarPairs RUNS LAUNCH JAR...}
 */
public final class RaceJarPairs {
    private RaceJarPairs() {}

    /** One build: its launch-file lookup and the run chain, resolved through its own class loader. */
    private record Build(String name, Method launchFile, Method validate, Method start, Method race, Method runToEnd) {
        static Build load(String jar) throws ReflectiveOperationException, java.io.IOException {
            URLClassLoader cl = new URLClassLoader(new URL[] {new File(jar).toURI().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> kernels = cl.loadClass("io.barrierscope.bench.BenchKernels");
            Class<?> validation = cl.loadClass("io.barrierscope.launch.LaunchValidation");
            Class<?> run = cl.loadClass("io.barrierscope.launch.LaunchedRun");
            Method validate = validation.getMethod("validate", Path.class);
            return new Build(new File(jar).getName(), kernels.getMethod("launchFile", String.class), validate,
                    validate.getReturnType().getMethod("start"), run.getMethod("raceDetection", boolean.class), run.getMethod("runToEnd"));
        }

        long timedRun(String launch, boolean on, ThreadMXBean mx) throws ReflectiveOperationException {
            Object file = launchFile.invoke(null, launch);
            Object r = race.invoke(start.invoke(validate.invoke(null, file)), on);
            long t0 = mx.getCurrentThreadCpuTime();
            runToEnd.invoke(r);
            return mx.getCurrentThreadCpuTime() - t0;
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        String launch = args[1];
        Build[] builds = new Build[args.length - 2];
        for (int i = 0; i < builds.length; i++) builds[i] = Build.load(args[i + 2]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[][][] t = new long[builds.length][2][runs];
        for (int round = -runs / 4; round < runs; round++) { // the first quarter warms up
            for (int k = 0; k < builds.length; k++) {
                int b = (round & 1) == 0 ? k : builds.length - 1 - k;
                for (int on = 0; on < 2; on++) {
                    long v = builds[b].timedRun(launch, on == 1, mx);
                    if (round >= 0) t[b][on][round] = v;
                }
            }
        }
        System.out.println(launch + ", " + runs + " runs per jar and mode, thread CPU time in ms; ratio = on / off");
        for (int b = 0; b < builds.length; b++) {
            long[] off = t[b][0].clone();
            long[] on = t[b][1].clone();
            Arrays.sort(off);
            Arrays.sort(on);
            double[] paired = new double[runs];
            for (int r = 0; r < runs; r++) paired[r] = (double) t[b][1][r] / t[b][0][r];
            Arrays.sort(paired);
            System.out.printf("%-28s off min %7.3f p25 %7.3f median %7.3f | on min %7.3f p25 %7.3f median %7.3f"
                    + " | ratio min %.2f p25 %.2f median %.2f, of pairs %.2f%n", builds[b].name(), off[0] / 1e6,
                    off[runs / 4] / 1e6, off[runs / 2] / 1e6, on[0] / 1e6, on[runs / 4] / 1e6, on[runs / 2] / 1e6,
                    (double) on[0] / off[0], (double) on[runs / 4] / off[runs / 4], (double) on[runs / 2] / off[runs / 2],
                    paired[runs / 2]);
        }
    }
}
