package io.barrierscope.app.session;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.exec.Dim3;

/**
 * Which barrier the barriers pane selected, in CTA {@code cta}: a CTA barrier ({@code id} its
 * number), an mbarrier ({@code id} its shared offset) or a cluster barrier ({@code cta} the
 * cluster's rank-0 CTA, {@code id} 0).
 */
public record BarrierKey(Kind kind, int cta, int id) {

    public enum Kind { CTA_BARRIER, MBARRIER, CLUSTER_BARRIER }

    /** The key of a pane row. */
    public static BarrierKey of(PanelRow row) {
        if (row instanceof MbarrierRow m) return new BarrierKey(Kind.MBARRIER, m.cta(), m.offset());
        if (row instanceof ClusterBarrierRow c) return new BarrierKey(Kind.CLUSTER_BARRIER, c.firstCta(), 0);
        BarrierRow b = (BarrierRow) row;
        return new BarrierKey(Kind.CTA_BARRIER, b.cta(), b.id());
    }

    /**
     * The key of the barrier an engine finding names (a diagnostic's), in a launch of {@code grid}
     * CTAs; null when the pane does not list it (a warp sync, a CTA barrier whose id is in a register).
     */
    public static BarrierKey of(BarrierRef ref, Dim3 grid) {
        if (ref == null || ref.cta() == null || grid == null) return null;
        BarrierRef.Cta c = ref.cta();
        int cta = c.x() + c.y() * grid.x() + c.z() * grid.x() * grid.y();
        return switch (ref.kind()) {
            case BarrierRef.CTA_BARRIER -> ref.id() == null ? null : new BarrierKey(Kind.CTA_BARRIER, cta, ref.id().intValue());
            case BarrierRef.MBARRIER -> ref.offset() == null ? null : new BarrierKey(Kind.MBARRIER, cta, ref.offset());
            case BarrierRef.CLUSTER_BARRIER -> new BarrierKey(Kind.CLUSTER_BARRIER, cta, 0);
            default -> null;
        };
    }

    /**
     * The object the recording names it by: {@code cta << 32 | id}, and for a cluster barrier
     * its rank-0 CTA alone (ClusterBarrierSync emits that).
     */
    public long object() {
        return kind == Kind.CLUSTER_BARRIER ? cta : (long) cta << 32 | (id & 0xFFFFFFFFL);
    }
}
