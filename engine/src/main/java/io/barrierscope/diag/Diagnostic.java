package io.barrierscope.diag;

import java.util.List;

/**
 * One finding of a run: code, severity, a message a student can read, the source locations
 * (PTX and, where known, CUDA), the threads concerned (global thread indices), the barrier
 * concerned (or null: for a race, the one that would have ordered the accesses) and the warp
 * step at which it fired.
 */
public record Diagnostic(DiagnosticCode code, Severity severity, String message, long step,
                         List<SourcePos> ptxLocations, List<CudaLoc> cudaLocations,
                         List<Integer> threads, BarrierRef barrierRef) {

    /** The barrier in words, e.g. "full (shared 0x0)", or null. */
    public String barrier() { return barrierRef == null ? null : barrierRef.description(); }
}
