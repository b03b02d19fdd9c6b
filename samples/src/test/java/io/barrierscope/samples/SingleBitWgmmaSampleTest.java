package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.cli.Main;
import io.barrierscope.launch.LaunchedRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code samples/wgmma-b1-popc} (nvcc PTX of single-bit {@code wgmma.mma_async} from descriptors
 * and from registers) run through the command line meets its expect block, and its C is twice
 * popc(A AND B) computed here from the input buffers by plain loops over the matrix definition.
 */
class SingleBitWgmmaSampleTest {
    @Test
    void theCommandLineRunMeetsTheExpectBlockBitForBit() {
        for (String[] policy : new String[][] {{"round-robin", "0"}, {"random", "3"}, {"adversarial", "5"}}) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            int code = Main.execute(new String[] {"run", SampleRuns.launch("wgmma-b1-popc").toString(), "--policy", policy[0], "--seed",
                policy[1]}, new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(Main.OK, code, out + "\n" + err);
            assertTrue(out.toString().contains("expect: met"), out.toString());
        }
    }

    @Test
    void cIsTwicePopcOfAAndBFromTheInputs() {
        LaunchedRun r = SampleRuns.run("wgmma-b1-popc", "round-robin", 0);
        List<Long> a = SampleRuns.longs(r, "A");
        List<Long> bt = SampleRuns.longs(r, "Bt");
        List<Long> c = SampleRuns.longs(r, "C");
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 16; j++) {
                int count = 0;
                for (int k = 0; k < 256; k++) {
                    long ai = (a.get(i * 8 + k / 32) >>> (k % 32)) & 1;
                    long bj = (bt.get(j * 8 + k / 32) >>> (k % 32)) & 1;
                    if (ai == 1 && bj == 1) count++;
                }
                assertEquals(2 * count, c.get(i * 16 + j).intValue(), "C(" + i + ", " + j + ")");
            }
        }
    }
}
