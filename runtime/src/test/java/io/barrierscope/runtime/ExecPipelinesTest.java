package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.barrierscope.runtime.ExecProgramsTest.Ran;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a library's own pipeline test suite needs, as one googletest program
 * (src/test/cuda/library_pipelines.cu) built as such suites are and run by exec: cluster-wide
 * full/empty mbarrier pipelines with transaction counts completed in peer CTAs, up to
 * non-portable 16-CTA clusters, warp-specialized ping-pong consumers with setmaxnreg, ordered
 * sequence barriers, a cp.async pipeline, and the cluster launch path of the host API.
 */
class ExecPipelinesTest {
    @TempDir
    static Path bundles;

    @Test
    void libraryStylePipelineTestsPassUnderExecAsOnAGpu() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/usr/include/gtest/gtest.h")),
                "googletest is not installed (apt-get install libgtest-dev): the pipeline suite is skipped");
        Path exe = CudaPrograms.build("library_pipelines", "-cudart", "shared", "-lgtest", "-lgtest_main", "-lpthread");
        Ran r = ExecProgramsTest.exec(exe, LaunchOptions.defaults().withBundles(bundles.resolve("failed"), false));
        assertEquals(0, r.code(), r.all());
        assertTrue(r.program().contains("[  PASSED  ] 15 tests."), r.all());
        assertTrue(r.program().contains("[       OK ] ClusterPipeline.Cluster4x4_Stage2_NonPortable"), r.all());
        assertTrue(r.program().contains("[       OK ] SpecializedPipeline.Cluster4x4_Stage2_PingPong"), r.all());
        assertTrue(r.program().contains("[       OK ] ClusterLaunch.SixteenCtaClustersNeedTheNonPortableOptIn"), r.all());
    }
}
