package io.barrierscope.app.debugger;

import io.barrierscope.app.session.Snapshot;
import io.barrierscope.exec.Outcome;

/** The status bar's words for a run (outcome, position, policy) and the panel that explains its end. */
final class StatusTexts {
    private StatusTexts() {}

    /** The panel that explains how a run ended. */
    static Panel panelForEnd(Outcome o) {
        return switch (o) {
            case DEADLOCK -> Panel.DEADLOCK;
            case DIAGNOSED -> Panel.DIAGNOSTICS;
            default -> Panel.REPORT;
        };
    }

    /**
     * "policy random · seed 7" for the status bar: the open run's scheduling; round-robin draws
     * nothing, so no seed; a schedule replayed from Explore is named so.
     */
    static String policyText(String policy, long seed) {
        return switch (policy) {
            case "round-robin" -> "policy round-robin";
            case "schedule" -> "policy: an Explore schedule";
            default -> "policy " + policy + " · seed " + seed;
        };
    }

    static String outcomeText(Snapshot s, boolean running) {
        if (s.outcome() != Outcome.RUNNING) return s.outcome().jsonName();
        if (running) return "running";
        return s.steps() == 0 ? "ready" : "paused";
    }

    /** "step 311 of 698 (end) · 311 cycles": the position, the frontier and whether it is the run's end. */
    static String stepsText(Snapshot s) {
        Snapshot.Travel t = s.travel();
        return "step " + s.steps() + " of " + t.frontier() + (t.complete() ? " (end)" : " (frontier)") + " · " + s.cycles() + " cycles";
    }
}
