package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.ptx.Variable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A variable's size limit is said with its number, its reason and what to do, and the module's
 * {@code .global} bytes are checked against the free heap before they are allocated
 * (docs/reliability.md, "Variable sizes"): two 200 MB arrays ran {@code check} and {@code run}
 * out of memory at {@code -Xmx256m} in the program's layout, each under the per-variable limit.
 */
class VariableSizeLimitsTest {
    private static final String HEADER = ".version 8.0\n.target sm_90a\n.address_size 64\n";
    private static final long MIB = 1L << 20;

    private static PtxException refusal(String decl) {
        return assertThrows(PtxException.class, () -> PtxParser.parse("big.ptx", HEADER + decl + "\n.visible .entry k()\n{\n\tret;\n}\n"));
    }

    @Test
    void aGlobalArrayOf2To31BytesIsRefusedSayingTheLimitWhyAndWhatToDo() {
        PtxException e = refusal(".global .align 4 .b8 big[2147483648];");
        assertEquals(4, e.pos().line());
        assertEquals(26, e.pos().col());
        assertTrue(e.detail().startsWith("too large: this variable declares 2147483648 bytes; a variable holds at most 256 MiB (268435456 bytes) here"), e.detail());
        assertTrue(e.detail().contains("Java heap"), e.detail());
        assertTrue(e.detail().contains("launch-file buffer"), e.detail());
    }

    @Test
    void anArrayWhoseDimensionsMultiplyPastTheLimitNamesItsBytes() {
        PtxException e = refusal(".global .u32 huge[100000][100000];");
        assertTrue(e.detail().startsWith("too large: this variable declares 40000000000 bytes; a variable holds at most 256 MiB"), e.detail());
        PtxException wrap = refusal(".global .u64 w[4294967296][4294967296];");
        assertTrue(wrap.detail().startsWith("too large: this variable declares more than 2^63 bytes;"), wrap.detail());
        PtxException inner = refusal(".global .u32 w[2][100000][100000];");
        assertTrue(inner.detail().startsWith("too large: this variable declares at least 40000000000 bytes;"), inner.detail());
    }

    @Test
    void anInitialiserPastItsLimitSaysItsLimitAndWhy() {
        PtxException e = refusal(".global .u32 a[17000000] = {1};");
        assertTrue(e.detail().startsWith("too large: the initialiser reaches 68000000 bytes; one holds at most 64 MiB (67108864 bytes)"), e.detail());
    }

    @Test
    void globalsPastTheFreeHeapAreRefusedAtTheDeclarationThatPassesItNotAnOutOfMemoryError() {
        Module m = PtxParser.parse("two.ptx", HEADER + ".global .b8 a[1048576];\n.global .b8 b[1048576];\n.global .b8 c[1048576];\n"
                + ".visible .entry k()\n{\n\tret;\n}\n");
        List<Variable> all = new ArrayList<>(m.variables());
        long max = 100 * MIB;
        long reserve = ProgramBuilder.globalsReserve(max);
        // room for one and a half of them: the second passes it
        PtxException e = assertThrows(PtxException.class, () -> ProgramBuilder.globalsFit(m, all, reserve + 3 * MIB / 2, max));
        assertEquals(5, e.pos().line());
        assertTrue(e.detail().startsWith("the module's .global variables need 3 MiB (2 MiB with 'b' here) but this Java has about "), e.detail());
        assertTrue(e.detail().contains("give it more with -Xmx"), e.detail());
        assertTrue(e.getMessage().contains(".global .b8 b[1048576];"), e.getMessage());
        ProgramBuilder.globalsFit(m, all, reserve + 3 * MIB, max); // all three fit: no refusal
    }

    @Test
    void constVariablesPast64KbAreRefusedAtTheOneThatPassesItNotAllocatedWhole() {
        // two 200 MB .const arrays ran the heap out of memory building the constant bank; nine of 256 MiB wrapped its int size
        String ptx = HEADER + ".const .b8 a[65000];\n.const .align 8 .b8 b[1000];\n.visible .entry k()\n{\n\tret;\n}\n";
        PtxException e = assertThrows(PtxException.class, () -> ProgramBuilder.build(PtxParser.parse("c.ptx", ptx), "k"));
        assertEquals(5, e.pos().line());
        assertEquals("the module's .const variables take 66000 bytes with 'b'; constant memory holds at most 65536 (64 KB, PTX ISA 5.1.3):"
                + " put larger read-only data in .global memory", e.detail());
        String fits = HEADER + ".const .b8 a[65000];\n.const .align 8 .b8 b[536];\n.visible .entry k()\n{\n\tret;\n}\n";
        assertEquals(65536, ProgramBuilder.build(PtxParser.parse("c.ptx", fits), "k").constBank.length);
    }
}
