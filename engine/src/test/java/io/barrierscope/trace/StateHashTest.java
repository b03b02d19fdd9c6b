package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/** The state hash sees every semantic difference and nothing else. */
class StateHashTest {
    /** Thread 0 starts a 128-byte bulk copy signalling an mbarrier; everyone waits for phase 0, then stores. */
    private static final String BULK = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, bar;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\n"
            + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra WAIT;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\n"
            + "WAIT:\nmov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W;\n"
            + "ld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\n"
            + "st.global.u32 [%rd6], %r1;\nret;";

    private static LaunchedRun launch(long seed) {
        return PtxRun.kernel(BULK).header(".shared .align 8 .b64 bar;\n.shared .align 16 .b8 tile[512];")
                .buffer("in", 32, ScalarType.U32, "iota").buffer("out", 64).threads(64).policy("random", seed).launch();
    }

    /** Steps until the bulk copy is in flight (an mbarrier exists and is waiting on it). */
    private static Interpreter midway(LaunchedRun r) {
        Interpreter x = r.interpreter();
        while (x.machine().async.isEmpty()) assertTrue(x.step(), r.summary());
        return x;
    }

    @Test
    void oneRegisterOneSharedByteOneMbarrierFieldOrOneGlobalByteChangesTheHash() {
        Interpreter x = midway(launch(3));
        Machine m = x.machine();
        long h = StateHash.of(x);
        assertEquals(h, StateHash.of(x), "hashing does not change the state");

        m.regs[m.regIndex(5, 1)] ^= 1;
        assertNotEquals(h, StateHash.of(x), "one register bit");
        m.regs[m.regIndex(5, 1)] ^= 1;
        assertEquals(h, StateHash.of(x));

        m.memory.shared[0][300] ^= (byte) 0x80;
        assertNotEquals(h, StateHash.of(x), "one shared byte");
        m.memory.shared[0][300] ^= (byte) 0x80;
        assertEquals(h, StateHash.of(x));

        Mbarrier b = m.mbarriers.all().iterator().next();
        b.tx++;
        assertNotEquals(h, StateHash.of(x), "one mbarrier field");
        b.tx--;
        assertEquals(h, StateHash.of(x));

        m.memory.global.byName("out").data()[7] = 1;
        assertNotEquals(h, StateHash.of(x), "one global byte");
        m.memory.global.byName("out").data()[7] = 0;
        assertEquals(h, StateHash.of(x));
    }

    @Test
    void anMbarriersInitCountAndExpectedCountAreEachInTheHash() {
        Interpreter x = midway(launch(3));
        Mbarrier b = x.machine().mbarriers.all().iterator().next();
        long h = StateHash.of(x);
        // The incarnation a state token names (how many inits this place has seen): nothing else differs.
        b.inits++;
        assertNotEquals(h, StateHash.of(x), "init count");
        b.inits--;
        assertEquals(h, StateHash.of(x));
        // The count each phase starts from.
        b.expected++;
        assertNotEquals(h, StateHash.of(x), "expected count");
        b.expected--;
        assertEquals(h, StateHash.of(x));
    }

    @Test
    void twoLaunchesOfTheSameKernelAndSeedHashAlikeStepByStep() {
        Interpreter a = launch(8).interpreter();
        Interpreter b = launch(8).interpreter();
        assertEquals(StateHash.of(a), StateHash.of(b), "values only: no identity hashes");
        boolean more;
        do {
            more = a.step();
            assertEquals(more, b.step());
            assertEquals(StateHash.of(a), StateHash.of(b), "at step " + a.machine().steps);
        } while (more);
    }

    @Test
    void anotherSeedIsAnotherState() {
        assertNotEquals(StateHash.of(launch(1).interpreter()), StateHash.of(launch(2).interpreter()), "the policy state is hashed");
    }

    @Test
    void lookingAtAnUntouchedMbarrierDoesNotChangeTheHash() {
        Interpreter x = midway(launch(4));
        long h = StateHash.of(x);
        x.machine().mbarriers.at(0, 256); // as a view might: created invalid, never changed
        assertEquals(h, StateHash.of(x));
    }
}
