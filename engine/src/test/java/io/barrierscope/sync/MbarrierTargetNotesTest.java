package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The target notes of PTX ISA 9.7.13.15.13 and .14 that the engine checks (docs/traceability.md). */
class MbarrierTargetNotesTest {
    private static PtxRun kernel(String insn, String target) {
        return PtxRun.kernel(".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\nmov.u32 %r1, bar;\nmbarrier.init.shared::cta.b64 [%r1], 4;\n" + insn + "\nret;")
                .header(".shared .align 8 .b64 bar;").threads(1).target(target);
    }

    private static void assertRuns(String insn, String target) {
        LaunchedRun r = kernel(insn, target).run();
        assertEquals(Outcome.COMPLETED, outcome(r), insn + " on " + target + ": " + r.summary());
        assertEquals(List.of(), codes(r), r.summary());
    }

    @Test
    void onSm8xAnArriveWithACountNeedsNoComplete() {
        for (String op : List.of("arrive", "arrive_drop")) {
            String bare = "mbarrier." + op + ".shared::cta.b64 %rd1, [%r1], 2;";
            BadInputException e = assertThrows(BadInputException.class, () -> kernel(bare, "sm_80").launch());
            assertTrue(e.getMessage().contains(".noComplete is required")
                    && e.getMessage().contains(op.equals("arrive") ? "9.7.13.15.13" : "9.7.13.15.14"), e.getMessage());
            assertRuns(bare.replace(op + ".", op + ".noComplete."), "sm_80");
            assertRuns(bare, "sm_90a");
        }
    }
}
