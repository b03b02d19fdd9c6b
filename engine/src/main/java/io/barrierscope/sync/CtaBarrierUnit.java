package io.barrierscope.sync;

/** The sixteen CTA barriers of one CTA. */
public final class CtaBarrierUnit {
    public static final int BARRIERS = 16;
    public final int cta;
    public final CtaBarrier[] barriers = new CtaBarrier[BARRIERS];

    public CtaBarrierUnit(int cta) {
        this.cta = cta;
        for (int i = 0; i < BARRIERS; i++) barriers[i] = new CtaBarrier(i);
    }

    public CtaBarrier get(int id) { return barriers[id]; }

    /** A deep copy, for a checkpoint. */
    public CtaBarrierUnit copy() {
        CtaBarrierUnit u = new CtaBarrierUnit(cta);
        u.copyFrom(this);
        return u;
    }

    /** Copies the state of every barrier of {@code o} into this unit's own barrier objects. */
    public void copyFrom(CtaBarrierUnit o) {
        if (o.cta != cta) throw new IllegalArgumentException("barriers of CTA " + o.cta + " copied into CTA " + cta);
        for (int i = 0; i < BARRIERS; i++) barriers[i].copyFrom(o.barriers[i]);
    }
}
