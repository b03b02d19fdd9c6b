package io.barrierscope.app.deadlock;

import io.barrierscope.check.Deadlock;
import io.barrierscope.diag.BarrierRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wait-for graph of a deadlock laid out in three columns: the blocked thread groups, the
 * barriers they wait on, and the threads those barriers still need. Edges on the engine's cycle
 * among warps are marked, and so are the nodes of the warps in it. Pure: the view only draws the
 * boxes and lines at the coordinates given here.
 */
public final class WaitGraph {
    public static final double NODE_W = 210;
    public static final double NODE_H = 46;
    public static final double COL_GAP = 56;
    public static final double ROW_GAP = 14;
    public static final double MARGIN = 14;
    /** Room above the columns for their titles. */
    public static final double HEADER = 22;
    /** Nodes per column; more are summed up in one node, so the canvas stays a sane size. */
    static final int MAX_PER_COLUMN = 40;

    private static final Pattern WARP = Pattern.compile("^(CTA \\([^)]*\\) warp \\d+)");
    private static final Pattern PTX_LINE = Pattern.compile("PTX line (\\d+)");

    public enum Kind { WAITER, BARRIER, MISSING, MORE }

    /**
     * One box. {@code title} and {@code subtitle} are its two lines, {@code detail} the whole
     * story for the selection pane, {@code ptxLine} where it points (0: nowhere); {@code group}
     * the threads it names and {@code barrier} the barrier, as the engine's facts (null: none),
     * so a click can select them everywhere.
     */
    public record Node(int id, Kind kind, String title, String subtitle, String detail, int ptxLine,
                       boolean inCycle, boolean exited, double x, double y, Deadlock.Group group, BarrierRef barrier) {
        public boolean contains(double px, double py) {
            return px >= x && px <= x + NODE_W && py >= y && py <= y + NODE_H;
        }
    }

    public record Edge(int from, int to, boolean inCycle) {}

    private final List<Node> nodes;
    private final List<Edge> edges;
    private final List<String> cycle;
    private final double width;
    private final double height;

    private WaitGraph(List<Node> nodes, List<Edge> edges, List<String> cycle) {
        this.nodes = List.copyOf(nodes);
        this.edges = List.copyOf(edges);
        this.cycle = List.copyOf(cycle);
        double maxX = 0;
        double maxY = 0;
        for (Node n : nodes) {
            maxX = Math.max(maxX, n.x() + NODE_W);
            maxY = Math.max(maxY, n.y() + NODE_H);
        }
        width = maxX + MARGIN;
        height = maxY + MARGIN;
    }

    public static WaitGraph of(Deadlock d) {
        Set<String> cycleWarps = new HashSet<>(d.cycle());
        Set<String> cyclePairs = new HashSet<>();
        for (int k = 0; k + 1 < d.cycle().size(); k++) cyclePairs.add(d.cycle().get(k) + "\u0000" + d.cycle().get(k + 1));

        Builder b = new Builder();
        for (Deadlock.Wait w : d.waits()) {
            String from = warpOf(w.threads());
            int waiter = b.node(0, "waiter:" + w.threads(), Kind.WAITER, title(w.threads()), lanes(w.threads())
                            + " · line " + w.ptxLine(), w.threads() + " wait on " + w.on() + " at " + w.location() + ".",
                    w.ptxLine(), cycleWarps.contains(from), false, w.group(), w.onFacts());
            int barrier = b.node(1, "barrier:" + w.on(), Kind.BARRIER, barrierTitle(w.on()), barrierSummary(w.needs()),
                    w.on() + ".\nIt needs " + withoutListIntro(w.needs()), w.ptxLine(), false, false, null, w.onFacts());
            boolean waitInCycle = false;
            for (Deadlock.Missing m : w.missing()) {
                String to = warpOf(m.threads());
                boolean red = from != null && to != null && cyclePairs.contains(from + "\u0000" + to);
                waitInCycle |= red;
                boolean nobody = m.threads().startsWith("(");
                int missing = b.node(2, "missing:" + m.threads(), Kind.MISSING,
                        nobody ? "nobody can arrive" : title(m.threads()),
                        shortState(m.state()) + (nobody || lanes(m.threads()).isEmpty() ? "" : " · " + lanes(m.threads())),
                        m.threads() + ": " + m.state() + (m.location() == null ? "" : " at " + m.location()),
                        ptxLine(m.location()), to != null && cycleWarps.contains(to), m.state().startsWith("exited"), m.group(), null);
                b.edge(barrier, missing, red);
            }
            b.edge(waiter, barrier, waitInCycle);
        }
        return b.build(d.cycle());
    }

