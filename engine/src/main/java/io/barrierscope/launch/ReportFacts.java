package io.barrierscope.launch;

import io.barrierscope.check.Deadlock;
import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Dim3;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's structured objects (barrier identity, needs, locations, thread groups) as JSON
 * maps. Keys are inserted in a fixed order and a fact that does not apply is left out rather
 * than written as null, so a script can test for a key.
 */
final class ReportFacts {
    private ReportFacts() {}

    /** A barrier object: kind, CTA, identity and state, and the description in words. */
    static Map<String, Object> barrier(BarrierRef b) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("kind", b.kind());
        putIf(j, "cta", b.cta() == null ? null : List.of(b.cta().x(), b.cta().y(), b.cta().z()));
        putIf(j, "id", b.id());
        putIf(j, "variable", b.variable());
        putIf(j, "offset", b.offset());
        putIf(j, "warp", b.warp());
        putIf(j, "membermask", b.membermask() == null ? null : "0x" + Integer.toHexString(b.membermask()));
        putIf(j, "generation", b.generation());
        putIf(j, "phase", b.phase());
        // Only mbarrier waits name a phase by its parity.
        if (BarrierRef.MBARRIER.equals(b.kind())) putIf(j, "parity", b.parity());
        j.put("description", b.description());
        return j;
    }

    /** What a wait needs: the counts and mbarrier state, and the description in words. */
    static Map<String, Object> needs(Deadlock.Needs n, String description) {
        Map<String, Object> j = new LinkedHashMap<>();
        if (n != null) {
            putIf(j, "unit", n.unit());
            putIf(j, "expected", n.expected());
            putIf(j, "arrived", n.arrived());
            putIf(j, "remaining", n.remaining());
            putIf(j, "threadCount", n.threadCount());
            putIf(j, "ctaWarps", n.ctaWarps());
            putIf(j, "phase", n.phase());
            putIf(j, "parity", n.parity());
            putIf(j, "txCount", n.txCount());
            putIf(j, "txExpected", n.txExpected());
            putIf(j, "txCompleted", n.txCompleted());
        }
        j.put("description", description);
        return j;
    }

    /** Where an instruction is: PTX file name, line, column, the CUDA location when known, the instruction text. */
    static Map<String, Object> place(Deadlock.Place p) {
        Map<String, Object> j = ptx(p.ptx());
        putIf(j, "cuda", p.cuda() == null ? null : cuda(p.cuda()));
        j.put("instruction", p.instruction());
        return j;
    }

    static Map<String, Object> ptx(SourcePos p) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("file", fileName(p.file()));
        j.put("line", p.line());
        j.put("column", p.col());
        return j;
    }

    static Map<String, Object> cuda(CudaLoc c) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("file", c.file());
        j.put("line", c.line());
        j.put("column", c.col());
        return j;
    }

    /** Threads of one warp: CTA, warp index in the CTA, lane numbers. */
    static Map<String, Object> group(Deadlock.Group g) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("cta", dim(g.cta()));
        j.put("warp", g.warp());
        List<Integer> lanes = new ArrayList<>();
        for (int l = g.lanes(); l != 0; l &= l - 1) lanes.add(Integer.numberOfTrailingZeros(l));
        j.put("lanes", lanes);
        return j;
    }

    static List<Integer> dim(Dim3 d) { return List.of(d.x(), d.y(), d.z()); }

    static String fileName(String file) {
        // A string, not a Path: the name comes from the PTX's .file directive and may hold anything (a NUL too).
        int cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
        return cut < 0 || cut == file.length() - 1 ? file : file.substring(cut + 1);
    }

    private static void putIf(Map<String, Object> j, String key, Object value) {
        if (value != null) j.put(key, value);
    }
}
