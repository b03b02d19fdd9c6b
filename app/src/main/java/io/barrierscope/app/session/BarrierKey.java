package io.barrierscope.app.session;

/**
 * Which barrier the barriers pane selected: a CTA barrier ({@code id} its number) or an
 * mbarrier ({@code id} its shared offset), in CTA {@code cta}.
 */
public record BarrierKey(boolean mbarrier, int cta, int id) {

    /** The key of a pane row. */
    public static BarrierKey of(PanelRow row) {
        if (row instanceof MbarrierRow m) return new BarrierKey(true, m.cta(), m.offset());
        BarrierRow b = (BarrierRow) row;
        return new BarrierKey(false, b.cta(), b.id());
    }

    /** The object the recording names it by: {@code cta << 32 | id}. */
    public long object() { return (long) cta << 32 | (id & 0xFFFFFFFFL); }
}
