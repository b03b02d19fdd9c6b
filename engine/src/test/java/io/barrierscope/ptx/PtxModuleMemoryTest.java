package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.HEADER;
import static io.barrierscope.ptx.PtxTestSupport.assertError;
import static io.barrierscope.ptx.PtxTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** A module's functions are finished where their bodies end (docs/reliability.md, "A PTX file costs its text and what the parse keeps"). */
class PtxModuleMemoryTest {

    @Test
    void aModuleOfManyFunctionsHoldsOneFunctionBuilderAtATime() {
        // 200,000 one-line functions once kept 200,000 builders (scopes, maps, tokens) to the end
        // of the module and ran a 256 MB heap out of memory.
        int n = 200_000;
        StringBuilder sb = new StringBuilder(HEADER);
        for (int i = 0; i < n; i++) sb.append(".func f").append(i).append("()\n{\n\tret;\n}\n");
        sb.append(".visible .entry k()\n{\n\tcall f0;\n\tcall f").append(n - 1).append(";\n\tret;\n}\n");
        PtxParser.Counted counted = PtxParser.parseCounted("big.ptx", sb.toString(), Cancellation.NONE);
        assertEquals(1, counted.peakOpenBuilders());
        Module m = counted.module();
        assertEquals(n + 1, m.functions().size());
        Function k = m.function("k");
        assertSame(m.function("f0"), ((Operand.Symbol) k.instructions().get(0).operands().get(0)).function());
        assertSame(m.function("f" + (n - 1)), ((Operand.Symbol) k.instructions().get(1).operands().get(0)).function());
        assertEquals("ret", m.function("f123").instructions().get(0).opcode());
    }

    @Test
    void callsAndVariablesDeclaredLaterAreStillBoundAtTheEndOfTheModule() {
        Module m = parse(HEADER
                + ".func a()\n{\n\t.reg .b64 %rd1;\n\tcall b;\n\tmov.u64 %rd1, late;\n\tret;\n}\n"
                + ".func b()\n{\n\tcall a;\n\tret;\n}\n"
                + ".global .u32 late;\n");
        Function a = m.function("a");
        assertSame(m.function("b"), ((Operand.Symbol) a.instructions().get(0).operands().get(0)).function());
        assertEquals("late", ((Operand.Symbol) a.instructions().get(1).operands().get(1)).variable().name());
    }

    @Test
    void anUndefinedLabelIsStillReportedAfterEverySyntaxErrorOfTheFile() {
        // Labels are bound where a body ends, but their errors wait for the end of the module as before.
        String undefinedLabel = ".visible .entry k()\n{\n\tbra NOWHERE;\n}\n";
        assertError(HEADER + undefinedLabel + ".func f()\n{\n\tret\n}\n", 11, 1, "expected an operand, found '}'");
        assertError(HEADER + undefinedLabel, 6, 6, "undefined label NOWHERE");
    }
}
