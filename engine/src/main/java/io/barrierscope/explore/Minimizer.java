package io.barrierscope.explore;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.ptx.Instruction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shrinks a finding's schedule by delta debugging (Zeller's ddmin) over its non-default
 * decisions: a candidate is a subset of them, replayed from the start with every other decision
 * taking the default; it is kept when the run still ends in the finding's cause. Removing a
 * decision shifts which decision a later entry lands on, so candidates are replayed leniently (an
 * entry that no longer fits is dropped) and a kept candidate is replaced by the decisions its run
 * really took. The result is 1-minimal: no single decision can be dropped, and no two neighbouring
 * decisions can be replaced by the later one taken earlier (see {@link #merge}).
 */
final class Minimizer {
    /** Replays a schedule from the start; false when a limit or cancel cut the replay. */
    interface Replayer {
        boolean replay(Schedule s);
    }

    /** Told after each candidate replay: replays done so far for this finding, and its replay budget. */
    interface Progress {
        void replayed(int replays, int budget);
    }

    private final Interpreter x;
    private final SchedulePolicy policy;
    private Progress progress;
    private int budget;
    private final Replayer replayer;
    private final long maxSteps;
    private int replays;
    private boolean cut;
    /** The footprint collector on {@code x}'s machine (null: explanations by visible instruction only). */
    private StepFootprints footprints;

    Minimizer(Interpreter x, SchedulePolicy policy, Replayer replayer, long maxSteps) {
        this.x = x;
        this.policy = policy;
        this.replayer = replayer;
        this.maxSteps = maxSteps;
    }

    /** Lets explanations name the steps that conflict (see {@link #explain}); {@code f} must be installed on the machine replayed. */
    Minimizer explainWith(StepFootprints f) {
        footprints = f;
        return this;
    }

    /** Sets who is told of each candidate replay (null: nobody). */
    void onProgress(Progress p) { progress = p; }

    /**
     * Minimises {@code found} for {@code cause}, replaying at most {@code maxReplays} schedules and
     * stopping when {@code over} says the time is up (checked between replays).
     */
    Minimization minimize(Schedule found, String cause, int maxReplays, BooleanSupplier over) {
        replays = 0;
        budget = maxReplays;
        cut = false;
        int foundPreemptions = preemptions(found);
        Schedule c = found;
        boolean complete = true;
        // The default run is replayed (and counted) once: its number of decisions bounds the single-decision pass.
        long[] defaultDecisions = {0};
        Schedule empty = test(Schedule.EMPTY, cause,
                (idx, kind, def, chosen, preemption) -> defaultDecisions[0] = Math.max(defaultDecisions[0], idx + 1));
        if (empty != null) {
            c = empty;
        } else {
            while (true) {
                while (true) {
                    Schedule d = ddmin(c, cause, maxReplays, over);
                    if (d == null) {
                        c = best;
                        complete = false;
                        break;
                    }
                    c = d;
                    Schedule merged = merge(c, cause, maxReplays, over);
                    if (merged == null) {
                        complete = !spent(maxReplays, over);
                        break;
                    }
                    c = merged;
                }
                if (complete && c.size() >= 2) {
                    Schedule one = alone(c, defaultDecisions[0], cause, maxReplays, over);
                    if (one != null) c = one;
                }
                if (!complete) break;
                // The size is minimal; among schedules of that size prefer fewer preemptions. A schedule
                // it finds goes through the passes above again (each round lowers size, then preemptions).
                Schedule fewer = fewerPreemptions(c, cause, maxReplays, over);
                if (fewer == null) break;
                c = fewer;
            }
        }
        List<Minimization.Decision> decisive = new ArrayList<>();
        long[] failing = {-1};
        int minimalPreemptions = explain(c, cause, decisive, failing, over);
        return new Minimization(c, found.size(), c.size(), foundPreemptions, minimalPreemptions, decisive, complete && !cut,
                replays, failing[0]);
    }

    /** Candidate schedules kept so far by {@link #ddmin}, when it is cut short (null return). */
    private Schedule best;

    /**
     * ddmin: drops chunks, then complements, of ever finer splits until no single decision can be
     * dropped. Returns the 1-minimal schedule, or null when a budget cut it ({@link #best} then holds
     * the smallest kept so far).
     */
    private Schedule ddmin(Schedule c, String cause, int maxReplays, BooleanSupplier over) {
        best = c;
        int n = 2;
        while (c.size() >= 2) {
            if (spent(maxReplays, over)) return null;
            List<Schedule> chunks = ScheduleCuts.split(c, n);
            Schedule kept = null;
            if (n > 2) { // with two chunks, each is the other's complement: tried below
                for (int i = 0; i < chunks.size() && kept == null && replays < maxReplays && !cut; i++) kept = test(chunks.get(i), cause);
                if (kept != null) {
                    c = best = kept;
                    n = 2;
                    continue;
                }
            }
            for (int i = 0; i < chunks.size() && kept == null && replays < maxReplays && !cut; i++) {
                kept = test(ScheduleCuts.without(c, chunks.get(i)), cause);
            }
            if (kept != null) {
                c = best = kept;
                n = Math.max(n - 1, 2);
                continue;
            }
            if (replays >= maxReplays || cut) return null;
            if (n >= c.size()) break;
            n = Math.min(2 * n, c.size());
        }
        return c;
    }

    /**
     * Dropping a decision shifts the ones after it, so ddmin can end at two decisions where one
     * at an earlier point would do (warp 2 then warp 1 first, where warp 1 first alone fails the
     * same way). Tries, for each pair of neighbouring decisions, the later one alone at each point
     * from just after the decision before the pair up to its own. Returns the first such shorter
     * schedule that still fails the same way, or null.
     */
    private Schedule merge(Schedule c, String cause, int maxReplays, BooleanSupplier over) {
        for (int j = 1; j < c.size(); j++) {
            long from = j >= 2 ? c.index(j - 2) + 1 : 0;
            for (long d = from; d < c.index(j); d++) {
                if (d == c.index(j - 1)) continue; // that one is the pair itself with its first decision changed: tried as a drop
                if (spent(maxReplays, over)) return null;
                Schedule kept = test(ScheduleCuts.moved(c, j, d), cause);
                if (kept != null && kept.size() < c.size()) return kept;
            }
        }
        return null;
    }

    /**
     * ddmin and {@link #merge} move a decision only to earlier points, but once the decisions
     * before it are dropped, the point where it matters can come at a later index of the default
     * run (a random schedule that first diverted a warp at an initialising branch, then made the
     * decisive switch: 4 decisions, each needed where it stands, where the switch alone at its own
     * point of the default run fails the same way). Tries each decision of {@code c} (kind and value)
     * alone at each of the default run's {@code decisions}, in order; returns the first that fails
     * the same way (one decision), or null. A budget or clock that runs out leaves {@code c} as it
     * is: it is 1-minimal already.
     */
    private Schedule alone(Schedule c, long decisions, String cause, int maxReplays, BooleanSupplier over) {
        boolean wasCut = cut;
        for (long d = 0; d < decisions; d++) {
            for (int j = 0; j < c.size(); j++) {
                if (spent(maxReplays, over)) {
                    cut = wasCut; // c stays, 1-minimal; only the extra search was cut
                    return null;
                }
                if (seenBefore(c, j)) continue;
                Schedule kept = test(new Schedule(new long[] {d}, new char[] {c.kind(j)}, new long[] {c.value(j)}), cause);
                if (kept != null && kept.size() == 1) return kept;
            }
        }
        return null;
    }

    /**
     * The tie-break of {@link FewerPreemptions}: a schedule of no more decisions than {@code c}, with
     * fewer preemptions, that ends in the same cause, or null. A budget or clock that runs out
     * leaves {@code c} as it is (minimal in size already, still complete).
     */
    private Schedule fewerPreemptions(Schedule c, String cause, int maxReplays, BooleanSupplier over) {
        boolean wasCut = cut;
        Schedule fewer = new FewerPreemptions(x, policy, this).find(c, cause, maxReplays, over);
        cut = wasCut;
        return fewer;
    }

    /** Whether an entry before {@code j} has the same kind and value (the same single decision to try). */
    private static boolean seenBefore(Schedule c, int j) {
        for (int i = 0; i < j; i++) if (c.kind(i) == c.kind(j) && c.value(i) == c.value(j)) return true;
        return false;
    }

    /** Replays {@code s} leniently; the decisions its run took if it still ends in {@code cause}, else null. */
    private Schedule test(Schedule s, String cause) { return test(s, cause, null); }

    /** {@link #test}, telling {@code o} (when not null) of each decision of the replay. */
    private Schedule test(Schedule s, String cause, SchedulePolicy.DecisionObserver o) {
        return replayLeniently(s, o) && met(cause) ? policy.taken() : null;
    }

    /**
     * Replays {@code s} leniently, against the budget, telling {@code o} (when not null) of each
     * decision; false (and the minimisation cut) when a limit or cancel cut the replay.
     */
    boolean replayLeniently(Schedule s, SchedulePolicy.DecisionObserver o) {
        replays++;
        policy.lenient(true);
        if (o != null) policy.observe(o);
        boolean whole;
        try {
            whole = replayer.replay(s);
        } finally {
            policy.lenient(false);
            if (o != null) policy.observe(null);
        }
        if (progress != null) progress.replayed(replays, budget);
        if (!whole) cut = true;
        return whole;
    }

    /** Candidate replays of the current minimisation so far. */
    int replays() { return replays; }

    /** Whether the run just replayed ended in {@code cause}. */
    boolean met(String cause) { return Causes.met(x, maxSteps, cause); }

    /** Whether the budget, the clock or a cut replay leaves no room for another candidate. */
    boolean spent(int maxReplays, BooleanSupplier over) { return cut || replays >= maxReplays || over.getAsBoolean(); }

    private int preemptions(Schedule s) {
        int[] n = {0};
        policy.observe((idx, kind, def, chosen, preemption) -> {
            if (preemption) n[0]++;
        });
        try {
            replayer.replay(s);
        } finally {
            policy.observe(null);
        }
        return n[0];
    }

    /**
     * Replays the minimal schedule and says what each of its decisions did; returns its preemptions
     * and puts in {@code failing[0]} the step its replay fails at with {@code cause} (-1 when the
     * replay was cut or ended otherwise). Its replays without each decision stop when {@code over}
     * says the time is up.
     */
    private int explain(Schedule s, String cause, List<Minimization.Decision> out, long[] failing, BooleanSupplier over) {
        // Each warp decision's run without it, to find the pair of steps it reordered (see DecisivePair); before the observer below.
        Map<Long, DecisivePair.Run> without = footprints != null ? DecisivePair.withoutEach(s, footprints, x, policy, replayer, over) : Map.of();
        int[] n = {0};
        Machine m = x.machine();
        List<WarpSwitch> switches = new ArrayList<>();
        List<Object> order = new ArrayList<>(); // WarpSwitch or a finished Decision, in decision order
        // Each warp's last step that touched what another warp can see (see WarpSwitch#defaultNeverTouched).
        int[] lastPc = new int[m.warps];
        StepFootprints.Footprint[] lastFp = new StepFootprints.Footprint[m.warps];
        policy.observe((idx, kind, def, chosen, preemption) -> {
            if (preemption) n[0]++;
            if (chosen == def) return;
            String text;
            long step;
            switch (kind) {
                case SchedulePolicy.WARP -> {
                    int d = afterExit(m, (int) def, (int) chosen);
                    WarpSwitch w = new WarpSwitch(idx, (int) chosen, d, lanePc(m, (int) chosen, -1), lanePc(m, d, -1), m.steps);
                    if (d >= 0 && d < lastFp.length) {
                        w.defPrevPc = lastPc[d];
                        w.defPrevFp = lastFp[d];
                    }
                    switches.add(w);
                    order.add(w);
                    return;
                }
                case SchedulePolicy.GROUP -> {
                    step = m.steps;
                    int w = policy.currentWarp();
                    text = warp(m, w) + "'s lanes at " + insn(m, lanePc(m, w, (int) chosen)) + " ran before its lanes at "
                            + insn(m, lanePc(m, w, (int) def));
                }
                case SchedulePolicy.LATENCY -> {
                    step = m.steps - 1;
                    int w = policy.currentWarp();
                    text = "the asynchronous copy of " + warp(m, w) + "'s " + insn(m, lanePc(m, w, -1)) + " took " + chosen
                            + " cycles instead of " + def;
                }
                default -> {
                    step = m.steps - 1;
                    int w = policy.currentWarp();
                    text = warp(m, w) + "'s " + insn(m, lanePc(m, w, -1)) + " returned false early";
                }
            }
            order.add(new Minimization.Decision(idx, step, kind, text + " (step " + step + ")"));
        });
        StepFootprints f = footprints;
        DecisivePair.Run failRun = f != null ? new DecisivePair.Run(f, true) : null;
        long[] ctaExit = new long[m.ctas]; // the step each CTA's last warp exited at, or -1
        Arrays.fill(ctaExit, -1);
        ExecutionListener visibleSteps = new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                int cta = m.ctaOfWarp(warp);
                if (ctaExit[cta] < 0 && m.memory.ctaExited[cta]) ctaExit[cta] = step;
                StepFootprints.Footprint fp = f != null ? f.footprint() : null;
                if (f != null) failRun.add(warp, pc, step, f.taggedFootprint());
                if (f != null) f.begin();
                boolean touches = fp == null || fp.all() || fp.keys().length > 0;
                if (fp != null && touches) {
                    lastPc[warp] = pc;
                    lastFp[warp] = fp;
                }
                if (switches.isEmpty() || !SchedulePolicy.isVisible(x.op(pc))) return;
                for (WarpSwitch w : switches) {
                    if (fp == null) {
                        // No footprints: the first visible instruction of each.
                        if (!w.chosenSeen && w.chosen == warp) {
                            w.chosenSeen = true;
                            w.chosenPc = pc;
                            w.chosenStep = step;
                        }
                        if (!w.defSeen && w.def == warp) {
                            w.defSeen = true;
                            w.defPc = pc;
                        }
                        continue;
                    }
                    if (!touches || w.defSeen) continue;
                    if (w.chosen == warp) {
                        w.ran.add(new long[] {pc, step});
                        w.ranFp.add(fp);
                    } else if (w.def == warp) {
                        w.defaultTouched(pc, fp);
                    }
                }
                switches.removeIf(w -> fp == null ? w.chosenSeen && w.defSeen : w.defSeen);
            }
        };
        x.addListener(visibleSteps);
        if (failRun != null) x.addListener(failRun);
        if (f != null) {
            f.tagging(true);
            f.begin();
        }
        try {
            if (replayer.replay(s)) {
                for (Causes.Cause c : Causes.of(x, maxSteps)) if (c.cause().equals(cause)) failing[0] = c.step();
            }
        } finally {
            if (f != null) {
                f.stop();
                f.tagging(false);
            }
            x.removeListener(visibleSteps);
            if (failRun != null) x.removeListener(failRun);
            policy.observe(null);
        }
        if (f != null) {
            for (WarpSwitch w : switches) if (!w.defSeen) w.defaultNeverTouched(this::objectKind, this::nextOnPath);
        }
        Diagnostic afterExit = cause.startsWith(DiagnosticCode.DSMEM_AFTER_EXIT.code() + "@") ? diagnostic(cause) : null;
        Diagnostic found = f != null ? diagnostic(cause) : null;
        for (Object o : order) {
            String exited = o instanceof WarpSwitch w && afterExit != null ? exitedFirst(m, w, afterExit, ctaExit) : null;
            DecisivePair.Pair pair = null;
            if (exited == null && o instanceof WarpSwitch w && failRun != null) {
                pair = DecisivePair.racing(failRun, found, w.chosen, w.def, w.at);
                DecisivePair.Run base = without.get(w.index);
                if (pair == null && base != null) pair = DecisivePair.differing(failRun, base, w.chosen, w.def, w.at);
            }
            if (exited != null) {
                out.add(new Minimization.Decision(((WarpSwitch) o).index, ((WarpSwitch) o).at, SchedulePolicy.WARP, exited));
            } else if (pair != null) {
                out.add(new Minimization.Decision(((WarpSwitch) o).index, pair.first().step(), SchedulePolicy.WARP,
                        reordered(m, (WarpSwitch) o, pair)));
            } else if (o instanceof WarpSwitch w) {
                out.add(new Minimization.Decision(w.index, w.chosenStep, SchedulePolicy.WARP, warp(m, w.chosen) + " ran its "
                        + insn(m, w.chosenPc) + " before " + warp(m, w.def) + "'s " + insn(m, w.defPc) + " (step " + w.chosenStep + ")"));
            } else {
                out.add((Minimization.Decision) o);
            }
        }
        return n[0];
    }

    /**
     * A warp decision named by the pair of steps it reordered: the chosen warp's step before the
     * default warp's, or (a decision that let the other warp arrive last, say) the default warp's
     * step before the chosen warp's, because of it.
     */
    private String reordered(Machine m, WarpSwitch w, DecisivePair.Pair p) {
        String pair = warp(m, p.first().warp()) + " ran its " + insn(m, p.first().pc()) + " before " + warp(m, p.second().warp())
                + "'s " + insn(m, p.second().pc()) + " (step " + p.first().step() + ")";
        if (p.first().warp() == w.chosen) return pair;
        return warp(m, w.chosen) + " ran instead of " + warp(m, w.def) + " (step " + w.at + "), so " + pair;
    }

    /** The diagnostic of the run just replayed whose cause is {@code cause}, or null. */
    private Diagnostic diagnostic(String cause) {
        for (Diagnostic d : x.diagnostics()) if (Causes.key(d).equals(cause)) return d;
        return null;
    }

    private static final Pattern RANK = Pattern.compile("cluster rank (\\d+)");

    /**
     * For a {@code dsmem-after-exit}, what matters is not which access ran before which but that the
     * peer CTA was gone when the access landed. A warp decision says so in either direction: its
     * chosen warp is in the CTA the access named (its cluster rank, where the message gives one)
     * and ran on to that CTA's exit; or the decision held the accessing warp back (the default would
     * have run it, another warp ran instead) and the named CTA exited after the decision, before
     * the access. Which CTA exited first, at which step, and whose access came too late. Null when
     * the decision is neither (the pair of steps then names it).
     */
    private String exitedFirst(Machine m, WarpSwitch w, Diagnostic d, long[] ctaExit) {
        if (d.threads().isEmpty() || d.ptxLocations().isEmpty()) return null;
        int accWarp = d.threads().get(0) >> 5;
        int cta = m.ctaOfWarp(w.chosen), accCta = m.ctaOfWarp(accWarp);
        int[] members = m.memory.clusterMembers[accCta];
        Matcher r = RANK.matcher(d.message());
        int named = r.find() ? Integer.parseInt(r.group(1)) : -1;
        int target = named >= 0 && named < members.length ? members[named] : -1;
        int line = d.ptxLocations().get(0).line(), accPc = -1;
        for (int pc = 0; pc < m.program.code.length && accPc < 0; pc++) {
            if (x.op(pc) != null && x.op(pc).insn != null && x.op(pc).insn.pos().line() == line) accPc = pc;
        }
        String access = warp(m, accWarp) + "'s " + insn(m, accPc);
        if (cta != accCta && ctaExit[cta] >= 0 && ctaExit[cta] <= d.step() && Arrays.stream(members).anyMatch(c -> c == cta)
                && (named < 0 || named == m.rankOf(cta))) {
            // The chosen warp's CTA ran ahead to its exit.
            return "cluster rank " + m.rankOf(cta) + " (CTA " + cta + ") exited at step " + ctaExit[cta] + ", before " + access
                    + " reached rank " + m.rankOf(cta) + "'s shared memory at step " + d.step() + ": " + warp(m, w.chosen)
                    + " ran on instead of " + warp(m, w.def) + " (step " + w.at + ")";
        }
        if (w.def == accWarp && target >= 0 && target != accCta && cta != target && ctaExit[target] >= w.at
                && ctaExit[target] <= d.step()) {
            // The other direction: the accessing warp was held back while the named CTA went on to exit.
            return warp(m, w.chosen) + " ran instead of " + warp(m, accWarp) + " (step " + w.at + "), holding back " + access
                    + ": cluster rank " + named + " (CTA " + target + ") exited at step " + ctaExit[target]
                    + " before it reached rank " + named + "'s shared memory at step " + d.step();
        }
        if (cta == accCta && target >= 0 && target != accCta && m.ctaOfWarp(w.def) == target && ctaExit[target] >= w.at
                && ctaExit[target] <= d.step()) {
            // A free choice for the accessing CTA's warp first (it then waits, say at a cluster barrier) where the default
            // ran the named CTA's warp: that CTA, arriving last, ran on to its exit.
            return "cluster rank " + named + " (CTA " + target + ") exited at step " + ctaExit[target] + ", before " + access
                    + " reached rank " + named + "'s shared memory at step " + d.step() + ": " + warp(m, w.chosen)
                    + " ran first instead of " + warp(m, w.def) + " (step " + w.at + ")";
        }
        return null;
    }

    /**
     * The warp the default schedule runs in {@code def}'s place: {@code def} itself, unless its next
     * instruction ends it (then the default switches to the next runnable warp after it in warp
     * order, and the decision swapped the chosen warp's steps with that warp's, not with an exit).
     */
    private int afterExit(Machine m, int def, int chosen) {
        if (def < 0 || def >= m.warps || !endsWarp(m, def)) return def;
        for (int i = 1; i < m.warps; i++) {
            int w = (def + i) % m.warps;
            if (m.runMask[w] != 0) return w == chosen ? def : w;
        }
        return def;
    }

    /**
     * Whether {@code w}'s next step ends its run: every runnable lane stands at the same
     * {@code ret}, {@code exit} or {@code trap} and passes its guard. A guarded {@code @p ret} that
     * no lane (or only some lanes) takes leaves the warp running, so the default schedule would go
     * on with it, not with the next warp.
     */
    private boolean endsWarp(Machine m, int w) {
        int pc = lanePc(m, w, -1);
        if (!endsThread(pc)) return false;
        Op op = pc >= 0 && pc < m.program.code.length ? x.op(pc) : null;
        if (op == null || op.insn == null) return true;
        for (int g = m.runMask[w]; g != 0; g &= g - 1) {
            int slot = (w << 5) + Integer.numberOfTrailingZeros(g);
            if (m.pc[slot] != pc) return false; // another group of the warp runs on
            if (op.guardReg >= 0 && m.regs[m.regIndex(slot, op.guardReg)] != (op.guardNegated ? 0 : 1)) return false; // guard false: stays
        }
        return true;
    }

    /** Whether the instruction at {@code pc} ends the thread or leaves its function (a static look-ahead stops there). */
    private boolean endsThread(int pc) {
        if (pc < 0 || pc >= x.machine().program.code.length || x.op(pc) == null || x.op(pc).insn == null) return true;
        return x.op(pc).flow() == Op.FLOW_LEAVE; // exit, ret, trap
    }

    /**
     * The instruction a warp at {@code pc} may run next: an unconditional branch's target (the code
     * it jumps over never runs), else {@code pc + 1} (past a guarded branch some lanes may fall
     * through: an {@code if (lane == 0)} around an arrive); -1 at the end of the thread or an
     * indirect branch.
     */
    int nextOnPath(int pc) {
        if (endsThread(pc)) return -1;
        Op op = x.op(pc);
        String opcode = op.insn.opcode();
        if (opcode.equals("brx")) return -1;
        if (op.flow() == Op.FLOW_BRANCH && op.insn.guard() == null) return op.branchTarget();
        return pc + 1;
    }

    /** What kind of object the instruction at {@code pc} synchronizes or communicates through, or null. */
    private String objectKind(int pc) {
        if (pc < 0 || pc >= x.machine().program.code.length || x.op(pc) == null || x.op(pc).insn == null) return null;
        Instruction in = x.op(pc).insn;
        return switch (in.opcode()) {
            // bar.warp.sync (__syncwarp) orders the warp's own lanes only: not an object another warp meets.
            case "bar", "barrier" -> in.has(".warp") ? null : in.has(".cluster") ? "cluster barrier" : "barrier";
            case "mbarrier" -> "mbarrier";
            case "ld", "st", "ldu", "atom", "red" -> in.has(".shared") ? "shared" : in.has(".global") ? "global"
                    : in.has(".local") || in.has(".param") || in.has(".const") ? null : "memory";
            case "fence", "membar" -> "fence";
            default -> null;
        };
    }

    private static String warp(Machine m, int w) {
        if (w < 0) return "a warp";
        return m.ctas > 1 ? "CTA " + m.ctaOfWarp(w) + " warp " + m.warpInCta(w) : "warp " + w;
    }

    /** The pc of {@code lane} of warp {@code w}, or of its lowest runnable (else live) lane when {@code lane} < 0. */
    static int lanePc(Machine m, int w, int lane) {
        if (w < 0) return -1;
        if (lane < 0) {
            int mask = m.runMask[w] != 0 ? m.runMask[w] : m.liveMask[w];
            if (mask == 0) return -1;
            lane = Integer.numberOfTrailingZeros(mask);
        }
        return m.pc[(w << 5) + lane];
    }

    private String insn(Machine m, int pc) {
        if (pc < 0 || pc >= m.program.code.length || x.op(pc) == null || x.op(pc).insn == null) return "next instruction";
        Instruction in = x.op(pc).insn;
        return "`" + in.text().strip().replaceAll("\\s+", " ") + "` (line " + in.pos().line() + ")";
    }
}
