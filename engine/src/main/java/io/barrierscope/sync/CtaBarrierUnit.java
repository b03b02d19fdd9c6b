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
}
