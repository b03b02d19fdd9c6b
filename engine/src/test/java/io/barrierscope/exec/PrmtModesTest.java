package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import org.junit.jupiter.api.Test;

/**
 * prmt's six modes (PTX ISA 9.7.9, prmt): c[1:0] picks one row of the ISA's table, whose entries
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
}
