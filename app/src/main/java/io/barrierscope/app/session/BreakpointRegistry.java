package io.barrierscope.app.session;

import io.barrierscope.trace.Breakpoint;
import io.barrierscope.trace.BreakpointSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session's breakpoints by number. The engine's {@link BreakpointSet} holds the objects and
 * matches them; this gives them numbers the FX thread can name (it never touches the engine's
 * mutable objects) and carries them over to a re-run of the same file. Engine thread only.
 */
final class BreakpointRegistry {
    private final Map<Integer, Breakpoint> byId = new LinkedHashMap<>();
    private int nextId = 1;
    private BreakpointSet set;

    /** Starts over with no breakpoints (a different file: its lines mean something else). */
    void clear(BreakpointSet fresh) {
        byId.clear();
        set = fresh;
    }

    /**
     * Moves the breakpoints to a new run of the same program (a re-run with another policy or
     * seed), keeping numbers and enabled states; hit counts start again.
     */
    void carryOver(BreakpointSet fresh) {
        set = fresh;
        for (Map.Entry<Integer, Breakpoint> e : byId.entrySet()) {
            Breakpoint copy = Breakpoint.parse(e.getValue().spec());
            copy.enabled = e.getValue().enabled;
            set.add(copy); // the same program: whatever was accepted before is accepted again
            e.setValue(copy);
        }
    }

    /** Adds a breakpoint; a bad spec or a line without code throws IllegalArgumentException with the engine's message. */
    int add(String spec) {
        Breakpoint bp = set.add(spec);
        int id = nextId++;
        byId.put(id, bp);
        return id;
    }

    boolean remove(int id) {
        Breakpoint bp = byId.remove(id);
        if (bp != null) set.remove(bp);
        return bp != null;
    }

    boolean setEnabled(int id, boolean on) {
        Breakpoint bp = byId.get(id);
        if (bp == null) return false;
        bp.enabled = on;
        return true;
    }

    /** Removes the PTX line breakpoints on {@code line}, or adds {@code line:N} if there are none. */
    void toggleLine(int line) {
        if (!removeWhere(bp -> bp.kind == Breakpoint.Kind.LINE && bp.line == line)) add("line:" + line);
    }

    /** The same for a CUDA line of {@code file} (as the PTX names it). */
    void toggleCudaLine(String file, int line) {
        if (!removeWhere(bp -> bp.kind == Breakpoint.Kind.CUDA_LINE && bp.line == line && sameFile(bp.file, file))) {
            add("line:" + file + ":" + line);
        }
    }

    private boolean removeWhere(java.util.function.Predicate<Breakpoint> p) {
        List<Integer> ids = new ArrayList<>();
        byId.forEach((id, bp) -> {
            if (p.test(bp)) ids.add(id);
        });
        ids.forEach(this::remove);
        return !ids.isEmpty();
    }

    /** The number of a breakpoint, or -1. */
    int idOf(Breakpoint bp) {
        for (Map.Entry<Integer, Breakpoint> e : byId.entrySet()) if (e.getValue() == bp) return e.getKey();
        return -1;
    }

    List<BreakpointRow> rows() {
        List<BreakpointRow> out = new ArrayList<>(byId.size());
        byId.forEach((id, bp) -> out.add(new BreakpointRow(id, bp.spec(), kindText(bp.kind), String.join(", ", bp.conditions()),
                bp.hits, bp.enabled, bp.kind == Breakpoint.Kind.LINE ? bp.line : 0,
                bp.kind == Breakpoint.Kind.CUDA_LINE ? bp.file : null, bp.kind == Breakpoint.Kind.CUDA_LINE ? bp.line : 0)));
        return List.copyOf(out);
    }

    static String kindText(Breakpoint.Kind k) {
        return switch (k) {
            case LINE -> "PTX line";
            case CUDA_LINE -> "CUDA line";
            case BARRIER -> "CTA barrier completes";
            case MBARRIER -> "mbarrier phase completes";
            case TX_ZERO -> "tx-count reaches 0";
            case ARRIVE -> "arrival";
            case WAIT_FALSE -> "wait returns false";
            case PARK -> "thread parks";
            case DEADLOCK -> "deadlock";
            case DIAGNOSTIC -> "diagnostic";
        };
    }

    /** As the engine matches CUDA file names: equal, or one a path ending in the other. */
    static boolean sameFile(String a, String b) {
        return a != null && b != null && (a.equals(b) || a.endsWith("/" + b) || b.endsWith("/" + a));
    }

    /**
     * The breakpoint a lesson's moment names: the set one written as {@code spec} (whitespace
     * aside), else a new one; enabled either way. A bad spec throws IllegalArgumentException.
     */
    Breakpoint moment(String spec) {
        String want = spec.replaceAll("\\s+", "");
        Breakpoint target = null;
        for (Breakpoint bp : set.all()) if (bp.spec().replaceAll("\\s+", "").equals(want)) target = target == null ? bp : target;
        if (target == null) {
            add(spec);
            target = set.all().get(set.all().size() - 1);
        }
        target.enabled = true;
        return target;
    }

    /** Disables every enabled breakpoint but {@code keep}; returns them, for {@link #restore}. */
    List<Breakpoint> holdOffAllBut(Breakpoint keep) {
        List<Breakpoint> heldOff = new ArrayList<>();
        for (Breakpoint bp : set.all()) {
            if (bp != keep && bp.enabled) {
                bp.enabled = false;
                heldOff.add(bp);
            }
        }
        return heldOff;
    }

    static void restore(List<Breakpoint> heldOff) { heldOff.forEach(bp -> bp.enabled = true); }

    /** Each of {@code specs} the open kernel refuses, with the engine's message; nothing is set. */
    static Map<String, String> refused(io.barrierscope.exec.Machine machine, List<String> specs) {
        BreakpointSet scratch = new BreakpointSet(machine); // not listening: nothing changes
        Map<String, String> refused = new LinkedHashMap<>();
        for (String spec : specs) {
            try {
                scratch.add(spec);
            } catch (IllegalArgumentException e) {
                refused.put(spec, e.getMessage());
            }
        }
        return refused;
    }
}
