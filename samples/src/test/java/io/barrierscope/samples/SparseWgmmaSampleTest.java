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
 * {@code samples/wgmma-sparse-gemm} (nvcc PTX of sparse {@code wgmma.mma_async.sp} from a
 * descriptor with selector 0 and from registers with selector 1) run through the command line
 * meets its expect block, and its C is twice A·B for the dense A rebuilt here from the stored
 * elements and their metadata by the rule of PTX ISA 9.7.15.6.1 (chunk j of a row's half h at
 * bits 4j..4j+3 of E[2 row + h], low two bits the first stored element's position).
 */
class SparseWgmmaSampleTest {
    @Test
    void theCommandLineRunMeetsTheExpectBlockBitForBit() {
        for (String[] policy : new String[][] {{"round-robin", "0"}, {"random", "3"}, {"adversarial", "5"}}) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            int code = Main.execute(new String[] {"run", SampleRuns.launch("wgmma-sparse-gemm").toString(), "--policy", policy[0], "--seed",
                policy[1]}, new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(Main.OK, code, out + "\n" + err);
            assertTrue(out.toString().contains("expect: met"), out.toString());
        }
    }

    /** An f16 bit pattern's value (the inputs are normal numbers or zero): sign, 5-bit exponent biased by 15, 10-bit fraction. */
    static double half(long bits) {
        int exp = (int) (bits >> 10) & 31;
        double mag = exp == 0 ? (bits & 1023) * Math.pow(2, -24) : (1024 + (bits & 1023)) * Math.pow(2, exp - 25);
        return (bits & 0x8000) != 0 ? -mag : mag;
    }

    @Test
    void cIsTwiceTheDenseProductOfTheExpandedA() {
        LaunchedRun r = SampleRuns.run("wgmma-sparse-gemm", "round-robin", 0);
        List<Long> ap = SampleRuns.longs(r, "Ap");
        List<Long> bt = SampleRuns.longs(r, "Bt");
        List<Long> e = SampleRuns.longs(r, "E");
        List<Number> c = r.buffers().get("C");
        double[][] a = new double[64][32];
        for (int i = 0; i < 64; i++) {
            for (int chunk = 0; chunk < 8; chunk++) {
                long field = (e.get(2 * i + chunk / 4) >>> (4 * (chunk % 4))) & 15;
                a[i][4 * chunk + (int) (field & 3)] = half(ap.get(16 * i + 2 * chunk));
                a[i][4 * chunk + (int) (field >> 2)] = half(ap.get(16 * i + 2 * chunk + 1));
            }
        }
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 32; j++) {
                double s = 0; // every input is a multiple of 1/8 below 4 in magnitude: the sum is exact
                for (int k = 0; k < 32; k++) s += a[i][k] * half(bt.get(32 * j + k));
                assertEquals((float) (2 * s), c.get(32 * i + j).floatValue(), "C(" + i + ", " + j + ")");
            }
        }
    }
}
