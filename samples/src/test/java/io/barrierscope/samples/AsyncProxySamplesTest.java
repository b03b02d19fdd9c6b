package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The async-proxy rules (docs/semantics.md section 13) end to end on nvcc-built samples: each
 * bug is reported with its code and both CUDA lines under every policy, and its fixed twin,
 * which differs by the one fence, completes with detection on.
 */
class AsyncProxySamplesTest {
    private static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");

    private static Diagnostic only(LaunchedRun r) {
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
        assertEquals(1, r.interpreter().diagnostics().size(), r.summary());
        return r.interpreter().diagnostics().get(0);
    }

    @Test
    void anEpilogueTileStoredByABulkCopyWithoutFenceProxyAsyncIsProxyFenceMissingNamingTheStoreAndTheCopy() {
        for (String policy : POLICIES) {
            for (long seed = 0; seed < 3; seed++) {
                Diagnostic d = only(SampleRuns.run("epilogue-missing-proxy-fence", policy, seed));
                assertEquals("proxy-fence-missing", d.code().code(), d.toString());
                String cuda = d.cudaLocations().toString();
                // The st.shared of the tile (line 46) and the bulk copy (the asm in bulk_copy_s2g, line 32).
                assertTrue(cuda.contains("kernel.cu:46") && cuda.contains("kernel.cu:32"), cuda);
                assertTrue(d.message().contains("fence.proxy.async.shared::cta") && d.message().contains("through the async proxy"),
                        d.message());
            }
            LaunchedRun fixed = SampleRuns.run("epilogue-missing-proxy-fence-fixed", policy, 1);
            assertEquals(Outcome.COMPLETED, fixed.interpreter().outcome(), fixed.summary());
            assertEquals(List.of(), fixed.interpreter().diagnostics());
        }
    }

    @Test
    void aWgmmaReadingTilesStoredWithoutFenceProxyAsyncIsProxyFenceMissingNamingTheStoreAndTheWgmma() {
        for (String policy : POLICIES) {
            for (long seed = 0; seed < 3; seed++) {
                Diagnostic d = only(SampleRuns.run("wgmma-missing-proxy-fence", policy, seed));
                assertEquals("proxy-fence-missing", d.code().code(), d.toString());
                String cuda = d.cudaLocations().toString();
                // A store of a tile (line 33 or 34) and the wgmma.mma_async (the asm ending at line 50).
                assertTrue((cuda.contains("kernel.cu:33") || cuda.contains("kernel.cu:34")) && cuda.contains("kernel.cu:50"), cuda);
                assertTrue(d.message().contains("fence.proxy.async.shared::cta") && d.message().contains("through the async proxy"),
                        d.message());
            }
            LaunchedRun fixed = SampleRuns.run("wgmma-missing-proxy-fence-fixed", policy, 1);
            assertEquals(Outcome.COMPLETED, fixed.interpreter().outcome(), fixed.summary());
            assertEquals(List.of(), fixed.interpreter().diagnostics());
        }
    }

    @Test
    void aRemoteArriveAfterARelaxedClusterBarrierWithoutFenceMbarrierInitIsMbarrierInitNotFencedNamingTheFence() {
        for (String policy : POLICIES) {
            for (long seed = 0; seed < 3; seed++) {
                Diagnostic d = only(SampleRuns.run("cluster-init-without-fence", policy, seed));
                assertEquals("mbarrier-init-not-fenced", d.code().code(), d.toString());
                String cuda = d.cudaLocations().toString();
                // The mbarrier.init (the asm in mbar_init, line 50) and the remote arrive (in mbar_remote_arrive, line 61).
                assertTrue(cuda.contains("kernel.cu:50") && cuda.contains("kernel.cu:61"), cuda);
                assertTrue(d.message().contains("fence.mbarrier_init.release.cluster"), d.message());
            }
            LaunchedRun fixed = SampleRuns.run("cluster-init-without-fence-fixed", policy, 1);
            assertEquals(Outcome.COMPLETED, fixed.interpreter().outcome(), fixed.summary());
        }
    }
}
