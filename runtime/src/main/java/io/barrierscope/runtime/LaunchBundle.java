package io.barrierscope.runtime;

import io.barrierscope.launch.LaunchValidation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.Program;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A launch of the program as a folder that `barrierscope run BUNDLE/launch.json` reproduces:
 * kernel.ptx (the module's PTX), launch.json (grid, block, cluster, every parameter's exact bytes
 * as a struct, the module's globals and constants), memory/*.bin (the bytes of every device
 * allocation at launch time, at its own address, so pointers inside parameters and buffers stay
 * valid) and trace.bstrace (the run, recorded). Written into a temporary folder and moved into
 * place, so a bundle is whole or absent.
 */
final class LaunchBundle {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The device memory and module state a launch started from. */
    record Before(List<GlobalMemory.Segment> segments, byte[] constBank) {}

    /**
     * Keeps, during one launch, the bytes of each 4 KiB page of device memory as they were before
     * the launch first wrote it; so what a launch costs is proportional to what it writes, and a
     * whole buffer is copied only when a bundle is written. Kernels never write the constant bank.
     */
    static final class Watch implements GlobalMemory.WriteWatch {
        static final int PAGE = 4096;
        private final java.util.IdentityHashMap<GlobalMemory.Segment, java.util.Map<Integer, byte[]>> pages = new java.util.IdentityHashMap<>();
        private GlobalMemory.Segment lastSegment;
        private java.util.Map<Integer, byte[]> lastPages;
        private int lastPage = -1;

        @Override
        public void beforeWrite(GlobalMemory.Segment s, int offset, int size) {
            int first = offset / PAGE;
            int last = (offset + Math.max(size, 1) - 1) / PAGE;
            if (s == lastSegment && first == lastPage && last == first) return; // a run of writes to one page
            if (s != lastSegment) {
                lastSegment = s;
                lastPages = pages.computeIfAbsent(s, k -> new java.util.HashMap<>());
            }
            for (int p = first; p <= last; p++) {
                if (!lastPages.containsKey(p)) {
                    int from = p * PAGE;
                    lastPages.put(p, java.util.Arrays.copyOfRange(s.data(), from, Math.min(s.data().length, from + PAGE)));
                }
            }
            lastPage = first;
        }

        /** The memory as the launch found it (call after the run, before the program goes on). */
        Before before(GlobalMemory device, DeviceModule m) {
            List<GlobalMemory.Segment> out = new ArrayList<>();
            for (GlobalMemory.Segment s : device.segments()) {
                java.util.Map<Integer, byte[]> saved = pages.get(s);
                if (saved == null || saved.isEmpty()) {
                    out.add(s);
                    continue;
                }
                byte[] b = s.data().clone();
                for (var e : saved.entrySet()) System.arraycopy(e.getValue(), 0, b, e.getKey() * PAGE, e.getValue().length);
                out.add(new GlobalMemory.Segment(s.name(), s.base(), b, s.readOnly()));
            }
            return new Before(out, m == null ? null : m.constBank);
        }
    }

    private LaunchBundle() {}

    /** File names of device segments: "cudaMalloc#3" is saved as memory/cudaMalloc-3.bin. */
    private static String fileName(String segment) { return segment.replaceAll("[^A-Za-z0-9_.-]", "-") + ".bin"; }

