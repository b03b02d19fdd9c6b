package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The call graph is checked for recursion in time and stack bounded by its size: a chain of
 * 20,000 `.func` calls overflowed the Java stack (an internal failure), and calls that meet again
 * (each level calls both functions of the level below) were walked once per path, 2^depth times.
 */
class CallGraphCheckTest {
    private static final String HEADER = ".version 8.0\n.target sm_90a\n.address_size 64\n";

    @Test
    void aLongChainOfCallsIsCheckedWithoutOverflowingTheStack() {
        StringBuilder s = new StringBuilder(HEADER);
        int n = 20_000;
        for (int i = 0; i < n; i++) s.append(".func f").append(i).append("()\n{\n").append(i > 0 ? "\tcall f" + (i - 1) + ";\n" : "").append("\tret;\n}\n");
        s.append(".visible .entry k()\n{\n\tcall f").append(n - 1).append(";\n\tret;\n}\n");
        Program p = ProgramBuilder.build(PtxParser.parse("chain.ptx", s.toString()), "k");
        assertEquals("k", p.kernel.name());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard: the walk per path took 2^60 steps
    void callsThatMeetAgainAreWalkedOnceNotOncePerPath() {
        StringBuilder s = new StringBuilder(HEADER).append(".func a0()\n{\n\tret;\n}\n.func b0()\n{\n\tret;\n}\n");
        int depth = 60;
        for (int i = 1; i < depth; i++) {
            for (String f : new String[] {"a", "b"}) {
                s.append(".func ").append(f).append(i).append("()\n{\n\tcall a").append(i - 1).append(";\n\tcall b").append(i - 1)
                        .append(";\n\tret;\n}\n");
            }
        }
        s.append(".visible .entry k()\n{\n\tcall a").append(depth - 1).append(";\n\tret;\n}\n");
        assertEquals("k", ProgramBuilder.build(PtxParser.parse("diamond.ptx", s.toString()), "k").kernel.name());
    }

    @Test
    void aCycleIsStillRefusedAtTheFunctionCalledAgain() {
        String ptx = HEADER + ".func g();\n.func f()\n{\n\tcall g;\n\tret;\n}\n.func g()\n{\n\tcall f;\n\tret;\n}\n"
                + ".visible .entry k()\n{\n\tcall f;\n\tret;\n}\n";
        PtxException e = assertThrows(PtxException.class, () -> ProgramBuilder.build(PtxParser.parse("cycle.ptx", ptx), "k"));
        assertTrue(e.getMessage().contains("recursive call of 'f' is not supported"), e.getMessage());
    }
}
