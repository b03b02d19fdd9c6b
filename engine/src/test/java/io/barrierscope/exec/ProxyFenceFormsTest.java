package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The proxy fences other than fence.proxy.async (PTX ISA 9.7.13.4), as the ISA writes them:
 * accepted in its forms, refused with their location otherwise, and undefined operands diagnosed
 * (semantics.md section 13).
 */
class ProxyFenceFormsTest {
    private static BadInputException refuse(String body) {
        return assertThrows(BadInputException.class, () -> ExecKernel.of(body).launch());
    }

    @Test
    void aliasProxyFencesAreAcceptedAndMembarProxyIsTheirSynonym() {
        // A launch maps each location at one address per window: nothing aliased for them to order.
        ExecKernel.of("fence.proxy.alias;\nmembar.proxy.alias;\nmembar.proxy.async;\n").ok();
    }

    @Test
    void tensormapProxyFencesAreAcceptedInTheIsasReleaseAndAcquireForms() {
        ExecKernel.of("fence.proxy.tensormap::generic.release.gpu;\nfence.proxy.tensormap::generic.acquire.cluster [%rd40], 128;\n"
                + "fence.proxy.tensormap::generic.release.sys;\nfence.proxy.tensormap::generic.acquire.cta [%rd40+128], 128;\n").ok();
    }

    @Test
    void tensormapProxyFencesOutsideTheIsasFormsAreRefusedWithTheReason() {
        String[][] cases = {
            {"fence.proxy.tensormap::generic.acquire.gpu [%rd40], 64;", "the size must be the constant 128"},
            {"fence.proxy.tensormap::generic.acquire.gpu [%rd40], %r1;", "the size must be the constant 128"},
            {"fence.proxy.tensormap::generic.acquire.gpu %rd40, 128;", "operand 1 must be the tensor map's address"},
            {"fence.proxy.tensormap::generic.acquire.gpu;", "takes 2 operands"},
            {"fence.proxy.tensormap::generic.release.gpu [%rd40], 128;", "takes 0 operands"},
            {"fence.proxy.tensormap::generic.release;", "needs a scope"},
            {"fence.proxy.tensormap::generic.gpu;", "exactly one of .release and .acquire"},
            {"fence.proxy.alias [%rd40];", "takes 0 operands"},
        };
        for (String[] c : cases) {
            BadInputException e = refuse("mov.u32 %r1, 128;\n" + c[0] + "\n");
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(":"), c[0] + " -> " + e.getMessage());
        }
    }

    @Test
    void aTensormapAcquireOnAnAddressOutsideGlobalMemoryIsAMemoryFault() {
        // "the address specified by the operand addr must fall within the .global state space. Otherwise, the behavior is undefined."
        LaunchedRun r = ExecKernel.of("mov.u64 %rd5, 0x0001000000000000;\nfence.proxy.tensormap::generic.acquire.gpu [%rd5], 128;\n").run();
        assertEquals(List.of("memory-fault"), ExecKernel.codes(r), r.summary());
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("not in the .global state space"), r.summary());
    }
}
