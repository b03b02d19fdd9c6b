package io.barrierscope.app.threads;

import io.barrierscope.app.classroom.StateNames;
import io.barrierscope.app.session.ThreadsState;
import io.barrierscope.exec.ThreadStatus;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the threads tree (clusters, CTAs, warps, lane groups, threads) from a snapshot and
 * filters it. Pure functions, so the tree logic is tested without a toolkit.
 */
final class ThreadTree {
    private ThreadTree() {}

    static List<ThreadNode> build(ThreadsState s) { return build(s, new Memo()); }

    /**
     * The rows made from the last state, to make the next one from: a warp whose record is the
     * same object as before keeps its row, and a CTA all of whose warps kept theirs keeps its row
     * (and its summary), so a step rebuilds the rows of the warps it changed, not the launch's.
     */
    static final class Memo {
        private ThreadsState state;
        private List<ThreadNode> roots = List.of();
        private ThreadsState.Warp[] warps = new ThreadsState.Warp[0];
        private ThreadNode[] warpRows = new ThreadNode[0];
        private ThreadNode[] ctaRows = new ThreadNode[0];
    }

    /** The tree of {@code s}, reusing what {@code memo} has of the last state and remembering this one. */
    static List<ThreadNode> build(ThreadsState s, Memo memo) {
        if (s == memo.state) return memo.roots;
        int perCta = s.ctas().isEmpty() ? 0 : s.warps().size() / s.ctas().size();
        boolean fresh = memo.state == null || memo.state.ctas() != s.ctas() || memo.warps.length != s.warps().size();
        if (fresh) {
            memo.warps = new ThreadsState.Warp[s.warps().size()];
            memo.warpRows = new ThreadNode[s.warps().size()];
            memo.ctaRows = new ThreadNode[s.ctas().size()];
        }
        List<ThreadNode> ctas = new ArrayList<>(s.ctas().size());
        for (ThreadsState.Cta c : s.ctas()) {
            boolean same = !fresh;
            for (int w = c.cta() * perCta; w < (c.cta() + 1) * perCta; w++) {
                ThreadsState.Warp warp = s.warps().get(w);
                if (memo.warps[w] == warp) continue;
                memo.warps[w] = warp;
                memo.warpRows[w] = warp(s, warp);
                same = false;
            }
            if (!same) {
                List<ThreadNode> kids = List.of(java.util.Arrays.copyOfRange(memo.warpRows, c.cta() * perCta, (c.cta() + 1) * perCta));
                memo.ctaRows[c.cta()] = cta(c, kids);
            }
            ctas.add(memo.ctaRows[c.cta()]);
        }
        memo.state = s;
        memo.roots = clusters(s, ctas);
        return memo.roots;
    }

    private static List<ThreadNode> clusters(ThreadsState s, List<ThreadNode> ctas) {
        if (!s.clustered()) return List.copyOf(ctas);
        Map<Integer, List<ThreadNode>> byCluster = new TreeMap<>();
        Map<Integer, String> names = new LinkedHashMap<>();
        for (int i = 0; i < ctas.size(); i++) {
            ThreadsState.Cta c = s.ctas().get(i);
            byCluster.computeIfAbsent(c.cluster(), k -> new ArrayList<>()).add(ctas.get(i));
            names.putIfAbsent(c.cluster(), c.clusterName());
        }
        List<ThreadNode> out = new ArrayList<>();
        for (Map.Entry<Integer, List<ThreadNode>> e : byCluster.entrySet()) {
            List<ThreadNode> kids = List.copyOf(e.getValue());
            out.add(new ThreadNode("cl" + e.getKey(), ThreadNode.Level.CLUSTER, names.get(e.getKey()), (byte) -1,
                    summary(kids), -1, 0, "", "", -1, null, false, true, kids));
        }
        return List.copyOf(out);
    }

    private static ThreadNode cta(ThreadsState.Cta c, List<ThreadNode> kids) {
        int first = kids.isEmpty() ? -1 : kids.get(0).warp() << 5;
        return new ThreadNode("cta" + c.cta(), ThreadNode.Level.CTA, c.name(), (byte) -1, summary(kids), -1, 0, "", "",
                first, null, false, true, kids);
    }

