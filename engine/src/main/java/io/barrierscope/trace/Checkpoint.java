package io.barrierscope.trace;

import io.barrierscope.exec.Interpreter;

/**
 * A whole-machine snapshot for rr-style time travel: seek and reverse-step restore the nearest
 * checkpoint and re-execute forward, which is deterministic (docs/internals.md).
 * Immutable once taken, so one checkpoint serves any number of restores.
 */
public final class Checkpoint {
    private final Interpreter.Saved state;
    private final long bytes;

    private Checkpoint(Interpreter.Saved state) {
        this.state = state;
        this.bytes = state.bytes();
    }

    /** Deep copy of every piece of mutable run state of x (machine, memory, barrier objects, async queue, policy state, interpreter counters). */
    public static Checkpoint take(Interpreter x) { return new Checkpoint(x.save()); }

    /**
     * Puts x back into exactly the state it had when this was taken, in place (same Machine/Memory
     * objects, arrays copied into the existing ones; listeners stay attached and are not told).
     * The checkpoint stays valid for further restores. x must run the same launch (the same
     * Program object, so the same shape) under the same policy class, else
     * IllegalArgumentException and x is unchanged.
     */
    public void restoreInto(Interpreter x) { x.restore(state); }

    /** Machine (warp) steps at take time. */
    public long step() { return state.machine().steps(); }

    /** Virtual cycles at take time. */
    public long cycles() { return state.machine().cycles(); }

    /** Whether the register file, all zero at take time, was left out (the start of a run). */
    public boolean registersOmitted() { return state.machine().registersOmitted(); }

    /** Approximate heap footprint, for a memory budget. */
    public long bytes() { return bytes; }

    /** The part of {@link #bytes} that copies mbarrier objects and operations in flight (exec/Machine.Saved#syncObjectBytes). */
    public long syncObjectBytes() { return state.machine().syncObjectBytes(); }

    @Override
    public String toString() { return "checkpoint at step " + step() + " (" + (bytes >> 10) + " KiB)"; }
}
