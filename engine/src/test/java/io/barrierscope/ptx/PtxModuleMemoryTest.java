package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.HEADER;
import static io.barrierscope.ptx.PtxTestSupport.assertError;
import static io.barrierscope.ptx.PtxTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.cli.Main;
import io.barrierscope.diag.SourcePos;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static String manyFunctions(int n) {
        StringBuilder sb = new StringBuilder(HEADER);
        for (int i = 0; i < n; i++) sb.append(".func f").append(i).append("()\n{\n\tret;\n}\n");
        return sb.toString();
    }

    @Test
    void aModuleLargerThanItsBudgetIsRefusedWhereItPassedTheLimitNamingTheNumbers() {
        // 2,000 functions count about 1.3 MiB (ModuleBudget's costs); a budget of 1 MiB is passed
        // while the function at line 4 + 4*k is read, well before the end of the file.
        ModuleBudget budget = new ModuleBudget(1 << 20, 3 << 20, 64 << 20);
        PtxException e = assertThrows(PtxException.class,
                () -> PtxParser.parseCounted("big.ptx", manyFunctions(2_000), Cancellation.NONE, budget));
        assertTrue(e.detail().startsWith("the module is too large for this Java's heap: its "), e.getMessage());
        assertTrue(e.detail().endsWith("but this Java has about 3 MiB free of 64 MiB: give it more with -Xmx"), e.getMessage());
        SourcePos at = e.pos();
        assertTrue(at.line() > 4 && at.line() < 4 + 4 * 2_000, e.getMessage());
        // within a function: at its keyword or its instruction, on the line the limit was reached
        assertTrue(e.lineText().equals(".func f" + ((at.line() - 4) / 4) + "()") || e.lineText().equals("\tret;"), e.getMessage());
    }

    @Test
    void registersAreCountedBeforeTheyAreMadeSoAMillionAreRefusedAtTheirDeclaration() {
        // a 30-character line declares a million registers (about 77 MB live): refused at its name
        String text = HEADER + ".visible .entry k()\n{\n\t.reg .b32 %r<1000000>;\n\tret;\n}\n";
        PtxException e = assertThrows(PtxException.class, () -> PtxParser.parseCounted("regs.ptx", text,
                Cancellation.NONE, new ModuleBudget(32 << 20, 40 << 20, 64 << 20)));
        assertEquals(new SourcePos("regs.ptx", 6, 12), e.pos(), e.getMessage());
        assertTrue(e.detail().contains("too large for this Java's heap"), e.getMessage());
    }

    @Test
    void aModuleIsRefusedOnlyAgainstTheHeapLeftAfterACollectionNotTheGarbageAboutWhenItsParseBegan() {
        // 100,000 registers count about 9 MiB, over a budget read while 60 MiB were garbage. Refusing then
        // made the answer depend on when the collector had last run: the same module at the same heap was
        // refused on one run and accepted on the next. It is decided against the heap after a collection.
        String text = HEADER + ".visible .entry k()\n{\n\t.reg .b32 %r<100000>;\n\tret;\n}\n";
        int[] collections = {0};
        ModuleBudget garbage = new ModuleBudget(4L << 20, 64L << 20, () -> {
            collections[0]++;
            return 60L << 20;
        });
        PtxParser.parseCounted("regs.ptx", text, Cancellation.NONE, garbage);
        assertEquals(1, collections[0], "collected once, when the budget was passed");
        // a heap the module still does not fit after the collection: refused, naming what was free after it
        ModuleBudget full = new ModuleBudget(4L << 20, 64L << 20, () -> 12L << 20);
        PtxException e = assertThrows(PtxException.class, () -> PtxParser.parseCounted("regs.ptx", text, Cancellation.NONE, full));
        assertEquals(new SourcePos("regs.ptx", 6, 12), e.pos(), e.getMessage());
        assertTrue(e.detail().endsWith("but this Java has about 12 MiB free of 64 MiB: give it more with -Xmx"), e.getMessage());
    }

    @Test
    void aZeroPaddedInitialiserIsCountedBeforeItsBufferIsMade() {
        // "{1}" for 16M words is a 64 MiB buffer, held twice while it is copied
        String text = HEADER + ".global .u32 g[16777216] = {1};\n";
        PtxException e = assertThrows(PtxException.class, () -> PtxParser.parseCounted("init.ptx", text,
                Cancellation.NONE, new ModuleBudget(100 << 20, 110 << 20, 128 << 20)));
        assertEquals(new SourcePos("init.ptx", 4, 14), e.pos(), e.getMessage());
    }

    @Test
    void whatTheBudgetCountsIsAtLeastWhatTheParsedModuleHolds() {
        // the costs are upper bounds of the live heap measured per kind (docs/reliability.md); here the
        // count is checked against the sizes those measurements found, so a cheaper cost fails
        PtxParser.Counted c = PtxParser.parseCounted("big.ptx", manyFunctions(10_000), Cancellation.NONE, ModuleBudget.unlimited());
        assertTrue(c.estimatedBytes() >= 10_000L * 560, "one-line functions held about 560 bytes each before linking: " + c.estimatedBytes());
    }

    @Test
    void aModuleTooLargeForASmallHeapIsRefusedAtItsPlaceNotRunOutOfMemory(@TempDir Path dir) throws Exception {
        // 200,000 one-line functions ran a heap of less than about 120 MB out of memory
        Path ptx = dir.resolve("big.ptx");
        Files.writeString(ptx, manyFunctions(200_000));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "check", ptx.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor(), out);
        assertTrue(out.matches("(?s)" + java.util.regex.Pattern.quote(ptx.toString()) + ":\\d+:\\d+: error: the module is too large for this Java's heap: .*"
                + "free of 64 MiB: give it more with -Xmx.*"), out);
        assertTrue(!out.contains("OutOfMemoryError") && !out.contains("Exception"), out);
    }
}
