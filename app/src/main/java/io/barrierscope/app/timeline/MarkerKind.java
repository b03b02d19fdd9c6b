package io.barrierscope.app.timeline;

/**
 * The point events a lane shows. Each marker keeps the synchronization event's object, {@code a}
 * and {@code b} (see {@link io.barrierscope.exec.SyncEvent}) so hovering can describe it.
 */
public enum MarkerKind {
    BAR_ARRIVE("arrived at CTA barrier"),
    MBAR_ARRIVE("arrive-on mbarrier"),
    CLUSTER_ARRIVE("arrived at barrier.cluster"),
    EXPECT_TX("expect-tx"),
    COMPLETE_TX("complete-tx"),
    WAIT_FALSE("mbarrier wait returned false"),
    /** A decision of a replayed schedule that is not the default policy's (object: its index; a: its kind; b: the value taken). */
    DEVIATION("decision off the default schedule"),
    DIAGNOSTIC("diagnostic");

    public static final int COUNT = values().length;
    private static final MarkerKind[] VALUES = values();

    private final String label;

    MarkerKind(String label) { this.label = label; }

    public String label() { return label; }

    public static MarkerKind of(int ordinal) { return VALUES[ordinal]; }
}
