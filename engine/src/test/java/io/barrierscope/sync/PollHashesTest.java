package io.barrierscope.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.Machine;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * A failed poll's fixpoint state (semantics.md on parking) folded for the lanes of one execution
 * at once is, lane by lane, exactly the lane's own fold: parking decisions and the state hashes
 * of traces do not depend on how it was computed.
 */
class PollHashesTest {
    private static final int[] REGS = {0, 1, 2, 3, 5, 7, 8};

    private static Machine machineWithVariedRegisters() {
        Machine m = PtxRun.kernel(".reg .b32 %r<12>;\nmov.u32 %r1, %tid.x;\nret;").threads(64).launch().machine();
        long v = 0x1234_5678_9ABC_DEF1L;
        for (int s = 0; s < 64; s++) {
            for (int r = 0; r < m.regsPerThread; r++) {
                v = v * 6364136223846793005L + 1442695040888963407L;
                m.setReg(s, r, v);
            }
        }
        return m;
    }

    @Test
    void theLanesFoldedTogetherGetEachLanesOwnFold() {
        Machine m = machineWithVariedRegisters();
        for (int active : new int[] {-1, 0x0000_F0F1, 0x8000_0001}) {
            PollHashes batch = new PollHashes();
            batch.begin(active);
            long seed = 77;
            for (int g = active; g != 0; g &= g - 1) {
                int slot = 32 + Integer.numberOfTrailingZeros(g);
                // A lane polling another object (another seed) midway starts a new batch.
                if (Integer.numberOfTrailingZeros(g) == 4) seed = 91;
                assertEquals(PollHashes.fold(m, slot, REGS, seed), batch.of(m, slot, REGS, seed), "slot " + slot);
            }
        }
    }

    @Test
    void aNewExecutionFoldsTheRegistersAsTheyAreThen() {
        Machine m = machineWithVariedRegisters();
        PollHashes batch = new PollHashes();
        batch.begin(-1);
        batch.of(m, 0, REGS, 5);
        m.setReg(3, 7, 42);
        batch.begin(-1);
        assertEquals(PollHashes.fold(m, 3, REGS, 5), batch.of(m, 3, REGS, 5));
    }
}
