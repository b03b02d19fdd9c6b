package io.barrierscope.app.breakpoints;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The breakpoint editor's fields for each kind (docs/time-travel.md, Breakpoints): the kind's argument
 * (a line and its file, a barrier id, an mbarrier variable, a diagnostic code) and the conditions that
 * apply to it (CTA, cluster, warp, thread, phase or generation, hits), built into the same
 * {@code KIND[:ARG][,KEY=VALUE]...} spec the command line's {@code --break} takes. No toolkit needed.
 */
public final class BreakpointForm {
    /** One field: the spec key it fills ({@code :arg} ones are the argument), its label and a hint. */
    public record Field(String key, String label, String prompt, boolean number) {
        public boolean isArgument() { return key.startsWith(":"); }
    }

    private static final Field CLUSTER = new Field("cluster", "Cluster", "any", true);
    private static final Field CTA = new Field("cta", "CTA", "any (linear index)", true);
    private static final Field WARP = new Field("warp", "Warp", "any (within its CTA)", true);
    private static final Field THREAD = new Field("thread", "Thread", "any (within its CTA)", true);
    private static final Field HITS = new Field("hits", "Stop at hit", "1", true);

    /** Each kind's fields, in the order the editor shows them. */
    private static final Map<String, List<Field>> FIELDS = new LinkedHashMap<>();

    static {
        FIELDS.put("line", List.of(new Field(":file", "CUDA file", "none: a PTX line", false),
                new Field(":line", "Line", "required", true), WARP, THREAD, CTA, CLUSTER, HITS));
        FIELDS.put("barrier", List.of(new Field(":id", "Barrier id", "any", true),
                new Field("phase", "Generation", "any", true), CTA, CLUSTER, WARP, HITS));
        FIELDS.put("mbarrier", List.of(new Field(":var", "Variable", "any: a name or 0x offset", false),
                new Field("phase", "Phase", "any", true), CTA, CLUSTER, HITS));
        FIELDS.put("tx-zero", List.of(new Field(":var", "Variable", "any: a name or 0x offset", false), CTA, CLUSTER, HITS));
        FIELDS.put("arrive", List.of(WARP, THREAD, CTA, CLUSTER, HITS));
        FIELDS.put("wait-false", List.of(WARP, THREAD, CTA, CLUSTER, HITS));
        FIELDS.put("park", List.of(WARP, THREAD, CTA, CLUSTER, HITS));
        FIELDS.put("deadlock", List.of());
        FIELDS.put("diagnostic", List.of(new Field(":code", "Code", "any, e.g. mbarrier-stale-token", false),
                WARP, THREAD, CTA, CLUSTER, HITS));
    }

    private final Map<String, StringProperty> values = new LinkedHashMap<>();

    /** The fields of a kind (none for an unknown one). */
    public static List<Field> fields(String kind) { return FIELDS.getOrDefault(kind, List.of()); }

    /** Whether the editor has fields for the kind (every kind the chooser lists but "spec as typed"). */
    public static boolean knows(String kind) { return FIELDS.containsKey(kind); }

    /** The text of a field; kinds share fields of the same key (the CTA typed stays when the kind changes). */
    public StringProperty value(Field f) { return values.computeIfAbsent(f.key(), k -> new SimpleStringProperty("")); }

    /** Empties every field. */
    public void clear() { values.values().forEach(p -> p.set("")); }

    /**
     * The spec the kind's fields make, e.g. {@code line:kernel.cu:17,warp=0} or {@code mbarrier:full,phase=3,cta=1}.
     * A wrong field throws with a message naming it.
     */
    public String spec(String kind) {
        if (!knows(kind)) throw new IllegalArgumentException("no breakpoint kind '" + kind + "'");
        List<String> args = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        for (Field f : fields(kind)) {
            String v = value(f).get() == null ? "" : value(f).get().strip();
            if (v.isEmpty()) {
                if (f.key().equals(":line")) throw new IllegalArgumentException("a line breakpoint needs its line number");
                continue;
            }
            if (v.contains(",") || v.contains("=") || (f.key().equals(":file") ? false : v.contains(":"))) {
                throw new IllegalArgumentException(f.label() + ": '" + v + "' cannot hold ',', '=' or ':'");
            }
            if (f.number() && !v.matches("\\d{1,18}")) throw new IllegalArgumentException(f.label() + ": '" + v + "' is not a whole number");
            if (f.key().equals("hits") && Long.parseLong(v) < 1) throw new IllegalArgumentException("Stop at hit: counts from 1");
            if (f.isArgument()) args.add(v);
            else conditions.add(f.key() + "=" + v);
        }
        StringBuilder sb = new StringBuilder(kind);
        if (!args.isEmpty()) sb.append(':').append(String.join(":", args));
        for (String c : conditions) sb.append(',').append(c);
        return sb.toString();
    }
}
