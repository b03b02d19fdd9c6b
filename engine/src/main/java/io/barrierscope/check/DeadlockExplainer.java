package io.barrierscope.check;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.sync.BarrierRefs;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierOp;
import io.barrierscope.sync.MbarrierWaitOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the wait-for explanation of a deadlocked machine: every blocked group (threads of one
 * warp waiting at one PC in one state), what it waits for, which threads are missing and where
 * each of them is, and a cycle among warps if there is one.
 */
public final class DeadlockExplainer {
    private DeadlockExplainer() {}

    public static Deadlock explain(Interpreter x) {
        Machine m = x.machine();
        List<Deadlock.Wait> waits = new ArrayList<>();
        Map<Integer, List<Integer>> edges = new LinkedHashMap<>();
        for (int w = 0; w < m.warps; w++) {
            Map<Long, Integer> groups = new LinkedHashMap<>();
            for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
                int lane = Integer.numberOfTrailingZeros(l);
                int s = (w << 5) + lane;
                byte st = m.status[s];
                if (st == ThreadStatus.RUNNABLE) continue;
                long key = ((long) st << 40) | ((long) m.pc[s] << 8) | 0;
                groups.merge(key, 1 << lane, (a, b) -> a | b);
            }
            for (Map.Entry<Long, Integer> g : groups.entrySet()) {
                waits.add(explainGroup(x, w, g.getValue(), edges));
            }
        }
        return new Deadlock(waits, findCycle(m, edges));
    }

    private static Deadlock.Wait explainGroup(Interpreter x, int w, int lanes, Map<Integer, List<Integer>> edges) {
        Machine m = x.machine();
        int s0 = (w << 5) + Integer.numberOfTrailingZeros(lanes);
        int pc = m.pc[s0];
        Instruction in = x.op(pc).insn;
        String who = m.warpName(w) + " " + lanesText(lanes, m.liveMask[w]);
        String loc = location(in);
        List<Deadlock.Missing> missing = new ArrayList<>();
        String on;
        String needs;
        BarrierRef onFacts;
        Deadlock.Needs needsFacts;
        byte st = m.status[s0];
        int cta = m.ctaOfWarp(w);
        if (st == ThreadStatus.BAR_GATHER || st == ThreadStatus.BAR_WAIT) {
            int id = m.waitArg[s0];
            CtaBarrier b = m.ctaBarriers[cta].get(id);
            on = "CTA barrier " + id + " of CTA " + m.grid.unflatten(cta) + " (generation " + b.generation + ")";
            onFacts = BarrierRefs.ctaBarrier(m, cta, id, on);
            if (st == ThreadStatus.BAR_GATHER) {
                int there = gathered(m, w);
                int others = m.liveMask[w] & ~there;
                needs = "the rest of its warp to reach a barrier instruction (arrival is per warp); "
                        + Integer.bitCount(others) + " lane(s) have not:";
                needsFacts = Deadlock.Needs.count("lanes", Integer.bitCount(m.liveMask[w]), Integer.bitCount(there));
                addMissingLanes(x, w, others, missing);
            } else {
                // The count as the program wrote it (kept so, even past 2^31).
                long written = b.writtenCount();
                int expected = written > 0 ? (int) ((written + 31) / 32) : b.warpsNeeded(m.liveWarps[cta]);
                needsFacts = new Deadlock.Needs("warps", expected, b.arrivedCount(), written > 0 ? Long.valueOf(written) : null,
                        m.warpsPerCta, null, null, null, null, null);
                needs = expected + " warps to arrive" + (written > 0 ? " (count " + written + " threads)" : " (every warp with live threads)")
                        + ": " + b.arrivedCount() + " of " + expected + " have arrived, " + Math.max(0, expected - b.arrivedCount())
                        + " more needed. Warps not arrived:";
                int w0 = m.firstWarpOfCta(cta);
                for (int k = 0; k < m.warpsPerCta; k++) {
                    int ow = w0 + k;
                    if ((b.arrivedWarps & (1 << k)) == 0 && m.liveMask[ow] != 0) {
                        edges.computeIfAbsent(w, q -> new ArrayList<>()).add(ow);
                    }
                }
                missing.addAll(ctaBarrierNotArrived(x, cta, id));
                if (missing.isEmpty()) missing.add(new Deadlock.Missing("(none)", "every warp of the CTA has arrived", null));
                if (b.hasCount() && expected > m.warpsPerCta) {
                    needs += " (the CTA has only " + m.warpsPerCta + " warps, so the count can never be reached)";
                }
            }
        } else if (st == ThreadStatus.CLUSTER_WAIT || st == ThreadStatus.CLUSTER_GATHER) {
            ClusterBarrier cb = m.clusterBarriers[cta];
            on = "barrier.cluster of the cluster of CTA " + m.grid.unflatten(cb.firstCta) + " (phase " + cb.phase + ")";
            onFacts = BarrierRefs.clusterBarrier(m, cta, on);
            if (st == ThreadStatus.CLUSTER_GATHER) {
                int there = gatheredCluster(m, w);
                needs = "the rest of its warp to reach a barrier.cluster instruction; missing:";
                needsFacts = Deadlock.Needs.count("lanes", Integer.bitCount(m.liveMask[w]), Integer.bitCount(there));
                addMissingLanes(x, w, m.liveMask[w] & ~there, missing);
            } else {
                int live = io.barrierscope.sync.ClusterBarrierSync.liveThreads(m, cb);
                needs = "every non-exited thread of the cluster to arrive (" + cb.arrived + " of " + live + " have). Not arrived:";
                needsFacts = Deadlock.Needs.count("threads", live, cb.arrived);
                for (int c : m.memory.clusterMembers[cb.firstCta]) {
                    int w0 = m.firstWarpOfCta(c);
                    for (int ow = w0; ow < w0 + m.warpsPerCta; ow++) {
                        int absent = 0;
                        for (int l = m.liveMask[ow]; l != 0; l &= l - 1) {
                            int lane = Integer.numberOfTrailingZeros(l);
                            if (m.clusterArrivedPhase[(ow << 5) + lane] != cb.phase) absent |= 1 << lane;
                        }
                        if (absent == 0) continue;
                        addMissingLanes(x, ow, absent, missing);
                        if (ow != w) edges.computeIfAbsent(w, q -> new ArrayList<>()).add(ow);
                    }
                }
            }
        } else if (st == ThreadStatus.WARP_SYNC) {
            int mask = m.waitArg[s0];
            on = in.mnemonic() + " with membermask 0x" + Integer.toHexString(mask);
            int notThere = 0;
            for (int l = mask & m.existMask[w]; l != 0; l &= l - 1) {
                int lane = Integer.numberOfTrailingZeros(l);
                int s = (w << 5) + lane;
                if (!(m.status[s] == ThreadStatus.WARP_SYNC && m.waitArg[s] == mask)) notThere |= 1 << lane;
            }
            needs = "every member lane to reach a warp .sync instruction with the same mask; missing:";
            onFacts = BarrierRefs.warpSync(m, w, mask, on);
            int members = Integer.bitCount(mask & m.existMask[w]);
            needsFacts = Deadlock.Needs.count("lanes", members, members - Integer.bitCount(notThere));
            addMissingLanes(x, w, notThere, missing);
        } else if (st == ThreadStatus.PARKED || st == ThreadStatus.MBAR_WAIT) {
            Mbarrier b = m.mbarriers.get(m.waitValue[s0]);
            on = "mbarrier " + MbarrierOp.name(m, b.offset) + " of CTA " + m.grid.unflatten(b.cta);
            onFacts = BarrierRefs.mbarrier(m, b, on);
            needs = mbarrierNeeds(x, s0, b, in);
            needsFacts = mbarrierNeedsFacts(x, s0, b);
            if (b.pending == 0) {
                // No arrival is missing: other threads cannot help, only the bytes could.
                needs += " No arrival is missing: only the tx-count keeps the phase open, and no copy is in flight to change it.";
            } else {
                needs += notArrived(x, w, lanes, b, missing, edges);
            }
        } else {
            on = ThreadStatus.name(st);
            needs = "nothing it can get";
            onFacts = BarrierRef.other(on);
            needsFacts = Deadlock.Needs.none();
        }
        return new Deadlock.Wait(who, on, needs, missing, loc, in.pos().line(), in.loc() == null ? null : in.loc().toString(),
                group(m, w, lanes), onFacts, needsFacts, place(in));
    }

    /**
     * The warps of CTA {@code cta} that have not arrived on its barrier {@code id} in the open
     * generation, each with where it is: live warps always; exited warps only when the barrier
     * has an explicit count (then they are counted but can never arrive; without a count only
     * live warps are expected). Empty when every expected warp has arrived. The debugger's
     * barrier pane shows this same list, so it never disagrees with the explanation.
     */
    public static List<Deadlock.Missing> ctaBarrierNotArrived(Interpreter x, int cta, int id) {
        Machine m = x.machine();
        CtaBarrier b = m.ctaBarriers[cta].get(id);
        List<Deadlock.Missing> out = new ArrayList<>();
        int w0 = m.firstWarpOfCta(cta);
        for (int k = 0; k < m.warpsPerCta; k++) {
            int ow = w0 + k;
            if ((b.arrivedWarps & (1 << k)) != 0 || (m.liveMask[ow] == 0 && !b.hasCount())) continue;
            out.add((b.everArrivedWarps & (1 << k)) != 0 ? warpWhereabouts(x, ow, "exited after arriving on an earlier "
                    + "generation (it completed one; an exited warp does not arrive again)") : warpWhereabouts(x, ow));
        }
        return out;
    }

    /**
     * The threads of the mbarrier's CTA that have not arrived in its current phase (the waiting
     * group itself aside): exited warps, and live lanes grouped by where they are. Threads that
     * already arrived are left out (they may arrive again, but the usual bug is a count that
     * expects more arrivals than the threads that make them). Returns the sentence before the list.
     */
    private static String notArrived(Interpreter x, int w, int lanes, Mbarrier b, List<Deadlock.Missing> missing,
                                     Map<Integer, List<Integer>> edges) {
        Machine m = x.machine();
        int w0 = m.firstWarpOfCta(b.cta);
        int[] arrived = new int[m.warpsPerCta];
        int[] slots = b.arrivedThisPhase();
        int own = 0;
        for (int s : slots) {
            int ws = s >> 5;
            if (ws >= w0 && ws < w0 + m.warpsPerCta) {
                arrived[ws - w0] |= 1 << (s & 31);
                own++;
            }
        }
        int threads = 0;
        for (int a : arrived) threads += Integer.bitCount(a);
        String sentence = slots.length == 0 ? " No arrive-on yet this phase."
                : " " + slots.length + " arrive-on(s) this phase, by " + threads + " thread(s) of the CTA"
                + (slots.length > own ? " and " + (slots.length - own) + " from other CTAs of its cluster" : "") + ".";
        int before = missing.size();
        for (int ow = w0; ow < w0 + m.warpsPerCta; ow++) {
            int absent = m.liveMask[ow] & ~arrived[ow - w0] & (ow == w ? ~lanes : -1);
            int exited = m.existMask[ow] & ~m.liveMask[ow] & ~arrived[ow - w0];
            // Lanes that arrived in an earlier, completed phase and then exited did arrive: say so.
            int earlier = exited & b.arrivedBefore(ow - w0);
            if (earlier != 0) {
                missing.add(new Deadlock.Missing(m.warpName(ow) + " " + lanesText(earlier, m.existMask[ow]), "exited after arriving in an "
                        + "earlier phase (it helped complete one; an exited thread does not arrive again)", null, "exited",
                        group(m, ow, earlier), null));
            }
            exited &= ~earlier;
            if (m.liveMask[ow] == 0) {
                if (exited != 0) {
                    missing.add(exited == m.existMask[ow]
                            ? warpWhereabouts(x, ow, "exited without arriving (an exited thread never arrives on an mbarrier again)")
                            : new Deadlock.Missing(m.warpName(ow) + " " + lanesText(exited, m.existMask[ow]),
                            "exited without arriving (an exited thread never arrives on an mbarrier again)", null, "exited",
                            group(m, ow, exited), null));
                }
            } else {
                if (exited != 0) {
                    missing.add(new Deadlock.Missing(m.warpName(ow) + " " + lanesText(exited, m.existMask[ow]),
                            "exited without arriving (an exited thread never arrives on an mbarrier again)", null, "exited",
                            group(m, ow, exited), null));
                }
                if (absent != 0) {
                    addMissingLanes(x, ow, absent, missing);
                    if (ow != w) edges.computeIfAbsent(w, q -> new ArrayList<>()).add(ow);
                }
            }
        }
        if (missing.size() > before) return sentence + " Threads of the CTA that have not arrived:";
        String cluster = m.memory.clusterMembers[b.cta].length > 1
                ? " (only threads of the other CTAs of its cluster could still arrive, remotely)" : "";
        missing.add(new Deadlock.Missing("(none)", "every live thread of the CTA outside this wait has arrived this phase" + cluster
                + "; the expected count " + b.expected + " is more than the arrivals they give", null));
        return sentence + " Threads of the CTA that have not arrived:";
    }

    private static Deadlock.Needs mbarrierNeedsFacts(Interpreter x, int s, Mbarrier b) {
        Machine m = x.machine();
        MbarrierWaitOp op = (MbarrierWaitOp) x.op(m.pc[s]);
        Integer parity = op.isParity() ? (int) (op.operandValue(m, s) & 1) : null;
        return new Deadlock.Needs("arrivals", b.expected, b.expected - b.pending, null, null, b.phase, parity, b.tx,
                b.txExpected, b.txCompleted);
    }

    private static Deadlock.Group group(Machine m, int w, int lanes) {
        return new Deadlock.Group(m.grid.unflatten(m.ctaOfWarp(w)), m.warpInCta(w), lanes);
    }

    private static Deadlock.Place place(Instruction in) {
        return new Deadlock.Place(in.pos(), in.loc(), in.text());
    }

    /** A keyword for what a thread is doing, for the report's missing groups. */
    private static String statusKey(byte st) {
        return switch (st) {
            case ThreadStatus.BAR_GATHER, ThreadStatus.BAR_WAIT -> BarrierRef.CTA_BARRIER;
            case ThreadStatus.WARP_SYNC -> BarrierRef.WARP_SYNC;
            case ThreadStatus.CLUSTER_GATHER, ThreadStatus.CLUSTER_WAIT -> BarrierRef.CLUSTER_BARRIER;
            case ThreadStatus.PARKED, ThreadStatus.MBAR_WAIT -> BarrierRef.MBARRIER;
            case ThreadStatus.EXITED -> "exited";
            case ThreadStatus.SLEEPING -> "sleeping";
            case ThreadStatus.TRAPPED -> "trapped";
            case ThreadStatus.ASYNC_WAIT -> "async-wait";
            case ThreadStatus.RUNNABLE -> "runnable";
            default -> "unknown";
        };
    }

    private static String mbarrierNeeds(Interpreter x, int s, Mbarrier b, Instruction in) {
        Machine m = x.machine();
        MbarrierWaitOp op = (MbarrierWaitOp) x.op(m.pc[s]);
        long v = op.operandValue(m, s);
        String waitsFor = op.isParity()
                ? " (it waits with parity " + (v & 1) + "; the current phase has parity " + b.parity() + ")"
                : " (the phase of its state token)";
        StringBuilder sb = new StringBuilder("phase ").append(b.phase).append(" to complete").append(waitsFor)
                .append(". The mbarrier is in phase ")
                .append(b.phase).append(" with ").append(b.pending).append(" of ").append(b.expected)
                .append(" arrivals still pending and tx-count ").append(b.tx);
        if (b.pendingTxBytes() > 0) sb.append(" (").append(b.pendingTxBytes()).append(" bytes expected but not delivered)");
        if (b.tx < 0) sb.append(" (").append(-b.tx).append(" bytes delivered beyond what was expected: over-delivery)");
        if (b.txExpected != 0 || b.txCompleted != 0) {
            sb.append("; this phase expected ").append(b.txExpected).append(" bytes and ").append(b.txCompleted).append(" were delivered");
        }
        sb.append('.');
        if (b.pending > 0) sb.append(" ").append(b.pending).append(" more arrive-on(s) needed.");
        return sb.toString();
    }

    private static int gatheredCluster(Machine m, int w) {
        int g = 0;
        for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (m.status[(w << 5) + lane] == ThreadStatus.CLUSTER_GATHER) g |= 1 << lane;
        }
        return g;
    }

    private static int gathered(Machine m, int w) {
        int g = 0;
        for (int l = m.liveMask[w]; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            if (m.status[(w << 5) + lane] == ThreadStatus.BAR_GATHER) g |= 1 << lane;
        }
        return g;
    }

    private static void addMissingLanes(Interpreter x, int w, int lanes, List<Deadlock.Missing> out) {
        Machine m = x.machine();
        Map<Long, Integer> byPlace = new LinkedHashMap<>();
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = (w << 5) + lane;
            byPlace.merge(((long) m.status[s] << 32) | m.pc[s], 1 << lane, (a, b) -> a | b);
        }
        for (Map.Entry<Long, Integer> e : byPlace.entrySet()) {
            int s = (w << 5) + Integer.numberOfTrailingZeros(e.getValue());
            Instruction in = x.op(m.pc[s]).insn;
            out.add(new Deadlock.Missing(m.warpName(w) + " " + lanesText(e.getValue(), m.existMask[w]),
                    stateText(x, s), location(in), statusKey(m.status[s]), group(m, w, e.getValue()), place(in)));
        }
    }

    private static Deadlock.Missing warpWhereabouts(Interpreter x, int w) {
        return warpWhereabouts(x, w, "exited (exited threads never arrive on a barrier with an explicit count)");
    }

    private static Deadlock.Missing warpWhereabouts(Interpreter x, int w, String exitedText) {
        Machine m = x.machine();
        if (m.liveMask[w] == 0) {
            return new Deadlock.Missing(m.warpName(w), exitedText, null, "exited", group(m, w, m.existMask[w]), null);
        }
        int s = (w << 5) + Integer.numberOfTrailingZeros(m.liveMask[w]);
        Instruction in = x.op(m.pc[s]).insn;
        // The words name the warp by its first live lane's state; so do the facts.
        return new Deadlock.Missing(m.warpName(w), stateText(x, s), location(in), statusKey(m.status[s]),
                group(m, w, m.liveMask[w]), place(in));
    }

    private static String stateText(Interpreter x, int s) {
        Machine m = x.machine();
        byte st = m.status[s];
        return switch (st) {
            case ThreadStatus.BAR_GATHER, ThreadStatus.BAR_WAIT -> "blocked at CTA barrier " + m.waitArg[s];
            case ThreadStatus.WARP_SYNC -> "blocked at a warp .sync instruction (mask 0x" + Integer.toHexString(m.waitArg[s]) + ")";
            case ThreadStatus.CLUSTER_GATHER, ThreadStatus.CLUSTER_WAIT -> "blocked at barrier.cluster (" + m.clusterBarriers[m.ctaOfSlot(s)] + ")";
            case ThreadStatus.PARKED, ThreadStatus.MBAR_WAIT -> {
                Mbarrier b = m.mbarriers.get(m.waitValue[s]);
                yield "polling mbarrier " + MbarrierOp.name(m, b.offset) + " (phase " + b.phase + ")";
            }
            case ThreadStatus.ASYNC_WAIT -> m.waitArg2[s] != io.barrierscope.exec.RegisterPool.REGISTERS ? ThreadStatus.name(st)
                    : "blocked in setmaxnreg (for its warp, or in .inc for " + m.waitArg[s] + " registers per thread; the CTA pool holds "
                    + m.registers.pool(m.ctaOfSlot(s)) + " registers)";
            default -> ThreadStatus.name(st);
        };
    }

    static String location(Instruction in) {
        return "PTX line " + in.pos().line() + (in.loc() != null ? " (" + in.loc() + ")" : "") + " `" + in.text() + "`";
    }

    /** "lanes 0-15" or "(all 32 lanes)". */
    public static String lanesText(int lanes, int of) {
        if (lanes == of) return "(all " + Integer.bitCount(lanes) + " threads)";
        return "lanes " + io.barrierscope.exec.Lanes.ranges(lanes);
    }

    private static List<String> findCycle(Machine m, Map<Integer, List<Integer>> edges) {
        int[] color = new int[m.warps];
        List<Integer> stack = new ArrayList<>();
        for (Integer start : edges.keySet()) {
            List<Integer> c = dfs(start, edges, color, stack);
            if (c != null) return c.stream().map(m::warpName).toList();
        }
        return List.of();
    }

    private static List<Integer> dfs(int w, Map<Integer, List<Integer>> edges, int[] color, List<Integer> stack) {
        if (color[w] == 2) return null;
        if (color[w] == 1) {
            List<Integer> cyc = new ArrayList<>(stack.subList(stack.indexOf(w), stack.size()));
            cyc.add(w);
            return cyc;
        }
        color[w] = 1;
        stack.add(w);
        for (int n : edges.getOrDefault(w, List.of())) {
            List<Integer> c = dfs(n, edges, color, stack);
            if (c != null) return c;
        }
        stack.remove(stack.size() - 1);
        color[w] = 2;
        return null;
    }
}
