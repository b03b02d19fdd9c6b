package io.barrierscope.app.session;

import io.barrierscope.launch.LaunchSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * A file the session opened: the file asked for, the PTX it runs and that PTX's text lines, how
 * PTX lines map to CUDA lines, the CUDA files the PTX names (most used first), the sample's
 * lesson text (null when there is no lesson.md beside the file), the policy and seed it runs
 * under, what to tell the user about how it was opened ("" if nothing), whether it is a trace,
 * and the launch it runs (what Explore searches; null for a trace, whose PTX lives in the trace).
 */
public record OpenedFile(Path file, String ptxName, List<String> ptxLines, SourceMap sourceMap,
                         List<CudaFile> cudaFiles, Path lessonFile, String lesson,
                         String policy, long seed, String note, boolean trace, LaunchSpec launch) {

    /** A launch without the run's settings (tests). */
    public OpenedFile(Path file, String ptxName, List<String> ptxLines, SourceMap sourceMap,
                      List<CudaFile> cudaFiles, Path lessonFile, String lesson) {
        this(file, ptxName, ptxLines, sourceMap, cudaFiles, lessonFile, lesson, "round-robin", 0, "", false, null);
    }

    /** A file without CUDA sources or lesson (tests). */
    public OpenedFile(Path file, String ptxName, List<String> ptxLines) {
        this(file, ptxName, ptxLines, SourceMap.EMPTY, List.of(), null, null);
    }
}
