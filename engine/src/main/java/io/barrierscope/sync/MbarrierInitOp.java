package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Src;
import io.barrierscope.exec.SyncEvent;

/** {@code mbarrier.init [addr], count} (9.7.13.15.9) and {@code mbarrier.inval [addr]} (9.7.13.15.10). */
public final class MbarrierInitOp extends MbarrierOp {
    private final Src count;

    /** An init with {@code count}, or an inval when {@code count} is null. */
    public MbarrierInitOp(Src address, boolean sharedSpace, Src count) {
        super(address, sharedSpace);
        this.count = count;
    }

    @Override
    protected boolean lane(Interpreter x, Machine m, int s) {
        if (count == null) {
            Mbarrier b = valid(x, m, s);
            if (b == null) return false;
            b.valid = false;
            m.memory.markMbarrier(b.cta, b.offset, false);
            if (x.observed()) x.emit(SyncEvent.MBAR_INVAL, s, MbarrierUnit.key(b.cta, b.offset), b.phase, 0);
            MbarrierSync.changed(x, b);
            return true;
        }
        long key = locate(x, m, s);
        if (key < 0) return false;
        Mbarrier b = m.mbarriers.at((int) (key >>> 32), (int) key);
        if (b.valid) {
            report(x, DiagnosticCode.MBARRIER_REINIT, s, b, "init on a valid mbarrier object (initialized at "
                    + x.where(b.initPc) + "); invalidate it with mbarrier.inval first (PTX ISA 9.7.13.15.9)");
            return false;
        }
        long c = count.get(m, s) & 0xFFFFFFFFL;
        if (!MbarrierSync.checkCount(x, this, s, b, c, DiagnosticCode.MBARRIER_COUNT_RANGE, "init count")) return false;
        b.init((int) c, pc);
        if (m.race != null) m.race.mbarrierInit(s, b, pc);
        m.memory.markMbarrier(b.cta, b.offset, true);
        if (x.observed()) x.emit(SyncEvent.MBAR_INIT, s, key, c, 0);
        m.memory.effects[s]++;
        MbarrierSync.changed(x, b);
        return true;
    }
}
