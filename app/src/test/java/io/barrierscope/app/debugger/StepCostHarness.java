package io.barrierscope.app.debugger;

import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Move;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a step costs in CPU time, whatever else the machine runs (docs/performance.md, "Window
 * responsiveness"): the window's logic on one thread (inline executors, no toolkit) on the
 * 32,768-thread block-reduce launch, F10 and Shift+F10 thirty times each, split into the UI
 * side (the listener's calls, which the FX thread makes in the app) and the rest (the engine's
 * move and the capture, on the worker in the app). Not a pass/fail test; run with
 * <pre>
 * mvn -B -ntp -o -pl app -am test -Dtest=StepCostHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 */
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class StepCostHarness {
    @TempDir Path tmp;
    /** CPU nanoseconds and calls per listener method. */
    private final Map<String, long[]> ui = new TreeMap<>();

    private static long cpu() { return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime(); }

    @Test
    void measure() throws Exception {
        Path launch = ResponsivenessHarness.bigLaunch(tmp);
        DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, timed(l)));
        // Three rounds: the first warms the JIT; the last is the one to read.
        for (int round = 1; round <= 3; round++) {
            vm.open(launch);
            ui.clear();
            long t0 = cpu();
            for (int i = 0; i < 30; i++) vm.step();
            report(round, "F10", cpu() - t0);
            ui.clear();
            t0 = cpu();
            for (int i = 0; i < 30; i++) vm.move(Move.STEP_BACK);
            report(round, "Shift+F10", cpu() - t0);
        }
    }

    private DebugSession.Listener timed(DebugSession.Listener l) {
        return (DebugSession.Listener) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DebugSession.Listener.class},
                (p, m, args) -> {
                    long t0 = cpu();
                    try {
                        return m.invoke(l, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        long[] t = ui.computeIfAbsent(m.getName(), k -> new long[2]);
                        t[0] += cpu() - t0;
                        t[1]++;
                    }
                });
    }

    private void report(int round, String move, long total) {
        long side = 0;
        StringBuilder calls = new StringBuilder();
        for (Map.Entry<String, long[]> e : ui.entrySet()) {
            side += e.getValue()[0];
            calls.append(String.format(Locale.ROOT, " %s %.2f", e.getKey(), e.getValue()[0] / 30e6));
        }
        System.out.printf(Locale.ROOT, "round %d, %s: %.2f ms CPU per step; UI side %.2f (%s), worker side %.2f%n",
                round, move, total / 30e6, side / 30e6, calls.toString().strip(), (total - side) / 30e6);
    }
}
