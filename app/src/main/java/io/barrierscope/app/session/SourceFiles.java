package io.barrierscope.app.session;

import io.barrierscope.diag.CudaLoc;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what the source panes show besides the PTX: the CUDA files the PTX's {@code .file}
 * directives name (relative to the PTX, as the samples keep them) and the lesson beside the
 * opened file. Runs on the engine thread when a file is opened, so the FX thread does no I/O.
 */
final class SourceFiles {
    /** Larger files are not shown: a source pane is for reading, not for megabytes. */
    static final long MAX_SOURCE_BYTES = 8L << 20;
    private static final Pattern LOC = Pattern.compile("^\\s*\\.loc\\s+(\\d+)\\s+(\\d+)(?:\\s+(\\d+))?");
    private static final Pattern INLINED_AT = Pattern.compile("inlined_at\\s+(\\d+)\\s+(\\d+)(?:\\s+(\\d+))?");

    private SourceFiles() {}

    static OpenedFile opened(Path file, LaunchedRun run, String note, boolean trace) {
        Module module = run.module();
        SourceMap map = sourceMap(module);
        Path ptxDir = run.ptxPath().toAbsolutePath().getParent();
        List<CudaFile> cuda = cudaFiles(module, ptxDir, run::carriedSource);
        Path lesson = lessonOf(file, run.ptxPath());
        String text = lesson == null ? null : readSmall(lesson);
        return new OpenedFile(file, module.sourceName(), List.copyOf(module.sourceLines()), map, cuda,
                text == null ? null : lesson, text, run.policyName(), run.seed(), note, trace, trace ? null : run.spec());
    }

    static SourceMap sourceMap(Module module) {
        Map<Integer, CudaLoc> insns = new HashMap<>();
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) if (in.loc() != null) insns.put(in.pos().line(), in.loc());
        }
        Map<Integer, CudaLoc> directives = new HashMap<>();
        Map<Integer, CudaLoc> callSites = new HashMap<>();
        List<String> lines = module.sourceLines();
        CudaLoc inlinedAt = null; // of the last .loc: instructions after it were inlined there
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            Matcher m = LOC.matcher(text);
            if (m.lookingAt()) {
                CudaLoc loc = loc(module, m.group(1), m.group(2), m.group(3));
                if (loc != null) directives.put(i + 1, loc);
                Matcher at = INLINED_AT.matcher(text);
                inlinedAt = at.find(m.end()) ? loc(module, at.group(1), at.group(2), at.group(3)) : null;
            } else if (text.contains(".entry") || text.contains(".func")) {
                inlinedAt = null; // a new function starts without a .loc
            } else if (inlinedAt != null && insns.containsKey(i + 1)) {
                callSites.put(i + 1, inlinedAt);
            }
        }
        return new SourceMap(insns, directives, callSites);
    }

    private static CudaLoc loc(Module module, String file, String line, String col) {
        String name = module.files().get(Integer.parseInt(file));
        int l = Integer.parseInt(line);
        return name == null || l <= 0 ? null : new CudaLoc(name, l, col == null ? 0 : Integer.parseInt(col));
    }

    /** The files the PTX names, most used first, each read when it can be. */
    static List<CudaFile> cudaFiles(Module module, Path ptxDir) { return cudaFiles(module, ptxDir, name -> null); }

    /** As above; a file missing on disk is taken from {@code carried} (the sources a trace brings) when it has it. */
    static List<CudaFile> cudaFiles(Module module, Path ptxDir, java.util.function.Function<String, String> carried) {
        Map<String, Integer> uses = new HashMap<>();
        for (Function f : module.functions().values()) {
            for (Instruction in : f.instructions()) if (in.loc() != null) uses.merge(in.loc().file(), 1, Integer::sum);
        }
        List<CudaFile> out = new ArrayList<>();
        for (String name : module.files().values()) {
            if (out.stream().anyMatch(c -> c.name().equals(name))) continue;
            CudaFile f = read(name, ptxDir, uses.getOrDefault(name, 0));
            String text = f.lines() == null ? carried.apply(name) : null;
            if (text != null) f = new CudaFile(name, f.path(), List.copyOf(text.lines().toList()), null, f.uses());
            out.add(f);
        }
        out.sort(Comparator.comparingInt(CudaFile::uses).reversed().thenComparing(CudaFile::name));
        return List.copyOf(out);
    }

    private static CudaFile read(String name, Path ptxDir, int uses) {
        Path p;
        try {
            p = ptxDir == null ? Path.of(name) : ptxDir.resolve(name).normalize();
        } catch (InvalidPathException e) {
            return new CudaFile(name, null, null, "not a valid path", uses);
        }
        if (!Files.isRegularFile(p)) return new CudaFile(name, p, null, "not found", uses);
        try {
            if (Files.size(p) > MAX_SOURCE_BYTES) return new CudaFile(name, p, null, "larger than 8 MiB", uses);
            String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
            return new CudaFile(name, p, List.copyOf(text.lines().toList()), null, uses);
        } catch (IOException e) {
            return new CudaFile(name, p, null, "cannot be read: " + e.getMessage(), uses);
        }
    }

    /** The lesson.md beside the opened file, else beside the PTX; null if neither has one. */
    static Path lessonOf(Path opened, Path ptx) {
        for (Path p : new Path[] {opened, ptx}) {
            Path dir = p == null ? null : p.toAbsolutePath().getParent();
            if (dir != null && Files.isRegularFile(dir.resolve("lesson.md"))) return dir.resolve("lesson.md");
        }
        return null;
    }

    private static String readSmall(Path p) {
        try {
            if (Files.size(p) > MAX_SOURCE_BYTES) return null;
            return Files.readString(p);
        } catch (IOException e) {
            return null; // no lesson is shown, which is what a missing lesson means anyway
        }
    }
}
