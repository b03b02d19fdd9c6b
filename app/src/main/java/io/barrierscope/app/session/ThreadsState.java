package io.barrierscope.app.session;

import io.barrierscope.diag.CudaLoc;
import io.barrierscope.exec.Dim3;
import java.util.List;

/**
 * Every thread of the launch, grouped the way the hardware groups them, copied out of the engine
 * on its thread. Lanes of a warp that share a state, a PC and what they wait on form one
 * {@link LaneGroup}, so a launch of 64 Ki threads costs a few thousand small records, not one per
 * thread.
 *
 * @param grid         the launch grid, for CTA coordinates
 * @param block        the CTA shape, for thread coordinates
 * @param clusterShape the cluster shape ({@code (1,1,1)} without clusters)
 * @param ctas         every CTA, in linear order
 * @param warps        every warp, in linear order (warp = cta * warpsPerCta + warp in CTA)
 */
public record ThreadsState(Dim3 grid, Dim3 block, Dim3 clusterShape, List<Cta> ctas, List<Warp> warps) {
    public static final ThreadsState EMPTY = new ThreadsState(Dim3.ONE, Dim3.ONE, Dim3.ONE, List.of(), List.of());

    /** One CTA: its linear index, name ("CTA (1,0,0)"), its cluster's index and name. */
    public record Cta(int cta, String name, int cluster, String clusterName) {}

    /**
     * One warp: which CTA, its number in the CTA, the lanes that exist and the lane groups (in
     * order of their lowest lane; every existing lane is in exactly one).
     */
    public record Warp(int warp, int cta, int warpInCta, int existMask, List<LaneGroup> groups) {}

    /**
     * Lanes of one warp in the same situation.
     *
     * @param lanes   the lanes, as a mask
     * @param status  a {@link io.barrierscope.exec.ThreadStatus} value
     * @param pc      the next instruction (meaningless once exited)
     * @param ptxLine its 1-based PTX line, 0 if none
     * @param loc     its CUDA location, or null
     * @param waitsOn what the lanes wait on, e.g. "bar 1 · gen 0 · 2/4 warps", or "" when they do not wait
     * @param barrier   the barrier they wait on, as the barriers pane keys it, or null (none, or a
     *                  warp sync or async group, which the pane does not list)
     */
    public record LaneGroup(int lanes, byte status, int pc, int ptxLine, CudaLoc loc, String waitsOn, BarrierKey barrier) {
        /** Lanes that wait on no barrier of the pane (tests). */
        public LaneGroup(int lanes, byte status, int pc, int ptxLine, CudaLoc loc, String waitsOn) {
            this(lanes, status, pc, ptxLine, loc, waitsOn, null);
        }
    }

    /** Whether clusters are worth showing: more than one CTA per cluster. */
    public boolean clustered() { return clusterShape.volume() > 1; }
}
