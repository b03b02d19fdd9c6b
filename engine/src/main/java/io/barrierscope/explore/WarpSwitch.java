package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.List;

/**
 * A warp decision being explained: the chosen and the default warp, and which instruction of
 * each to name. The chosen warp runs local instructions first without a new decision, so its
 * pc at the decision may be a plain add; named instead is the default warp's first step that
 * touches what another warp can see (a word, a barrier, an mbarrier, a fence), and the first
 * step the chosen warp ran before it that conflicts with it (the pair whose order the
 * decision swapped), else the chosen warp's first such step, else its first visible one. A
 * default step that conflicts with nothing the chosen warp ran (its own __syncwarp, a load of
 * its own input) is passed over for its next touching steps, up to {@link #LOOK_AHEAD} of them,
 * before falling back to the first.
 */
final class WarpSwitch {
    /** Touching steps of the default warp searched for one that conflicts with the chosen warp's. */
    static final int LOOK_AHEAD = 8;
    /** Instructions after a default warp's pc searched when it never ran again (see {@link #defaultNeverTouched}). */
    static final int STATIC_LOOK_AHEAD = 24;

    final long index;
    final int chosen;
    final int def;
    /** The step the chosen warp ran at the decision (before the instruction named, which may come later). */
    final long at;
    int chosenPc;
    int defPc;
    long chosenStep;
    boolean chosenSeen;
    boolean defSeen;
    /** The chosen warp's touching steps before the default warp's: pc, step, footprint. */
    final List<long[]> ran = new ArrayList<>();
    final List<StepFootprints.Footprint> ranFp = new ArrayList<>();
    /** The default warp's last touching step before the decision (pc, footprint), for a poll it would repeat. */
    int defPrevPc = -1;
    StepFootprints.Footprint defPrevFp;

    WarpSwitch(long index, int chosen, int def, int chosenPc, int defPc, long step) {
        this.index = index;
        this.chosen = chosen;
        this.def = def;
        this.chosenPc = chosenPc;
        this.defPc = defPc;
        this.chosenStep = step;
        this.at = step;
    }

    /** The default warp's first touching step that conflicted with nothing, or -1; and how many were passed over. */
    int firstDefPc = -1;
    int passedOver;

    /** The default warp's touching step came: name the first chosen step that conflicts with it. */
    void defaultTouched(int pc, StepFootprints.Footprint fp) {
        int i = conflicting(fp);
        if (i >= 0) {
            defSeen = true;
            defPc = pc;
            name(i);
            chosenSeen = true;
            return;
        }
        if (firstDefPc < 0) firstDefPc = pc;
        if (++passedOver >= LOOK_AHEAD) settleOnFirst();
    }

    /** No default step within the look-ahead conflicted: the first one, with the chosen warp's first touching step. */
    void settleOnFirst() {
        defSeen = true;
        defPc = firstDefPc;
        nameConflicting(null);
    }

    /**
     * The default warp never touched anything again (the chosen warp ran on to the failure). When
     * it stood at the instruction it last ran (a wait or poll loop), that step stands for the one
     * it would have run; else the first chosen step on the same kind of object as the default
     * warp's next instruction ({@code kindOf}: a CTA barrier, an mbarrier, shared or global
     * memory); else the chosen warp's first touching step.
     */
    void defaultNeverTouched(java.util.function.IntFunction<String> kindOf, java.util.function.IntUnaryOperator next) {
        if (firstDefPc >= 0) {
            settleOnFirst();
            return;
        }
        if (defPrevFp != null && defPrevPc == defPc) {
            nameConflicting(defPrevFp);
            return;
        }
        // The default warp's next instructions on its path (it stood at a warp-local __syncwarp or a load of its own
        // input): the first on a kind of object a chosen step touched, named with that step.
        for (int pc = defPc, n = 0; pc >= 0 && n < STATIC_LOOK_AHEAD; pc = next.applyAsInt(pc), n++) {
            String k = kindOf.apply(pc);
            for (int i = 0; k != null && i < ran.size(); i++) {
                if (sameKind(k, kindOf.apply((int) ran.get(i)[0]))) {
                    defPc = pc;
                    name(i);
                    return;
                }
            }
        }
        nameConflicting(null);
    }

    /** Same kind of object; a generic access ("memory": shared, DSMEM or global, known only at run time) matches either. */
    private static boolean sameKind(String a, String b) {
        if (b == null) return false;
        if (a.equals(b)) return true;
        boolean memA = a.equals("memory") || a.equals("shared") || a.equals("global");
        boolean memB = b.equals("memory") || b.equals("shared") || b.equals("global");
        return memA && memB && (a.equals("memory") || b.equals("memory"));
    }

    private void nameConflicting(StepFootprints.Footprint fp) {
        int i = fp != null ? conflicting(fp) : -1;
        if (i < 0 && !ran.isEmpty()) i = 0;
        if (i >= 0) {
            name(i);
            chosenSeen = true;
        }
    }

    /** The first of the chosen warp's touching steps that conflicts with {@code fp}, or -1. */
    private int conflicting(StepFootprints.Footprint fp) {
        for (int i = 0; i < ran.size(); i++) if (ranFp.get(i).dependent(fp)) return i;
        return -1;
    }

    /** Names the chosen warp's {@code i}-th touching step. */
    private void name(int i) {
        chosenPc = (int) ran.get(i)[0];
        chosenStep = ran.get(i)[1];
    }
}
