package io.barrierscope.app.session;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * One thread looked at closely, and the shared memory of its CTA, copied out of the engine on
 * its thread. {@code shared} is a private copy that nobody writes after capture.
 *
 * @param slot       the thread's slot (warp * 32 + lane)
 * @param threadName e.g. "CTA (0,0,0) thread (37,0,0)"
 * @param function   the function its PC is in, whose registers are listed
 * @param registers  that function's registers, in declaration order
 * @param cta        the thread's CTA (linear)
 * @param ctaName    e.g. "CTA (0,0,0)"
 * @param shared     the CTA's shared memory
 * @param symbols    the shared variables, by offset
 * @param mbarriers  every mbarrier object ever touched in this CTA, by offset
 */
public record Inspection(int slot, String threadName, String function, List<RegisterValue> registers,
                         int cta, String ctaName, byte[] shared, List<Symbol> symbols,
                         List<MbarrierWord> mbarriers) {

    /** A register as declared in the PTX, and the 64 bits the engine holds for it. */
    public record RegisterValue(String name, ScalarType type, long bits) {}

    /** A shared variable: name (as nvcc wrote it, demangled where it is a local static), offset, bytes. */
    public record Symbol(String name, long offset, long size) {}

    /**
     * The mbarrier object at a shared offset, as the engine keeps it beside the 8 bytes.
     * {@code valid} is false after mbarrier.inval (or before init, when only touched).
     */
    public record MbarrierWord(int offset, String name, boolean valid, long phase, int pending, int expected,
                               long tx, int arrivals, long txExpected, long txCompleted) {
        public int parity() { return (int) (phase & 1); }
    }

    /** The variable containing an offset, or null. */
    public Symbol symbolAt(long offset) {
        for (Symbol s : symbols) if (offset >= s.offset() && offset < s.offset() + Math.max(1, s.size())) return s;
        return null;
    }

    /** The mbarrier object at exactly this offset, or null. */
    public MbarrierWord mbarrierAt(int offset) {
        for (MbarrierWord w : mbarriers) if (w.offset() == offset) return w;
        return null;
    }
}
