package io.barrierscope.explore;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.SyncEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pair of steps that explains a warp decision of a minimal schedule: of the steps of the two
 * warps it swapped (the chosen and the default warp), the first pair whose order differs between
 * the failing run and the run without that decision, and whose order matters for the finding
 * (the same word with a write, or the same mbarrier: {@link StepFootprints#conflictsInEffect};
 * or two arrivals at a CTA barrier of which one joined another generation). Two arrivals at one
 * generation conflict for the search but commute in effect, so a free choice at the start (warp 1
 * first, so warp 0 arrives last and runs on past the barrier first) is named by what it reorders
 * behind the barrier, not by the two arrivals. For a race between the two warps after the
 * decision, the racing pair itself (docs/explore.md, "decisive").
 */
final class DecisivePair {
    /** Steps of the two warps compared at most (a long run's pairs are looked for among its first ones). */
    static final int MAX_TOUCHES = 4096;

    /**
     * One step of a run that touched what another warp can see; its kind-tagged footprint, and the
     * CTA barrier and generation it arrived at ({@code barrier} -1: none).
     */
    record Touch(int warp, int pc, long step, StepFootprints.Footprint fp, long barrier, long generation) {}

    /** The pair: {@code first} ran before {@code second} in the failing run. */
    record Pair(Touch first, Touch second) {}

    /** A step identified across runs: the warp, the instruction, and how many times the warp ran it before. */
    private record Id(int warp, int pc, int occurrence) {}

    /** A run's touching steps, in order; a listener, or fed by one. */
    static final class Run implements ExecutionListener {
        final List<Touch> touches = new ArrayList<>();
        private final StepFootprints f;
        /** Whether another listener feeds the steps ({@link #add}): this one then hears only the arrivals. */
        private final boolean fed;
        private long arrivalStep = -1;
        private long arrivalBarrier;
        private long arrivalGeneration;

        Run(StepFootprints f, boolean fed) {
            this.f = f;
            this.fed = fed;
        }

        @Override
        public boolean takesWarpSteps() { return !fed; }

        @Override
        public void warpStep(long step, int warp, int pc, int group, int active) {
            StepFootprints.Footprint fp = f.taggedFootprint();
            f.begin();
            add(warp, pc, step, fp);
        }

        @Override
        public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
            if (kind != SyncEvent.BAR_ARRIVE) return;
            arrivalStep = step;
            arrivalBarrier = object;
            arrivalGeneration = a;
        }

        void add(int warp, int pc, long step, StepFootprints.Footprint fp) {
            if (!fp.all() && fp.keys().length == 0) return;
            boolean arrived = arrivalStep == step;
            touches.add(new Touch(warp, pc, step, fp, arrived ? arrivalBarrier : -1, arrived ? arrivalGeneration : -1));
        }

        /** Each touching step's identity, in order. */
        private List<Id> ids() {
            List<Id> out = new ArrayList<>();
            Map<Long, Integer> seen = new HashMap<>();
            for (Touch t : touches) out.add(new Id(t.warp, t.pc, seen.merge(((long) t.warp << 32) | (t.pc & 0xFFFFFFFFL), 1, Integer::sum)));
            return out;
        }
    }

    private DecisivePair() {}

    /** Each step's position in {@code ids}, by its identity across runs (looked up only, never iterated). */
    private static Map<Id, Integer> positions(List<Id> ids) {
        Map<Id, Integer> pos = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) pos.put(ids.get(i), i);
        return pos;
    }

    /**
     * For each warp decision of {@code s} (by decision index), the touching steps of the run
     * without it, replayed leniently (the decisions after it may shift) on {@code x}, whose machine
     * {@code f} is installed on; not counted as candidates, but none starts once {@code over} says
     * the minimisation's time is up (a decision left without one is named as if no pair differed).
     */
    static Map<Long, Run> withoutEach(Schedule s, StepFootprints f, Interpreter x, SchedulePolicy policy, Minimizer.Replayer replayer,
            BooleanSupplier over) {
        Map<Long, Run> runs = new TreeMap<>();
        for (int j = 0; j < s.size(); j++) {
            if (s.kind(j) != SchedulePolicy.WARP) continue;
            if (over.getAsBoolean()) break;
            Run r = new Run(f, false);
            x.addListener(r);
            f.tagging(true);
            f.begin();
            policy.lenient(true);
            try {
                if (replayer.replay(ScheduleCuts.without(s, ScheduleCuts.slice(s, j, j + 1)))) runs.put(s.index(j), r);
            } finally {
                policy.lenient(false);
                f.stop();
                f.tagging(false);
                x.removeListener(r);
            }
        }
        return runs;
    }

    /**
     * The first pair (by its earlier step, then its later one) of steps of warps {@code a} and
     * {@code b}, one of each, at or after step {@code from}, that conflict in effect and ran in the
     * other order in {@code without}; else a step of the failing run that ran ahead of one that,
     * in {@code without}, came before it and in the failing run never came; null when there is none.
     */
    static Pair differing(Run failing, Run without, int a, int b, long from) {
        List<Id> ids = failing.ids();
        List<Id> otherIds = without.ids();
        Map<Id, Integer> other = positions(otherIds);
        List<Integer> mine = new ArrayList<>(); // indices of the two warps' steps from the decision on
        for (int i = 0; i < failing.touches.size() && mine.size() < MAX_TOUCHES; i++) {
            Touch t = failing.touches.get(i);
            if (t.step >= from && (t.warp == a || t.warp == b)) mine.add(i);
        }
        Map<Id, Integer> here = positions(ids);
        for (int i = 0; i < mine.size(); i++) {
            Touch first = failing.touches.get(mine.get(i));
            Integer pf = other.get(ids.get(mine.get(i)));
            if (pf == null) continue;
            Touch firstThere = without.touches.get(pf);
            for (int j = i + 1; j < mine.size(); j++) {
                Touch second = failing.touches.get(mine.get(j));
                if (first.warp == second.warp) continue;
                Integer ps = other.get(ids.get(mine.get(j)));
                if (ps == null || ps > pf) continue;
                if (StepFootprints.conflictsInEffect(first.fp, second.fp) || regrouped(first, second, firstThere, without.touches.get(ps))) {
                    return new Pair(first, second);
                }
            }
        }
        // Else a step of one warp that, without the decision, came before a step of the other that never came in the
        // failing run (a wait or arrive the finding cut short): the earliest such displaced step first (the default
        // warp's step the decision put off, say), with the first step of the failing run that ran ahead of it.
        for (int k = 0, tried = 0; k < without.touches.size() && tried < MAX_TOUCHES; k++) {
            Touch u = without.touches.get(k);
            if (u.step < from || (u.warp != a && u.warp != b) || here.get(otherIds.get(k)) != null) continue;
            tried++;
            for (int i : mine) {
                Touch first = failing.touches.get(i);
                Integer pf = other.get(ids.get(i));
                if (first.warp == u.warp || pf == null || pf < k) continue;
                Touch firstThere = without.touches.get(pf);
                // At one barrier: without the decision the other warp's arrival joined this one's generation (or this one
                // joined another): the decision changed who completes it.
                boolean regrouped = first.barrier >= 0 && first.barrier == u.barrier
                        && (u.generation == firstThere.generation || first.generation != firstThere.generation);
                if (regrouped || StepFootprints.conflictsInEffect(first.fp, u.fp)) return new Pair(first, u);
            }
        }
        return null;
    }

    /**
     * Two arrivals at one CTA barrier whose order decided which generation each joined (a count
     * that two warps of three complete): the order matters when either joined another generation
     * without the decision. Arrivals at one generation either way commute.
     */
    private static boolean regrouped(Touch first, Touch second, Touch firstThere, Touch secondThere) {
        if (first.barrier < 0 || first.barrier != second.barrier) return false;
        return first.generation != firstThere.generation || second.generation != secondThere.generation;
    }

    private static final Pattern STEP = Pattern.compile("step (\\d+)\\)");

    /**
     * For a data race between warps {@code a} and {@code b} (either order), the two racing
     * accesses as steps of the failing run, by the steps the diagnostic names, when both came at
     * or after step {@code from} (the decision's); else null.
     */
    static Pair racing(Run failing, Diagnostic d, int a, int b, long from) {
        if (d == null || d.code() != DiagnosticCode.RACE || d.threads().size() < 2) return null;
        int w0 = d.threads().get(0) >> 5;
        int w1 = d.threads().get(1) >> 5;
        if (w0 == w1 || !((w0 == a && w1 == b) || (w0 == b && w1 == a))) return null;
        Matcher m = STEP.matcher(d.message());
        long[] steps = new long[2];
        for (int i = 0; i < 2; i++) {
            if (!m.find()) return null;
            steps[i] = Long.parseLong(m.group(1));
        }
        Touch first = at(failing, steps[0], w0);
        Touch second = at(failing, steps[1], w1);
        // Both after the decision: a racing access that came before it was not reordered by it.
        return first != null && second != null && from <= first.step && first.step < second.step ? new Pair(first, second) : null;
    }

    private static Touch at(Run r, long step, int warp) {
        for (Touch t : r.touches) if (t.step == step && t.warp == warp) return t;
        return null;
    }
}
