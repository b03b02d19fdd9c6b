package io.barrierscope.app.session;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Lowers the calling thread's scheduling priority on Linux (its nice value, which Linux keeps per
 * thread): the engine's worker calls it once when it starts, so that on a busy machine the FX
 * thread, which takes the Pause key and paints, gets the core first when both want one. Java's
 * {@code Thread.setPriority} does nothing on Linux without a JVM flag, so the thread's id is read
 * from {@code /proc/thread-self} and handed to {@code renice}; raising a nice value needs no
 * privilege. Where that is not possible (another system, no {@code renice}), nothing changes. A
 * run's results never depend on timing, so this changes none of them; only how the cores are
 * shared (docs/performance.md, "Window responsiveness").
 */
final class WorkerPriority {
    /** The nice value (0-19) the engine's worker runs at; {@code -Dbarrierscope.engineNice=0} keeps the default, to measure. */
    static final int NICE = Math.max(0, Math.min(19, Integer.getInteger("barrierscope.engineNice", 10)));

    private WorkerPriority() {}

    /** Lowers the calling thread's priority to {@link #NICE}; true when it did. */
    static boolean lowerCurrentThread() {
        if (NICE == 0) return false;
        try {
            Path self = Path.of("/proc/thread-self");
            if (!Files.exists(self)) return false;
            String link = Files.readSymbolicLink(self).toString(); // "<pid>/task/<tid>"
            String tid = link.substring(link.lastIndexOf('/') + 1);
            if (tid.isEmpty() || !tid.chars().allMatch(Character::isDigit)) return false;
            Process p = new ProcessBuilder("renice", "-n", Integer.toString(NICE), "-p", tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException | RuntimeException e) {
            return false; // no /proc, no renice: the default priority
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