    /** Collects nodes by key per column and lays them out. */
    private static final class Builder {
        private final List<Map<String, Node>> columns = List.of(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        private final Map<String, Integer> ids = new LinkedHashMap<>();
        private final Map<Integer, Integer> redirect = new LinkedHashMap<>();
        private final Map<String, Edge> edges = new LinkedHashMap<>();
        private final int[] hidden = new int[3];
        private int next;

        int node(int col, String key, Kind kind, String title, String subtitle, String detail, int line,
                 boolean inCycle, boolean exited, Deadlock.Group group, BarrierRef barrier) {
            Integer id = ids.get(key);
            if (id != null) return id;
            id = next++;
            ids.put(key, id);
            Map<String, Node> column = columns.get(col);
            if (column.size() >= MAX_PER_COLUMN) {
                // Past the limit every node folds into the column's "more" node.
                hidden[col]++;
                redirect.put(id, moreId(col));
                return id;
            }
            column.put(key, new Node(id, kind, title, subtitle, detail, line, inCycle, exited, 0, 0, group, barrier));
            return id;
        }

        private int moreId(int col) { return -1 - col; }

        void edge(int from, int to, boolean red) {
            int f = redirect.getOrDefault(from, from);
            int t = redirect.getOrDefault(to, to);
            String key = f + ">" + t;
            Edge old = edges.get(key);
            if (old == null || (!old.inCycle() && red)) edges.put(key, new Edge(f, t, red));
        }

        WaitGraph build(List<String> cycle) {
            int rows = 0;
            for (int c = 0; c < 3; c++) rows = Math.max(rows, columns.get(c).size() + (hidden[c] > 0 ? 1 : 0));
            List<Node> placed = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                List<Node> col = new ArrayList<>(columns.get(c).values());
                if (hidden[c] > 0) {
                    col.add(new Node(moreId(c), Kind.MORE, "… and " + hidden[c] + " more", "see the text below",
                            hidden[c] + " more nodes are listed in the text explanation.", 0, false, false, 0, 0, null, null));
                }
                // Shorter columns are centred against the tallest, so edges fan out evenly.
                double offset = (rows - col.size()) * (NODE_H + ROW_GAP) / 2;
                double x = MARGIN + c * (NODE_W + COL_GAP);
                for (int r = 0; r < col.size(); r++) {
                    Node n = col.get(r);
                    placed.add(new Node(n.id(), n.kind(), n.title(), n.subtitle(), n.detail(), n.ptxLine(), n.inCycle()
                            || (n.kind() == Kind.BARRIER && touchesRed(n.id())), n.exited(), x,
                            HEADER + MARGIN + offset + r * (NODE_H + ROW_GAP), n.group(), n.barrier()));
                }
            }
            return new WaitGraph(placed, new ArrayList<>(edges.values()), cycle);
        }

        private boolean touchesRed(int id) {
            for (Edge e : edges.values()) if (e.inCycle() && (e.from() == id || e.to() == id)) return true;
            return false;
        }
    }

    /**
     * The engine's text ends by introducing the list of missing threads ("... Warps not
     * arrived:"); in a box's story that list is the column on the right, so say that instead.
     */
    static String withoutListIntro(String needs) {
        String t = needs.strip();
        if (!t.endsWith(":")) return t;
        int cut = Math.max(t.lastIndexOf(". "), t.lastIndexOf(": "));
        String head = cut > 0 ? t.substring(0, cut + 1) : "";
        return (head.endsWith(":") ? head.substring(0, head.length() - 1) + "." : head)
                + " The threads it still needs are in the right-hand column.";
    }

    /** "CTA (0,0,0) warp 1" from "CTA (0,0,0) warp 1 lanes 0-15", or null. */
    static String warpOf(String threads) {
        Matcher m = WARP.matcher(threads);
        return m.find() ? m.group(1) : null;
    }

    private static String title(String threads) {
        String w = warpOf(threads);
        return w == null ? threads : w;
    }

    private static String lanes(String threads) {
        String w = warpOf(threads);
        return w == null ? "" : threads.substring(w.length()).trim();
    }

    /** "exited" from "exited (exited threads never arrive ...)"; "polling mbarrier bar" from "polling mbarrier bar (shared 0x0) (phase 0)". */
    static String shortState(String state) {
        int cut = state.indexOf(" (");
        return cut > 0 ? state.substring(0, cut) : state;
    }

    private static final Pattern MBAR_STATE = Pattern.compile("in phase (\\d+) with (\\d+) of (\\d+) arrivals still pending and tx-count (-?\\d+)");
    private static final Pattern BAR_STATE = Pattern.compile("(\\d+) of (\\d+) have arrived");
    private static final Pattern OF_CTA = Pattern.compile(" of CTA \\([^)]*\\)");

    /** "mbarrier full (shared 0x0)" from "mbarrier full (shared 0x0) of CTA (0,0,0)": the CTA is in the detail. */
    static String barrierTitle(String on) {
        return OF_CTA.matcher(on).replaceFirst("");
    }

    /** "phase 0 · pending 1 of 129 · tx 0" or "2 of 4 warps arrived", else the first clause of what it needs. */
    static String barrierSummary(String needs) {
        Matcher m = MBAR_STATE.matcher(needs);
        if (m.find()) return "phase " + m.group(1) + " · pending " + m.group(2) + " of " + m.group(3) + " · tx " + m.group(4);
        m = BAR_STATE.matcher(needs);
        if (m.find()) return m.group(1) + " of " + m.group(2) + " warps arrived";
        return firstSentence(needs);
    }

    private static String firstSentence(String text) {
        int cut = text.indexOf(": ");
        int dot = text.indexOf(". ");
        int end = cut < 0 ? dot : dot < 0 ? cut : Math.min(cut, dot);
        String s = end > 0 ? text.substring(0, end) : text;
        return s.length() > 60 ? s.substring(0, 59) + "…" : s;
    }

    private static int ptxLine(String location) {
        if (location == null) return 0;
        Matcher m = PTX_LINE.matcher(location);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    public List<Node> nodes() { return nodes; }
    public List<Edge> edges() { return edges; }
    /** The engine's cycle among warps (first warp repeated at the end), empty if none. */
    public List<String> cycle() { return cycle; }
    public double width() { return width; }
    public double height() { return height; }

    public Node node(int id) {
        for (Node n : nodes) if (n.id() == id) return n;
        return null;
    }

    /** The node under a point, or null. */
    public Node nodeAt(double x, double y) {
        for (Node n : nodes) if (n.contains(x, y)) return n;
        return null;
    }
}
