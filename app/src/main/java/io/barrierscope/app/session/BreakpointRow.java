package io.barrierscope.app.session;

/**
 * One breakpoint as the panel and the gutters show it, copied from the engine's on its thread.
 *
 * @param id         the session's number for it (stable while the file is open, kept by a re-run)
 * @param spec       as written, e.g. {@code mbarrier:full,phase=1}
 * @param kind       in words, e.g. "mbarrier phase completes"
 * @param conditions e.g. "cta=0, phase=1", or ""
 * @param hits       times it matched going forward since it was set
 * @param ptxLine    for a PTX line breakpoint its line, else 0
 * @param cudaFile   for a CUDA line breakpoint its file as written, else null
 * @param cudaLine   for a CUDA line breakpoint its line, else 0
 */
public record BreakpointRow(int id, String spec, String kind, String conditions, long hits, boolean enabled,
                            int ptxLine, String cudaFile, int cudaLine) {}
