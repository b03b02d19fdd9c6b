package io.barrierscope.sync;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;

/**
 * Base of the mbarrier instructions: each thread of the group acts on the object at its own
 * address, in lane order. Resolves {@code [addr]} (shared::cta or generic) to the object and
 * reports the undefined cases every mbarrier operation shares.
 */
public abstract class MbarrierOp extends Op {
    protected final Src address;
    /** True when the address is in the .shared space, false when generic. */
    protected final boolean sharedSpace;
    /** {@code .relaxed}: an arrive that releases nothing, a wait that acquires nothing (race detection). */
    public boolean relaxed;
    /**
     * {@code .scope} (MemoryModelHook.SCOPE_*, {@code .cta} by default): the threads that directly
     * observe the arrive's or the wait's synchronizing effect (PTX ISA 9.7.13.15.13, .16; race detection).
     */
    public int scope = io.barrierscope.exec.MemoryModelHook.SCOPE_CTA;
    /**
     * Whether the address may name another CTA's object: an mbarrier instruction only with
     * {@code .shared::cluster} (set by its compiler); copies and st.async take cluster addresses.
     */
    boolean clusterSpace = true;

    protected MbarrierOp(Src address, boolean sharedSpace) {
        this.address = address;
        this.sharedSpace = sharedSpace;
    }


    @Override
    public boolean isSynchronizing() { return true; }

    /** Executes for one thread; returns false when the run stopped (a diagnostic) or the thread must not advance. */
    protected abstract boolean lane(Interpreter x, Machine m, int slot);

