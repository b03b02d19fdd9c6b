package io.barrierscope.app.session;

import io.barrierscope.diag.CudaLoc;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * PTX lines to CUDA lines and back, from the {@code .loc} information of a module. Immutable.
 * An instruction line maps to the CUDA location of the {@code .loc} before it; a {@code .loc}
 * line maps to the location it states. Back from CUDA, only instruction lines count: those are
 * the lines that run. For instructions of inlined functions the call site is kept too.
 */
public final class SourceMap {
    public static final SourceMap EMPTY = new SourceMap(Map.of(), Map.of());

    private final Map<Integer, CudaLoc> instructions;
    private final Map<Integer, CudaLoc> directives;
    private final Map<Integer, CudaLoc> callSites;
    /** file -> CUDA line -> PTX instruction lines. */
    private final Map<String, Map<Integer, SortedSet<Integer>>> back = new TreeMap<>();

    public SourceMap(Map<Integer, CudaLoc> instructions, Map<Integer, CudaLoc> directives) {
        this(instructions, directives, Map.of());
    }

    /**
     * @param callSites for instructions of inlined functions, where they were inlined
     *                  ({@code .loc ..., inlined_at F L C}): the place to show when the
     *                  function's own file is not available
     */
    public SourceMap(Map<Integer, CudaLoc> instructions, Map<Integer, CudaLoc> directives, Map<Integer, CudaLoc> callSites) {
        this.instructions = Map.copyOf(instructions);
        this.directives = Map.copyOf(directives);
        this.callSites = Map.copyOf(callSites);
        for (Map.Entry<Integer, CudaLoc> e : instructions.entrySet()) {
            CudaLoc loc = e.getValue();
            back.computeIfAbsent(loc.file(), f -> new TreeMap<>())
                    .computeIfAbsent(loc.line(), l -> new TreeSet<>()).add(e.getKey());
        }
    }

    /** The CUDA location of a 1-based PTX line, or null. */
    public CudaLoc cudaOf(int ptxLine) {
        CudaLoc loc = instructions.get(ptxLine);
        return loc != null ? loc : directives.get(ptxLine);
    }

    /** Where the instruction on a PTX line was inlined, or null when it was not. */
    public CudaLoc callSiteOf(int ptxLine) {
        return callSites.get(ptxLine);
    }

    /** The PTX instruction lines that map to a CUDA line, ascending (empty if none). */
    public List<Integer> ptxLinesOf(String file, int cudaLine) {
        Map<Integer, SortedSet<Integer>> lines = back.get(file);
        SortedSet<Integer> ptx = lines == null ? null : lines.get(cudaLine);
        return ptx == null ? List.of() : List.copyOf(ptx);
    }

    /** The CUDA lines of a file that some instruction maps to. */
    public SortedSet<Integer> mappedLines(String file) {
        Map<Integer, SortedSet<Integer>> lines = back.get(file);
        return lines == null ? Collections.emptySortedSet() : Collections.unmodifiableSortedSet(new TreeSet<>(lines.keySet()));
    }

    public boolean isEmpty() { return instructions.isEmpty() && directives.isEmpty(); }
}
