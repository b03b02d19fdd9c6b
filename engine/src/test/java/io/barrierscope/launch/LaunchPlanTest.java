package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A launch is checked and planned once, by LaunchValidation; a run only places the plan, and copies reuse it. */
class LaunchPlanTest {
    @TempDir
    Path tmp;

    private static final String PTX = ".version 9.0\n.target sm_90a\n.address_size 64\n"
            + ".visible .entry k(.param .u64 p, .param .u64 q)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<2>;\n"
            + "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 7;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

    private Path launch(String args) throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), PTX);
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"args\": [" + args + "]}");
        return l;
    }

    @Test
    void theBuffersArePlacedAtThePlannedAddresses() throws Exception {
        LaunchedRun run = LaunchValidation.validate(launch("{\"buffer\": \"a\", \"type\": \"u32\", \"count\": 5000}, "
                + "{\"buffer\": \"b\", \"type\": \"u8\", \"count\": 3}")).start();
        ValidatedLaunch plan = run.launch();
        GlobalMemory g = run.machine().memory.global;
        assertEquals(plan.bufferBases[0], g.byName("a").base());
        assertEquals(plan.bufferBases[1], g.byName("b").base());
        assertEquals(GlobalMemory.after(plan.bufferBases[0], 20_000), plan.bufferBases[1]);
    }

    @Test
    void aFixedAddressBelowAnEarlierBufferIsRefusedAtItsPlaceByTheValidation() throws Exception {
        Path l = launch("{\"buffer\": \"a\", \"type\": \"u32\", \"count\": 4}, {\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}");
        LaunchSpec s = LaunchJsonChecks.read(l);
        LaunchSpec fixed = new LaunchSpec(s.file(), s.ptx(), s.kernel(), s.grid(), s.block(), s.cluster(),
                java.util.List.of(s.args().get(0), new ArgSpec("b", s.args().get(1).type(), 4, "zero", null, null, null,
                        new ArgSpec.Extras(io.barrierscope.exec.Space.GLOBAL_BASE, null, null))),
                0, null, s.policy(), s.seed(), s.maxSteps(), s.notes(), s.buffers(), null, s.sourceText());
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(fixed).start(null, null)).getMessage();
        assertTrue(e.contains("buffer 'b' at 0x") && e.contains("overlaps the module's globals or an earlier buffer"), e);
        assertTrue(e.startsWith(l + ":1:"), e);
    }

    @Test
    void aRunAgainReusesTheValidatedLaunchAndReadsNothing() throws Exception {
        LaunchedRun run = LaunchValidation.validate(launch("{\"buffer\": \"a\", \"type\": \"u32\", \"count\": 4}, "
                + "{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}")).start();
        Outcome first = run.runToEnd(); // 32 threads store to one word: a race, diagnosed
        Files.delete(tmp.resolve("k.ptx")); // nothing is read again
        LaunchedRun again = run.again("round-robin", 0);
        assertSame(run.program(), again.program());
        assertNotSame(run.machine(), again.machine());
        assertEquals(0, again.machine().steps);
        assertEquals(0L, again.buffers().get("a").get(0), "fresh buffers");
        assertEquals(first, again.runToEnd());
        assertEquals(run.interpreter().diagnostics().size(), again.interpreter().diagnostics().size());
        assertEquals(run.buffers(), again.buffers());
        assertArrayEquals(run.ptxText().getBytes(), again.ptxText().getBytes());
    }

    @Test
    void aLaunchBuiltInCodeMeetsTheJsonChecksLocatedInItsLaunchWrittenAsJson() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), PTX);
        Path ptx = tmp.resolve("k.ptx");
        // A count a launch file may not have (2^26 + 1 elements), built in code where no reader saw it.
        LaunchSpec built = new LaunchSpec(ptx, ptx, "k", io.barrierscope.exec.Dim3.ONE, new io.barrierscope.exec.Dim3(32, 1, 1), null,
                java.util.List.of(new ArgSpec("a", io.barrierscope.ptx.ScalarType.U8, (64L << 20) + 1, "zero", null, null),
                        new ArgSpec("b", io.barrierscope.ptx.ScalarType.U32, 4, "zero", null, null)),
                0, null, "round-robin", 0, 1000, java.util.List.of("built"));
        String e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(built)).getMessage();
        assertTrue(e.startsWith(ptx + " (its launch as JSON):"), e);
        assertTrue(e.contains("\"count\""), "the line of the launch as JSON is shown: " + e);
        LaunchSpec good = new LaunchSpec(ptx, ptx, "k", io.barrierscope.exec.Dim3.ONE, new io.barrierscope.exec.Dim3(32, 1, 1), null,
                java.util.List.of(new ArgSpec("a", io.barrierscope.ptx.ScalarType.U32, 4, "zero", null, null),
                        new ArgSpec("b", io.barrierscope.ptx.ScalarType.U32, 4, "zero", null, null)),
                0, null, "round-robin", 0, 1000, java.util.List.of("built"));
        assertEquals(java.util.List.of("built"), LaunchValidation.validate(good).spec().notes(), "its notes kept");
    }
}
