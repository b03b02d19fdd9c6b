package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;

import org.junit.jupiter.api.Test;

/** Instructions the model runs as no-ops or without operands still take exactly the ISA's operands (docs/reliability.md). */
class NoOperandInstructionsTest {

    @Test
    void anExtraOperandOnAnInstructionThatTakesNoneIsRefusedAtItsLineNotIgnored() {
        // griddepcontrol.wait 1 was accepted and run as griddepcontrol.wait (PTX ISA 9.7.13.13 gives no operands).
        assertRefusedAtLine("griddepcontrol.wait 1;", "takes 0 operands, found 1");
        assertRefusedAtLine("griddepcontrol.launch_dependents %r1;", "takes 0 operands, found 1");
        assertRefusedAtLine("membar.cta %r1;", "takes 0 operands, found 1");
        assertRefusedAtLine("fence.acq_rel.gpu 1;", "takes 0 operands, found 1");
        assertRefusedAtLine("trap 1;", "takes 0 operands, found 1");
        assertRefusedAtLine("brkpt %r1;", "takes 0 operands, found 1");
        assertRefusedAtLine("exit 1;", "takes 0 operands, found 1");
        assertRefusedAtLine("ret 1;", "takes 0 operands, found 1");
    }

    @Test
    void aNoEffectHintTakesExactlyItsOneOperand() {
        assertRefusedAtLine("prefetch.global.L2 [%rd40], 4;", "takes 1 operands, found 2");
        assertRefusedAtLine("pmevent;", "takes 1 operands, found 0");
        ExecKernel.of("griddepcontrol.wait;\ngriddepcontrol.launch_dependents;\nprefetch.global.L2 [%rd40];\n"
                + "prefetchu.L1 [%rd40];\npmevent 1;\nmembar.cta;\nfence.acq_rel.gpu;").ok();
    }
}
