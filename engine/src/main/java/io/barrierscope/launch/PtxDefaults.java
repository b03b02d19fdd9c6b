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
 * A launch for a bare .ptx (interfaces.md): its first entry, one CTA of 32 threads, every 64-bit
 * parameter a zeroed 4 KiB buffer, every other parameter zero. The notes say so.
 */
public final class PtxDefaults {
    private PtxDefaults() {}

    static final int DEFAULT_BUFFER_BYTES = 4096;

    static LaunchSpec spec(Path ptx) { return spec(ptx, Dim3.ONE, new Dim3(32, 1, 1), null); }

    /**
     * A launch for a bare .ptx with the given shape (the window's launch dialog): its first entry,
     * every 64-bit parameter a zeroed 4 KiB buffer, every other parameter zero; cluster may be null.
     */
    public static LaunchSpec spec(Path ptx, Dim3 grid, Dim3 block, Dim3 cluster) {
        Path p = ptx.toAbsolutePath().normalize();
        Module module = LaunchedRun.parse(p);
        List<Function> entries = module.entries();
        if (entries.isEmpty()) throw new BadInputException(p + ": error: the PTX has no .entry to run");
        Function k = entries.get(0);
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