    /**
     * Writes the bundle into {@code dir} (which must not exist), then runs it once more as `run`
     * would, recording the trace; returns a note when that run does not end as the program's did.
     */
    static String write(Path dir, DeviceModule m, Program p, String entry, int[] dims, int dynShared, byte[] params, Before before,
                        LaunchOptions o, Outcome outcome, long steps) throws IOException {
        Path parent = dir.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = Files.createTempDirectory(parent, ".bundle");
        Files.writeString(tmp.resolve("kernel.ptx"), m.ptxOf(entry)); // the entry's part, lines as in the module
        Files.createDirectories(tmp.resolve("memory"));
        ObjectNode root = JSON.createObjectNode();
        root.put("ptx", "kernel.ptx");
        root.put("kernel", entry);
        root.set("grid", JSON.createArrayNode().add(dims[0]).add(dims[1]).add(dims[2]));
        root.set("block", JSON.createArrayNode().add(dims[3]).add(dims[4]).add(dims[5]));
        if (dims[6] != 0) root.set("cluster", JSON.createArrayNode().add(dims[6]).add(dims[7]).add(dims[8]));
        if (dynShared > 0) root.put("dynamicSharedBytes", dynShared);
        ArrayNode args = root.putArray("args");
        for (Program.KernelParam kp : p.kernelParams) {
            byte[] b = java.util.Arrays.copyOfRange(params, kp.offset(), kp.offset() + kp.size());
            args.addObject().putObject("struct").put("base64", Base64.getEncoder().encodeToString(b));
        }
        root.put("globalBase", "0x" + Long.toHexString(m.globalBase));
        ObjectNode globals = JSON.createObjectNode();
        ArrayNode buffers = JSON.createArrayNode();
        long next = 0;
        List<String> skipped = new ArrayList<>();
        for (GlobalMemory.Segment s : before.segments()) {
            String file = "memory/" + fileName(s.name());
            if (m.globals.containsKey(s.name()) && m.globals.get(s.name()).base() == s.base()) {
                Files.write(tmp.resolve(file), s.data());
                globals.putObject(s.name()).put("file", file);
                next = Math.max(next, s.end());
            } else if (s.base() >= next && s.base() >= m.globalBase && s.data().length > 0) {
                Files.write(tmp.resolve(file), s.data());
                buffers.addObject().put("buffer", s.name()).put("type", "u8").put("address", "0x" + Long.toHexString(s.base())).put("file", file);
                next = s.end();
            } else if (s.data().length > 0) {
                skipped.add(s.name()); // another module's variables, placed below this one's
            }
        }
        if (!globals.isEmpty()) root.set("globals", globals);
        if (!buffers.isEmpty()) root.set("buffers", buffers);
        ObjectNode constants = JSON.createObjectNode();
        for (var e : m.constants.entrySet()) {
            byte[] c = java.util.Arrays.copyOfRange(before.constBank(), (int) e.getValue()[0], (int) (e.getValue()[0] + e.getValue()[1]));
            constants.putObject(e.getKey()).put("base64", Base64.getEncoder().encodeToString(c));
        }
        if (!constants.isEmpty()) root.set("constants", constants);
        ObjectNode run = root.putObject("run");
        run.put("policy", o.policy());
        run.put("seed", o.seed());
        run.put("maxSteps", o.maxSteps());
        Files.writeString(tmp.resolve("launch.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
        String note = record(tmp, o, outcome, steps);
        if (!skipped.isEmpty()) note = (note == null ? "" : note + "; ") + "left out (other modules' variables): " + String.join(", ", skipped);
        Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return note;
    }

    /** Runs the bundle as `run` does, recording trace.bstrace; a note when it does not end as the program's launch did. */
    private static String record(Path dir, LaunchOptions o, Outcome outcome, long steps) throws IOException {
        LaunchedRun r = LaunchValidation.validate(dir.resolve("launch.json"), new LaunchValidation.Use(o.race(), 0)).start();
        TimeTravel tt = new TimeTravel(r, o.maxSteps());
        while (tt.runForwardPastBrkpts(() -> false).reason() == TimeTravel.Reason.BREAKPOINT) {
            // no breakpoints are set, and brkpt instructions are run past: this returns at the end
        }
        TraceFile.write(tt, dir.resolve("trace.bstrace"));
        Outcome again = r.interpreter().outcome();
        if (again != outcome || r.machine().steps != steps) {
            return "the bundle does not reproduce the launch exactly (" + again.jsonName() + " after " + r.machine().steps
                    + " steps, not " + outcome.jsonName() + " after " + steps + ")";
        }
        return o.race() ? null : "the program ran with --no-race; run the bundle with --no-race too";
    }
}
