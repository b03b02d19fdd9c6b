package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * prmt's six modes (PTX ISA 9.7.9.7, prmt): c[1:0] picks one row of the ISA's table, whose entries
 * name the source byte of d.b3, d.b2, d.b1, d.b0; the rest of c is ignored and no sign is
 * replicated (only the generic form does that). The rows are written out here as the ISA prints
 * them, not computed.
 */
class PrmtModesTest {
    // Source bytes 0..7 of {b, a}; every other one has its sign bit set, which a mode must not replicate.
    private static final long[] BYTES = {0x91, 0x22, 0xB3, 0x44, 0xD5, 0x66, 0xF7, 0x88};
    private static final long A = 0x44B32291L;
    private static final long B = 0x88F766D5L;

    /** Runs prmt.b32.MODE for c[1:0] = 0..3, each once with c's other bits clear and once with them set. */
    private static void check(String mode, String... rows) {
        StringBuilder body = new StringBuilder("mov.b32 %r1, " + A + ";\nmov.b32 %r2, " + B + ";\n");
        for (int k = 0; k < 4; k++) {
            body.append("mov.b32 %r4, ").append(k).append(";\nprmt.b32.").append(mode).append(" %r3, %r1, %r2, %r4;\n").append(w(2 * k, "%r3"));
            body.append("mov.b32 %r4, ").append(0xFFFFFFFCL | k).append(";\nprmt.b32.").append(mode).append(" %r3, %r1, %r2, %r4;\n")
                    .append(w(2 * k + 1, "%r3"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).wSlots(8).ok();
        for (int k = 0; k < 4; k++) {
            long want = 0;
            for (int pos = 0; pos < 4; pos++) { // rows[k] lists d.b3 first
                int src = rows[k].charAt(pos) - '0';
                want |= BYTES[src] << (8 * (3 - pos));
            }
            assertEquals(want, w(r, 2 * k), mode + " c[1:0] = " + k);
            assertEquals(want, w(r, 2 * k + 1), mode + " c[1:0] = " + k + " with c's other bits set");
        }
    }

    @Test
    void f4eExtractsFourBytesForwardFromByteC() { check("f4e", "3210", "4321", "5432", "6543"); }

    @Test
    void b4eExtractsFourBytesBackwardWrappingPastByte0() { check("b4e", "5670", "6701", "7012", "0123"); }

    @Test
    void rc8ReplicatesByteCWithoutSignReplication() { check("rc8", "0000", "1111", "2222", "3333"); }

    @Test
    void eclClampsAtTheLeftEdge() { check("ecl", "3210", "3211", "3222", "3333"); }

    @Test
    void ecrClampsAtTheRightEdge() { check("ecr", "0000", "1110", "2210", "3210"); }

    @Test
    void rc16ReplicatesTheLowOrHighHalfWordOfA() { check("rc16", "1010", "3232", "1010", "3232"); }

    /**
     * The ISA's mode table (9.7.9.7) verbatim: per mode, the rows for c[1:0] = 0..3, each listing
     * the source byte of d.b3, d.b2, d.b1, d.b0.
     */
    private static final String[][] ISA_TABLE = {
        {"f4e", "3210", "4321", "5432", "6543"},
        {"b4e", "5670", "6701", "7012", "0123"},
        {"rc8", "0000", "1111", "2222", "3333"},
        {"ecl", "3210", "3211", "3222", "3333"},
        {"ecr", "0000", "1110", "2210", "3210"},
        {"rc16", "1010", "3232", "1010", "3232"},
    };

    /**
     * The ISA's semantics (9.7.9.7) written out independently of the engine: tmp64 = (b << 32) | a;
     * without a mode ctl[i] = c's nibble i, whose 3 lsbs pick the byte and whose msb replicates
     * the byte's sign; with a mode ctl = c & 3 picks the table's row.
     */
    private static long reference(String mode, long a, long b, long c) {
        long tmp64 = (b << 32) | a;
        long d = 0;
        for (int i = 0; i < 4; i++) {
            long byt;
            if (mode == null) {
                int ctl = (int) (c >>> (4 * i)) & 0xF;
                byt = (tmp64 >>> (8 * (ctl & 7))) & 0xFF;
                if ((ctl & 8) != 0) byt = (byt & 0x80) != 0 ? 0xFF : 0x00;
            } else {
                String row = null;
                for (String[] m : ISA_TABLE) if (m[0].equals(mode)) row = m[1 + (int) (c & 3)];
                int src = row.charAt(3 - i) - '0'; // the row lists d.b3 first
                byt = (tmp64 >>> (8 * src)) & 0xFF;
            }
            d |= byt << (8 * i);
        }
        return d;
    }

    @Test
    void everyFormMatchesTheIsaTableAndPseudocodeOnRandomOperands() {
        String[] modes = {null, "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        int n = 512;
        Random rnd = new Random(0x5EED_0707L);
        List<Number> abc = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < 3; j++) abc.add(rnd.nextInt() & 0xFFFFFFFFL);
        }
        StringBuilder body = new StringBuilder("ld.param.u64 %rd1, [v];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r10, 0;\n$Lloop:\n"
                + "mul.wide.u32 %rd2, %r10, 12;\nadd.u64 %rd3, %rd1, %rd2;\nld.global.u32 %r1, [%rd3];\nld.global.u32 %r2, [%rd3+4];\n"
                + "ld.global.u32 %r3, [%rd3+8];\nmul.wide.u32 %rd4, %r10, " + 4 * modes.length + ";\nadd.u64 %rd5, %rd40, %rd4;\n");
        for (int j = 0; j < modes.length; j++) {
            body.append("prmt.b32").append(modes[j] == null ? "" : "." + modes[j]).append(" %r4, %r1, %r2, %r3;\n")
                    .append("st.global.u32 [%rd5+").append(4 * j).append("], %r4;\n");
        }
        body.append("add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, ").append(n).append(";\n@%p1 bra $Lloop;\n");
        LaunchedRun r = ExecKernel.of(body.toString()).buffer("v", ScalarType.U32, abc).wSlots(n * modes.length).ok();
        for (int k = 0; k < n; k++) {
            long a = abc.get(3 * k).longValue(), b = abc.get(3 * k + 1).longValue(), c = abc.get(3 * k + 2).longValue();
            for (int j = 0; j < modes.length; j++) {
                assertEquals(reference(modes[j], a, b, c), w(r, k * modes.length + j), String.format("prmt.b32%s a=%08x b=%08x c=%08x",
                        modes[j] == null ? "" : "." + modes[j], a, b, c));
            }
        }
    }

    private static void assertRefused(String insn, String why) {
        LaunchedRun r = null;
        try {
            r = ExecKernel.of("mov.b32 %r1, 1;\n" + insn + "\n").run();
        } catch (RuntimeException e) {
            assertTrue(String.valueOf(e.getMessage()).contains(why), insn + ": " + e);
            return;
        }
        throw new AssertionError(insn + " was accepted: " + r.summary());
    }

    @Test
    void aTypeOtherThanB32IsRefused() { assertRefused("prmt.u32 %r2, %r1, %r1, %r1;", "prmt is .b32 only"); }

    @Test
    void twoModesAreRefused() { assertRefused("prmt.b32.f4e.rc8 %r2, %r1, %r1, %r1;", "at most one mode"); }
}