    @Override
    public final void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        int base = warp << 5;
        if (active == group && (group & (group - 1)) != 0) {
            Mbarrier b = common(m, warp, group);
            if (b != null && whole(x, m, warp, group, b)) {
                if (!x.finished() && group != m.existMask[warp]) m.uniform[warp] = false;
                return;
            }
        }
        beforeLanes(m, active);
        int moved = 0;
        for (int g = group; g != 0; g &= g - 1) {
            int s = base + Integer.numberOfTrailingZeros(g);
            if ((active & (1 << (s & 31))) != 0) {
                boolean advance = lane(x, m, s);
                if (x.finished()) return;
                if (!advance) continue;
            }
            m.pc[s]++;
            moved |= 1 << (s & 31);
        }
        // As Op.advance: PCs stay equal when the whole warp moves on together, or none of it does (all suspended).
        if (group != m.existMask[warp] || (moved != 0 && moved != group)) m.uniform[warp] = false;
    }

    /**
     * Executes for all {@code lanes} of {@code warp} at once, when they all address the valid
     * object {@code b} of their own CTA (race detection quiet on its use): exactly what {@link #lane}
     * would do lane by lane in lane order (state changes, events, PCs advanced), minus locating
     * the object 32 times. Returns false, having changed nothing, when the case needs the lanes
     * one by one (a diagnostic, a phase completing before the last lane, a thread suspending).
     */
    protected boolean whole(Interpreter x, Machine m, int warp, int lanes, Mbarrier b) { return false; }

    /** Called before the lanes of {@code active} go one by one, in lane order. */
    protected void beforeLanes(Machine m, int active) {}

    /**
     * The valid object every lane of {@code lanes} addresses when it is one and in the lanes' own
     * CTA, and race detection (if on) has nothing to say about any lane's use; else null, and the lanes go one by
     * one ({@link #locate} reports what is wrong, if anything). No side effects.
     */
    private Mbarrier common(Machine m, int warp, int lanes) {
        if (address == null) return null; // null: a bulk copy to global memory, no mbarrier
        int base = warp << 5;
        long a = address.get(m, base + Integer.numberOfTrailingZeros(lanes));
        for (int l = lanes & (lanes - 1); l != 0; l &= l - 1) {
            if (address.get(m, base + Integer.numberOfTrailingZeros(l)) != a) return null;
        }
        if (!sharedSpace) {
            if (a < Space.SHARED_WINDOW || a >= Space.SHARED_WINDOW + Space.WINDOW_SIZE) return null;
            a -= Space.SHARED_WINDOW;
        }
        int cta = m.ctaOfWarp(warp);
        if (a < 0 || a > Space.CTA_OFFSET_MASK || a + 8 > m.memory.shared[cta].length || (a & 7) != 0) return null;
        Mbarrier b = m.mbarriers.find(cta, (int) a);
        if (b == null || !b.valid) return null;
        // With race detection on, only when every lane's use check would find nothing (else lane by lane, as it reports).
        return m.race == null || m.race.mbarrierUsesQuiet(warp, lanes, b) ? b : null;
    }

    /**
     * Whether this instruction may act on an mbarrier of another CTA of the cluster (only
     * arrive, expect_tx and complete_tx may: PTX ISA 9.7.13.15.8).
     */
    protected boolean remoteAllowed() { return false; }

    /**
     * Whether a generic address of another CTA's mbarrier (from {@code mapa.u64}) is defined for
     * this instruction: expect_tx, complete_tx and arrive_drop name the .shared::cluster window for
     * generic addressing, and the ISA's own mbarrier.arrive examples (9.7.13.15.13, Example 4 of
     * 9.7.13.15.16) arrive through one with the sink '_'; only a state result needs .shared::cta.
     */
    protected boolean genericRemoteAllowed() { return false; }

    /**
     * The CTA and shared offset of this thread's mbarrier as {@link MbarrierUnit#key}, or -1 after
     * reporting why there is none.
     */
    protected long locate(Interpreter x, Machine m, int s) {
        long a = address.get(m, s);
        if (!sharedSpace) {
            if (a < Space.SHARED_WINDOW || a >= Space.SHARED_WINDOW + Space.WINDOW_SIZE) {
                x.report(DiagnosticCode.MBARRIER_NOT_SHARED, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                        + " uses generic address 0x" + Long.toHexString(a) + ", which is not in the shared window; "
                        + "an mbarrier lives in shared memory (PTX ISA 9.7.13.15.1)", new int[] {pc}, new int[] {s}, null);
                return -1;
            }
            a -= Space.SHARED_WINDOW;
        }
        int own = m.ctaOfSlot(s);
        int cta = own;
        if (a > Space.CTA_OFFSET_MASK) {
            cta = m.memory.peer(own, a);
            a &= Space.CTA_OFFSET_MASK;
        }
        if (cta != own && remoteAllowed() && !clusterSpace && (sharedSpace || !genericRemoteAllowed())) {
            x.report(DiagnosticCode.MBARRIER_NOT_SHARED, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " addresses an mbarrier of cluster rank " + m.rankOf(cta) + " through " + (sharedSpace ? ".shared::cta" : "generic")
                    + " addressing; that address is outside the shared::cta window, which is undefined"
                    + (sharedSpace ? ": use .shared::cluster (or a generic address) to act on another CTA's mbarrier"
                            : ": an arrive on another CTA's mbarrier cannot return a state (its destination must be the sink '_'),"
                            + " and .noComplete has only the .shared::cta form")
                    + " (PTX ISA 9.7.13.15.13, 9.7.13.15.8)", new int[] {pc}, new int[] {s}, null);
            return -1;
        }
        if (cta != own && !remoteAllowed()) {
            x.report(DiagnosticCode.MBARRIER_REMOTE_WAIT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " addresses an mbarrier of cluster rank " + m.rankOf(cta) + "; only arrive, expect_tx and complete_tx "
                    + "may act on another CTA's mbarrier (PTX ISA 9.7.13.15.8)", new int[] {pc}, new int[] {s}, null);
            return -1;
        }
        int size = m.memory.shared[cta].length;
        if (a < 0 || a + 8 > size) {
            x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + ": shared offset 0x" + Long.toHexString(a) + " is outside the " + size + " bytes of shared memory",
                    new int[] {pc}, new int[] {s}, null);
            return -1;
        }
        if ((a & 7) != 0) {
            x.report(DiagnosticCode.MBARRIER_MISALIGNED, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + ": mbarrier address 0x" + Long.toHexString(a) + " is not 8-byte aligned (PTX ISA 9.7.13.15.1)",
                    new int[] {pc}, new int[] {s}, BarrierRefs.mbarrier(m, cta, (int) a, name(m, (int) a)));
            return -1;
        }
        return MbarrierUnit.key(cta, (int) a);
    }

    /** The valid object at this thread's address, or null after reporting. */
    protected Mbarrier valid(Interpreter x, Machine m, int s) {
        long key = locate(x, m, s);
        if (key < 0) return null;
        Mbarrier b = m.mbarriers.at((int) (key >>> 32), (int) key);
        if (!b.valid) {
            String where = b.cta == m.ctaOfSlot(s) ? "" : " in the shared memory of CTA " + m.grid.unflatten(b.cta)
                    + " (cluster rank " + m.rankOf(b.cta) + ")";
            x.report(DiagnosticCode.MBARRIER_UNINITIALIZED, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc) + " on "
                    + name(m, b.offset) + where + ", which holds no initialized mbarrier object; undefined (PTX ISA 9.7.13.15)",
                    new int[] {pc}, new int[] {s}, BarrierRefs.mbarrier(m, b, name(m, b.offset)));
            return null;
        }
        if (m.race != null) m.race.mbarrierUse(s, b, pc);
        return b;
    }

    /**
     * The CTAs a .multicast::cluster mask names, by rank, never empty; null after reporting a rank
     * outside the cluster, or an empty mask (a copy to no CTA, which the ISA gives no meaning:
     * the copy is not issued, so nothing downstream ever sees an empty destination list).
     */
    protected int[] multicastCtas(Interpreter x, Machine m, int s, int mask) {
        if (mask == 0) {
            x.report(DiagnosticCode.MULTICAST_EMPTY_MASK, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc)
                    + " has ctaMask 0, naming no destination CTA; the copy is not issued (undefined, PTX ISA 9.7.9.25.4)",
                    new int[] {pc}, new int[] {s}, null);
            return null;
        }
        int[] members = m.memory.clusterMembers[m.ctaOfSlot(s)];
        int[] ctas = new int[Integer.bitCount(mask)];
        int k = 0;
        for (int r = 0; r < 16; r++) {
            if ((mask & (1 << r)) == 0) continue;
            if (r >= members.length) {
                x.report(DiagnosticCode.MEMORY_FAULT, m.threadName(s) + ": multicast mask 0x" + Integer.toHexString(mask)
                        + " at " + x.where(pc) + " names rank " + r + " but the cluster has " + members.length + " CTAs",
                        new int[] {pc}, new int[] {s}, null);
                return null;
            }
            ctas[k++] = members[r];
        }
        return ctas;
    }

    /** "full+8 (shared 0x18)": the variable and offset, for messages. */
    public static String name(Machine m, int offset) {
        return MbarrierSync.describe(m, offset);
    }

    protected void report(Interpreter x, DiagnosticCode code, int s, Mbarrier b, String what) {
        Machine m = x.machine();
        x.report(code, m.threadName(s) + ": " + insn.mnemonic() + " at " + x.where(pc) + " on mbarrier " + name(m, b.offset)
                + " (" + b + "): " + what, new int[] {pc}, new int[] {s}, BarrierRefs.mbarrier(m, b, name(m, b.offset)));
    }
}
