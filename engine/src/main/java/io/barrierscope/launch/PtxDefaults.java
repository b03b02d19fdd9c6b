package io.barrierscope.launch;

import io.barrierscope.exec.Dim3;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.ptx.Variable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A launch for a bare .ptx (README, "Command line"): its first entry, one CTA of 32 threads, every 64-bit
 * parameter a zeroed 4 KiB buffer, every other parameter zero. The notes say so.
 */
public final class PtxDefaults {
    private PtxDefaults() {}

    static final int DEFAULT_BUFFER_BYTES = 4096;

    /**
     * A parameter no default can stand for (a 128-byte CUtensorMap: only the kernel's author knows
     * the tensor's shape and box; any other struct) is refused with a launch file to start from,
     * every parameter filled in, the unknowns marked.
     */
    private static void needsALaunchFile(Path p, Function k, Dim3 grid, Dim3 block) {
        String odd = null;
        for (Variable v : k.params()) {
            long n = v.sizeBytes();
            if (n != 1 && n != 2 && n != 4 && n != 8) {
                odd = v.name() + " (" + n + " bytes" + (n == io.barrierscope.sync.TensorMap.BYTES ? ", a CUtensorMap for TMA copies" : "") + ")";
                break;
            }
        }
        if (odd == null) return;
        StringBuilder t = new StringBuilder();
        t.append("{\n  \"ptx\": \"").append(p.getFileName()).append("\", \"kernel\": \"").append(k.name()).append("\",\n");
        t.append("  \"grid\": [").append(grid.x()).append(", ").append(grid.y()).append(", ").append(grid.z()).append("], \"block\": [")
                .append(block.x()).append(", ").append(block.y()).append(", ").append(block.z()).append("],\n  \"args\": [\n");
        boolean tensor = false;
        for (int i = 0; i < k.params().size(); i++) {
            Variable v = k.params().get(i);
            long n = v.sizeBytes();
            String a;
            if (n == io.barrierscope.sync.TensorMap.BYTES) {
                a = "{\"tensorMap\": {\"buffer\": \"tensor\", \"dims\": [WIDTH, HEIGHT], \"box\": [BOX_W, BOX_H]}}";
                tensor = true;
            } else if (n == 8) {
                a = "{\"buffer\": \"" + v.name() + "\", \"type\": \"u32\", \"count\": 1024, \"init\": \"zero\"}";
            } else if (n == 1 || n == 2 || n == 4) {
                a = "{\"value\": 0, \"type\": \"u" + (8 * n) + "\"}";
            } else {
                a = "(" + n + "-byte parameter: not expressible in a launch file)";
            }
            t.append("    ").append(a).append(i + 1 < k.params().size() ? ",\n" : "\n");
        }
        t.append("  ]");
        if (tensor) t.append(",\n  \"buffers\": [{\"buffer\": \"tensor\", \"type\": \"s32\", \"count\": WIDTH_TIMES_HEIGHT, \"init\": \"iota\"}]");
        t.append("\n}");
        throw new BadInputException(p + ": error: " + k.name() + " takes parameter " + odd + ", which a bare .ptx cannot default: "
                + "write a launch file (README, Launch files) and run that. To start from, with the capitals replaced by your"
                + " tensor's dimensions (innermost first) and the box the kernel copies:\n" + t);
    }

    /**
     * The launch for a bare .ptx on the command line: one CTA of 32 threads, except that a kernel
     * declaring its cluster ({@code .reqnctapercluster} or {@code .cluster_dim}) gets one cluster of
     * CTAs (a grid of one CTA could not hold it) and one declaring {@code .reqntid} gets that block.
     */
    static LaunchSpec spec(Path ptx) {
        Path p = ptx.toAbsolutePath().normalize();
        Function k = firstEntry(p, LaunchValidation.parse(p));
        var d = k.directives();
        int[] c = d.reqnctapercluster() != null ? d.reqnctapercluster() : d.clusterDim();
        Dim3 grid = c != null ? new Dim3(Math.max(1, c[0]), Math.max(1, c[1]), Math.max(1, c[2])) : Dim3.ONE;
        int[] t = d.reqntid();
        Dim3 block = t != null ? new Dim3(Math.max(1, t[0]), Math.max(1, t[1]), Math.max(1, t[2])) : new Dim3(32, 1, 1);
        return spec(ptx, grid, block, null);
    }

    private static Function firstEntry(Path p, Module module) {
        List<Function> entries = module.entries();
        if (entries.isEmpty()) throw new BadInputException(p + ": error: the PTX has no .entry to run");
        return entries.get(0);
    }

    /**
     * A launch for a bare .ptx with the given shape (the window's launch dialog): its first entry,
     * every 64-bit parameter a zeroed 4 KiB buffer, every other parameter zero; cluster may be null.
     */
    public static LaunchSpec spec(Path ptx, Dim3 grid, Dim3 block, Dim3 cluster) {
        Path p = ptx.toAbsolutePath().normalize();
        Function k = firstEntry(p, LaunchValidation.parse(p));
        needsALaunchFile(p, k, grid, block);
        List<ArgSpec> args = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add("no launch file: running " + k.name() + " with " + grid.volume() + " CTA" + (grid.volume() == 1 ? "" : "s")
                + " of " + block.volume() + " threads");
        for (Variable v : k.params()) {
            if (v.sizeBytes() == 8) {
                args.add(new ArgSpec(v.name(), ScalarType.U8, DEFAULT_BUFFER_BYTES, "zero", null, null));
                notes.add("parameter " + v.name() + ": a zeroed buffer of " + DEFAULT_BUFFER_BYTES + " bytes");
            } else {
                ScalarType t = v.sizeBytes() == 4 ? ScalarType.U32 : v.sizeBytes() == 2 ? ScalarType.U16 : ScalarType.U8;
                args.add(new ArgSpec(null, t, 0, null, null, 0L));
                notes.add("parameter " + v.name() + ": 0");
            }
        }
        return new LaunchSpec(p, p, k.name(), grid, block, cluster, args, 0, null, "round-robin", 0,
                LaunchSpec.DEFAULT_MAX_STEPS, notes);
    }
}