    private static ThreadNode warp(ThreadsState s, ThreadsState.Warp w) {
        String name = "warp " + w.warpInCta();
        String key = ThreadNode.warpKey(w.warp());
        if (w.groups().size() == 1) {
            ThreadsState.LaneGroup g = w.groups().get(0);
            return node(key, ThreadNode.Level.WARP, name, g, firstLive(w), threads(s, w, g));
        }
        List<ThreadNode> groups = new ArrayList<>();
        for (ThreadsState.LaneGroup g : w.groups()) {
            int slot = (w.warp() << 5) + Integer.numberOfTrailingZeros(g.lanes());
            groups.add(node(key + ":" + Integer.toHexString(g.lanes()), ThreadNode.Level.GROUP, lanesText(g.lanes()), g,
                    slot, threads(s, w, g)));
        }
        return new ThreadNode(key, ThreadNode.Level.WARP, name, (byte) -1, "diverged: " + groups.size() + " groups",
                -1, 0, "", "", firstLive(w), null, false, false, List.copyOf(groups));
    }

    private static ThreadNode node(String key, ThreadNode.Level level, String name, ThreadsState.LaneGroup g, int slot,
                                   List<ThreadNode> kids) {
        boolean gone = g.status() == ThreadStatus.EXITED;
        return new ThreadNode(key, level, name, g.status(), StateNames.shortName(g.status()), gone ? -1 : g.pc(),
                gone ? 0 : g.ptxLine(), cudaText(g), g.waitsOn(), slot, g.barrier(), false, false, kids);
    }

    /** "kernel.cu:42": the file's name without its folder, and the line. */
    private static String cudaText(ThreadsState.LaneGroup g) {
        if (g.loc() == null) return "";
        String f = g.loc().file();
        return f.substring(f.lastIndexOf('/') + 1) + ":" + g.loc().line();
    }

    private static List<ThreadNode> threads(ThreadsState s, ThreadsState.Warp w, ThreadsState.LaneGroup g) {
        return new Lanes(s, w, g);
    }

    /**
     * The thread rows of a lane group, made when first asked for: a launch of 64 Ki threads
     * refreshes its tree ten times a second while running, and nobody looks at most threads.
     */
    private static final class Lanes extends AbstractList<ThreadNode> {
        private final ThreadsState s;
        private final ThreadsState.Warp w;
        private final ThreadsState.LaneGroup g;
        private final ThreadNode[] made;

        Lanes(ThreadsState s, ThreadsState.Warp w, ThreadsState.LaneGroup g) {
            this.s = s;
            this.w = w;
            this.g = g;
            made = new ThreadNode[Integer.bitCount(g.lanes())];
        }

        @Override
        public int size() { return made.length; }

        @Override
        public ThreadNode get(int i) {
            if (made[i] == null) made[i] = thread(laneAt(i));
            return made[i];
        }

        private int laneAt(int i) {
            int l = g.lanes();
            for (int k = 0; k < i; k++) l &= l - 1;
            return Integer.numberOfTrailingZeros(l);
        }

        private ThreadNode thread(int lane) {
            int tid = w.warpInCta() * 32 + lane;
            boolean flat = s.block().y() == 1 && s.block().z() == 1;
            String name = (flat ? "thread " + tid : "thread " + s.block().unflatten(tid)) + " · lane " + lane;
            int slot = (w.warp() << 5) + lane;
            return node(ThreadNode.threadKey(slot), ThreadNode.Level.THREAD, name, g, slot, List.of());
        }
    }

    private static int firstLive(ThreadsState.Warp w) {
        for (ThreadsState.LaneGroup g : w.groups()) {
            if (g.status() != ThreadStatus.EXITED) return (w.warp() << 5) + Integer.numberOfTrailingZeros(g.lanes());
        }
        return w.existMask() == 0 ? -1 : (w.warp() << 5) + Integer.numberOfTrailingZeros(w.existMask());
    }

