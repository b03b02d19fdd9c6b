package io.barrierscope.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells, before running it, whether a program can load our runtime: an ELF file that embeds CUDA
 * device code but does not name libcudart.so.13 among the libraries it needs was linked with the
 * static runtime (nvcc's default) or another CUDA version's, and would never call us.
 */
final class ProgramCheck {
    private static final byte[] ELF = {0x7f, 'E', 'L', 'F'};
    private static final byte[] CUDART13 = bytes("libcudart.so.13");
    private static final byte[] CUDART_ANY = bytes("libcudart.so.");
    private static final byte[] FATBIN_SECTION = bytes(".nv_fatbin");

    private ProgramCheck() {}

    private static byte[] bytes(String s) { return s.getBytes(StandardCharsets.US_ASCII); }

    /** Null when the program may run (dynamic libcudart.so.13, no CUDA at all, or not ELF: a script); else why not. */
    static String cudaRuntimeOf(Path exe) throws IOException {
        boolean elf = false, cudart13 = false, otherCudart = false, fatbin = false;
        byte[] buf = new byte[1 << 20];
        int keep = 0;
        long offset = 0;
        try (InputStream in = Files.newInputStream(exe)) {
            while (true) {
                int n = in.readNBytes(buf, keep, buf.length - keep);
                if (n <= 0) break;
                int len = keep + n;
                if (offset == 0) elf = len >= 4 && startsWith(buf, 0, ELF);
                if (!elf) return null;
                cudart13 |= contains(buf, len, CUDART13);
                otherCudart |= contains(buf, len, CUDART_ANY);
                fatbin |= contains(buf, len, FATBIN_SECTION);
                // Keep a tail so that a name split between two reads is still found.
                keep = Math.min(32, len);
                System.arraycopy(buf, len - keep, buf, 0, keep);
                offset += n;
            }
        }
        if (cudart13) return null;
        if (otherCudart) {
            return "it needs another CUDA version's runtime (not libcudart.so.13); BarrierScope stands in for CUDA 13's: "
                    + "rebuild it with nvcc 13 and -cudart shared";
        }
        if (fatbin) {
            return "it was built with the static CUDA runtime (nvcc's default), which BarrierScope cannot stand in for: "
                    + "rebuild it with nvcc -cudart shared";
        }
        return null;
    }

    private static boolean startsWith(byte[] b, int at, byte[] p) {
        for (int i = 0; i < p.length; i++) if (b[at + i] != p[i]) return false;
        return true;
    }

    private static boolean contains(byte[] b, int len, byte[] p) {
        outer:
        for (int i = 0; i + p.length <= len; i++) {
            for (int j = 0; j < p.length; j++) if (b[i + j] != p[j]) continue outer;
            return true;
        }
        return false;
    }
}
