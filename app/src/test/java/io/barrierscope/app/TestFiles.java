package io.barrierscope.app;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the bundled samples from a test, whatever directory Maven runs it in. */
public final class TestFiles {
    private TestFiles() {}

    /**
     * A bare PTX kernel of one warp that loops {@code iterations} times (about three warp steps
     * each), for runs long enough to pause; written into {@code dir}.
     */
    public static Path spinPtx(Path dir, int iterations) throws java.io.IOException {
        String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry spin()\n{\n"
                + "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  mov.u32 %r1, 0;\n$L_loop:\n  add.s32 %r1, %r1, 1;\n"
                + "  setp.lt.s32 %p1, %r1, " + iterations + ";\n  @%p1 bra $L_loop;\n  ret;\n}\n";
        return Files.writeString(dir.resolve("spin.ptx"), ptx);
    }

    /** A kernel with a schedule-dependent bug from the samples' explore tests ({@code samples/src/test/resources/explore/NAME}). */
    public static Path exploreKernel(String name) {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation())
                .orElseThrow(() -> new IllegalStateException("repository root with samples/ not found"));
        Path p = root.resolve("samples/src/test/resources/explore").resolve(name).resolve("launch.json");
        if (!Files.isRegularFile(p)) throw new IllegalStateException("no explore kernel " + p);
        return p;
    }

    /**
     * The engine's printf kernel (nvcc output of {@code engine/src/test/resources/ptx-corpus/printf_debug.cu}):
     * thread 0 prints a header, every CTA's thread 0 "block N done" after a barrier.
     */
    public static Path printfPtx() {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation())
                .orElseThrow(() -> new IllegalStateException("repository root with samples/ not found"));
        Path p = root.resolve("engine/src/test/resources/ptx-corpus/printf_debug.ptx");
        if (!Files.isRegularFile(p)) throw new IllegalStateException("no printf kernel " + p);
        return p;
    }

    public static Path sample(String name) {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation())
                .orElseThrow(() -> new IllegalStateException("repository root with samples/ not found"));
        Path p = root.resolve("samples").resolve(name).resolve("launch.json");
        if (!Files.isRegularFile(p)) throw new IllegalStateException("no sample " + p);
        return p;
    }
}
