package io.barrierscope.check;

import java.util.List;

/**
 * The wait-for explanation of a deadlock (semantics.md section 9): for every blocked group of
 * threads, what it waits on and what that needs, plus any cycle among the warps.
 */
public record Deadlock(List<Wait> waits, List<String> cycle) {

    /** A blocked group: who, waiting on what, needing what, where. */
    public record Wait(String threads, String on, String needs, List<Missing> missing, String location,
                       int ptxLine, String cudaLocation) {}

    /** A thread group that has not arrived, and where it is now. */
    public record Missing(String threads, String state, String location) {}

    /** A readable multi-line explanation. */
    public String text() {
        StringBuilder sb = new StringBuilder("Deadlock: no thread can make progress.\n");
        for (Wait w : waits) {
            sb.append("- ").append(w.threads()).append(" wait").append(" on ").append(w.on()).append(" at ")
                    .append(w.location()).append(".\n    It needs ").append(w.needs()).append('\n');
            for (Missing m : w.missing()) {
                sb.append("      ").append(m.threads()).append(": ").append(m.state());
                if (m.location() != null) sb.append(" at ").append(m.location());
                sb.append('\n');
            }
        }
        if (!cycle.isEmpty()) sb.append("Cycle: ").append(String.join(" -> ", cycle)).append('\n');
        return sb.toString();
    }
}