    /** "64 runnable · 32 parked": threads per state below a summary row, most common state first. */
    static String summary(List<ThreadNode> kids) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        count(kids, counts);
        List<Map.Entry<String, Integer>> order = new ArrayList<>(counts.entrySet());
        order.sort((a, b) -> b.getValue() - a.getValue());
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Integer> e : order) {
            if (sb.length() > 0) sb.append(" · ");
            sb.append(e.getValue()).append(' ').append(e.getKey());
        }
        return sb.toString();
    }

    private static void count(List<ThreadNode> nodes, Map<String, Integer> counts) {
        for (ThreadNode n : nodes) {
            if (n.level() == ThreadNode.Level.THREAD) counts.merge(n.state(), 1, Integer::sum);
            else if (holdsThreads(n)) counts.merge(n.state(), n.children().size(), Integer::sum);
            else count(n.children(), counts);
        }
    }

    /** A row whose children are its threads, all in its state (counted without making them). */
    private static boolean holdsThreads(ThreadNode n) {
        return n.status() >= 0 && (n.level() == ThreadNode.Level.WARP || n.level() == ThreadNode.Level.GROUP);
    }

    /** "lanes 0-15,20" or "all lanes". */
    static String lanesText(int lanes) {
        if (lanes == -1) return "all lanes";
        return (Integer.bitCount(lanes) == 1 ? "lane " : "lanes ") + io.barrierscope.exec.Lanes.ranges(lanes);
    }

    /**
     * The rows that match every comma-separated phrase of the filter, with their ancestors; a
     * row that matches keeps its whole subtree. Phrases match a row's name, its ancestors'
     * names, its state, line ("line 42"), CUDA location and what it waits on; summary rows
     * (clusters, CTAs, diverged warps) match on names only. Phrases, not words: "warp 1" must
     * not find warp 0 waiting on "bar 1".
     */
    static List<ThreadNode> filter(List<ThreadNode> roots, String filter) {
        String[] words = filter == null ? new String[0] : java.util.Arrays.stream(filter.toLowerCase(Locale.ROOT).split(","))
                .map(String::strip).filter(w -> !w.isEmpty()).toArray(String[]::new);
        if (words.length == 0) return roots;
        List<ThreadNode> out = new ArrayList<>();
        for (ThreadNode n : roots) {
            ThreadNode kept = filter(n, "", words);
            if (kept != null) out.add(kept);
        }
        return List.copyOf(out);
    }

    private static ThreadNode filter(ThreadNode n, String ancestors, String[] words) {
        String names = ancestors + " " + n.name().toLowerCase(Locale.ROOT);
        boolean self = n.status() >= 0 ? matches(names + " " + text(n), words) : matches(names, words);
        if (self) return n.withChildren(n.children(), true, false);
        List<ThreadNode> kept = new ArrayList<>();
        for (ThreadNode c : n.children()) {
            ThreadNode k = filter(c, names, words);
            if (k != null) kept.add(k);
        }
        return kept.isEmpty() ? null : n.withChildren(List.copyOf(kept), false, true);
    }

    private static String text(ThreadNode n) {
        return (n.state() + " · " + n.waitsOn() + " · line " + n.ptxLine() + " · " + n.cuda() + " · pc " + n.pc())
                .toLowerCase(Locale.ROOT);
    }

    private static boolean matches(String text, String[] words) {
        for (String w : words) if (!text.contains(w)) return false;
        return true;
    }

    /**
     * The rows from a root down to the row with {@code key} (itself last), or empty when the
     * forest does not show it. Only the target's warp is opened: its thread rows are made on
     * demand, and a launch of 64 Ki threads must not make them all to find one.
     */
    static List<ThreadNode> path(List<ThreadNode> roots, String key) {
        List<ThreadNode> out = new ArrayList<>();
        return find(roots, key, warpOfKey(key), out) ? List.copyOf(out) : List.of();
    }

    private static boolean find(List<ThreadNode> nodes, String key, int warp, List<ThreadNode> path) {
        for (ThreadNode n : nodes) {
            path.add(n);
            if (n.key().equals(key)) return true;
            boolean inside = switch (n.level()) {
                case WARP, GROUP -> n.warp() == warp;
                case THREAD -> false;
                default -> true;
            };
            if (inside && find(n.children(), key, warp, path)) return true;
            path.remove(path.size() - 1);
        }
        return false;
    }

    /** The global warp a row key names ("w3", "w3:ff", "t96"), else -1. */
    private static int warpOfKey(String key) {
        try {
            if (key.startsWith("t")) return Integer.parseInt(key.substring(1)) >> 5;
            if (key.startsWith("w")) {
                int colon = key.indexOf(':');
                return Integer.parseInt(key.substring(1, colon < 0 ? key.length() : colon));
            }
        } catch (NumberFormatException e) {
            // not a warp's or thread's key
        }
        return -1;
    }

    /** How many thread rows a forest holds. */
    static int threadCount(List<ThreadNode> nodes) {
        int n = 0;
        for (ThreadNode t : nodes) {
            n += t.level() == ThreadNode.Level.THREAD ? 1 : holdsThreads(t) ? t.children().size() : threadCount(t.children());
        }
        return n;
    }
}
