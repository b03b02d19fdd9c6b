package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.HEADER;
import static io.barrierscope.ptx.PtxTestSupport.assertError;
import static io.barrierscope.ptx.PtxTestSupport.assertKernelError;
import static io.barrierscope.ptx.PtxTestSupport.kernel;
import static io.barrierscope.ptx.PtxTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.SourcePos;
import java.util.List;
import org.junit.jupiter.api.Test;

class PtxDeclarationTest {

    private static Register reg(Instruction i, int operand) {
        return ((Operand.Reg) i.operands().get(operand)).reg();
    }

    private static Variable global(String decl) {
        Module m = parse(HEADER + decl + "\n");
        return m.variables().get(m.variables().size() - 1);
    }

    @Test
    void registerRangeDeclaresNumberedRegisters() {
        Function f = kernel("  .reg .b16 %rs<3>;\n  mov.b16 %rs2, %rs0;");
        List<String> names = f.registers().stream().map(Register::name).toList();
        assertTrue(names.containsAll(List.of("%rs0", "%rs1", "%rs2", "%r9", "%p3")));
        assertFalse(names.contains("%rs3"));
        Register rs2 = reg(f.instructions().get(0), 0);
        assertEquals("%rs2", rs2.name());
        assertEquals(ScalarType.B16, rs2.type());
        assertSame(f.registers().get(rs2.index()), rs2);
    }

    @Test
    void registerRangeMayBeSpacedOut() {
        assertEquals("%q3", reg(kernel("  .reg .b32 %q <4>;\n  mov.b32 %q3, 1;").instructions().get(0), 0).name());
    }

    @Test
    void registerBeyondRangeIsUndeclared() {
        assertKernelError("  mov.b32 %r10, 1;", 0, 11, "undeclared register %r10");
    }

    @Test
    void registerWithLeadingZeroIsNotARangeMember() {
        assertKernelError("  mov.b32 %r01, 1;", 0, 11, "undeclared register %r01");
    }

    @Test
    void registerListsAndPredicatesAndStackPointers() {
        Function f = kernel("  .reg .pred p, q;\n  .reg .b64 %SP, %SPL;\n  mov.u64 %SP, %SPL;\n  and.pred p, q, q;");
        assertEquals(ScalarType.PRED, reg(f.instructions().get(1), 0).type());
        assertEquals("%SPL", reg(f.instructions().get(0), 1).name());
    }

    @Test
    void everyDeclarationInNestedScopesGetsItsOwnRegister() {
        String asm = "  { .reg .pred p; setp.ne.b32 p, %r1, 0; selp.u32 %r2, 1, 0, p; }\n";
        Function f = kernel(asm + asm);
        Register p1 = reg(f.instructions().get(0), 0);
        Register p2 = reg(f.instructions().get(2), 0);
        assertEquals("p", p1.name());
        assertNotEquals(p1.index(), p2.index());
        assertEquals(p1, reg(f.instructions().get(1), 3));
        assertEquals(p2, reg(f.instructions().get(3), 3));
    }

    @Test
    void innerScopeShadowsOuterRegister() {
        Function f = kernel("  mov.b32 %r1, 1;\n  { .reg .b32 %r1; mov.b32 %r1, 2; }\n  mov.b32 %r1, 3;");
        Register outer = reg(f.instructions().get(0), 0);
        Register inner = reg(f.instructions().get(1), 0);
        assertNotEquals(outer.index(), inner.index());
        assertEquals(outer, reg(f.instructions().get(2), 0));
    }

    @Test
    void scopedRegisterIsGoneAfterItsBlock() {
        assertKernelError("  { .reg .b32 %t; }\n  mov.b32 %t, 1;", 1, 11, "undeclared register %t");
    }

    @Test
    void duplicateRegisterInOneScopeIsReported() {
        assertKernelError("  .reg .b32 %x;\n  .reg .b32 %x;", 1, 13, "duplicate declaration of %x");
    }

    @Test
    void scopedParamsInSiblingCallSequencesAreDistinctVariables() {
        String seq = "  { .param .b32 param0; st.param.b32 [param0+0], %r1; }\n";
        Function f = kernel(seq + seq);
        Variable a = ((Operand.Symbol) ((Operand.Address) f.instructions().get(0).operands().get(0)).base()).variable();
        Variable b = ((Operand.Symbol) ((Operand.Address) f.instructions().get(1).operands().get(0)).base()).variable();
        assertEquals("param0", a.name());
        assertNotEquals(a.id(), b.id());
        assertEquals(List.of(a, b), f.variables());
        assertEquals(StateSpace.PARAM, a.space());
    }

    @Test
    void variableAttributesAlignVectorAndArrays() {
        Module m = parse(HEADER + ".shared .align 16 .b8 buf[64];\n.global .v4 .f32 vec;\n.global .u32 grid[4][8];\n"
                + ".extern .shared .align 16 .b8 dyn[];\n.visible .const .align 8 .v2 .u64 pairs[3];\n");
        List<Variable> v = m.variables();
        assertEquals(5, v.size());
        assertEquals(new Variable(v.get(0).id(), "buf", StateSpace.SHARED, ScalarType.B8, 16, 1, 64, false, null,
                new SourcePos("t.ptx", 4, 23)), v.get(0));
        assertEquals(4, v.get(1).vector());
        assertEquals(16, v.get(1).sizeBytes());
        assertEquals(32, v.get(2).count());
        assertEquals(-1, v.get(3).count());
        assertTrue(v.get(3).extern());
        assertEquals(StateSpace.CONST, v.get(4).space());
        assertEquals(48, v.get(4).sizeBytes());
        assertEquals(5, v.stream().map(Variable::id).distinct().count());
    }

    @Test
    void functionScopeLocalAndSharedVariables() {
        Function f = kernel("  .local .align 8 .b8 __local_depot0[40];\n  .shared .u32 flag;\n  mov.u64 %rd1, __local_depot0;");
        assertEquals(List.of("__local_depot0", "flag"), f.variables().stream().map(Variable::name).toList());
        assertEquals(StateSpace.LOCAL, f.variables().get(0).space());
    }

    @Test
    void scalarInitialiserIsLittleEndian() {
        assertArrayEquals(new byte[] {4, 3, 2, 1}, global(".global .u32 g = 0x01020304;").init());
        assertArrayEquals(new byte[] {-2, -1}, global(".global .s16 g = -2;").init());
    }

    @Test
    void arrayInitialiserIsPaddedToTheDeclaredSize() {
        assertArrayEquals(new byte[] {72, 105, 0, 0}, global(".global .align 1 .b8 s[4] = {72, 105};").init());
    }

    @Test
    void floatInitialisersKeepOrConvertBits() {
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3F}, global(".const .f32 one = 0f3F800000;").init());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xF8, 0x3F}, global(".global .f64 d = 1.5;").init());
        assertArrayEquals(new byte[] {0, 0, 0, 0x40}, global(".global .f32 two = 2;").init());
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3F}, global(".global .b32 bits = 0f3F800000;").init());
    }

    @Test
    void nestedBracesPadEachRow() {
        assertArrayEquals(new byte[] {1, 0, 0, 0, 3, 0, 4, 0}, global(".global .u16 a[2][2] = {{1}, {3, 4}};").init());
    }

    @Test
    void vectorInitialiser() {
        Variable v = global(".global .v2 .u8 v[2] = {{1, 2}, {3}};");
        assertArrayEquals(new byte[] {1, 2, 3, 0}, v.init());
    }

    @Test
    void unsizedArrayTakesItsLengthFromTheInitialiser() {
        Variable v = global(".global .b8 u[] = {1, 2, 3};");
        assertEquals(3, v.count());
        assertArrayEquals(new byte[] {1, 2, 3}, v.init());
    }

    @Test
    void variableWithoutInitialiserHasNoInitBytes() {
        assertNull(global(".global .u64 t;").init());
    }

    @Test
    void tooManyInitialisersAreReported() {
        assertError(HEADER + ".global .b8 s[2] = {1, 2, 3};", 4, 28, "too many initialisers");
    }

    @Test
    void symbolInitialiserIsUnsupported() {
        assertError(HEADER + ".global .u64 t[2] = {foo, bar};", 4, 22, "unsupported initialiser 'foo'");
        assertError(HEADER + ".global .u64 p = generic(foo);", 4, 18, "unsupported initialiser 'generic'");
    }

    @Test
    void hugeRegisterRangeIsTooLarge() {
        assertKernelError("  .reg .b32 %big<1000001>;", 0, 18, "register count too large");
    }

    @Test
    void hugeArrayIsTooLarge() {
        assertError(HEADER + ".global .u32 huge[100000][100000];", 4, 14, DeclParser.tooLarge(40_000_000_000L, false));
        assertError(HEADER + ".global .u32 huge[99999999999999999];", 4, 19, DeclParser.tooLarge(4 * 99999999999999999L, false));
    }

    @Test
    void alignmentMustBeAPowerOfTwo() {
        assertError(HEADER + ".global .align 3 .u32 x;", 4, 16, "alignment must be a power of two");
    }

    @Test
    void duplicateModuleVariableIsReported() {
        assertError(HEADER + ".global .u32 x;\n.global .u32 x;", 5, 14, "duplicate declaration of x");
    }

    @Test
    void entryParamsWithPointerAttributesAndArrays() {
        Module m = parse(HEADER + ".visible .entry k(\n  .param .u64 .ptr .global .align 8 k_p0,\n"
                + "  .param .align 8 .b8 k_p1[16]\n)\n{\n  .reg .b64 %rd1;\n  ld.param.u64 %rd1, [k_p0];\n}\n");
        Function f = m.function("k");
        assertTrue(f.entry());
        assertEquals(List.of("k_p0", "k_p1"), f.params().stream().map(Variable::name).toList());
        assertEquals(0, f.params().get(0).align());
        assertEquals(8, f.params().get(1).align());
        assertEquals(16, f.params().get(1).count());
        assertEquals(StateSpace.PARAM, f.params().get(1).space());
    }

    @Test
    void funcReturnParamsAndExternPrototypeWithoutBody() {
        Module m = parse(HEADER + ".extern .func (.param .b32 func_retval0) vprintf\n(\n  .param .b64 vprintf_param_0,\n"
                + "  .param .b64 vprintf_param_1\n)\n;\n"
                + ".func (.param .align 4 .b8 func_retval0[8]) pair(.param .b32 pair_param_0)\n{\n"
                + "  .reg .f32 %f<2>;\n  st.param.f32 [func_retval0+4], %f1;\n  ret;\n}\n");
        Function vprintf = m.function("vprintf");
        assertFalse(vprintf.hasBody());
        assertTrue(vprintf.instructions().isEmpty());
        assertEquals(2, vprintf.params().size());
        assertEquals("func_retval0", vprintf.returns().get(0).name());
        Function pair = m.function("pair");
        assertTrue(pair.hasBody());
        assertFalse(pair.entry());
        assertEquals(8, pair.returns().get(0).sizeBytes());
        assertEquals(List.of("vprintf", "pair"), List.copyOf(m.functions().keySet()));
    }

    @Test
    void prototypeFollowedByDefinitionKeepsTheDefinition() {
        Module m = parse(HEADER + ".func f(.param .b32 a);\n.func f(.param .b32 a)\n{\n  ret;\n}\n");
        assertTrue(m.function("f").hasBody());
        assertEquals(1, m.function("f").instructions().size());
    }

    @Test
    void duplicateFunctionDefinitionIsReported() {
        assertError(HEADER + ".func f()\n{\n  ret;\n}\n.func f()\n{\n  ret;\n}\n", 8, 7, "duplicate definition of function f");
    }

    @Test
    void noreturnDirectiveIsRecorded() {
        Module m = parse(HEADER + ".func die() .noreturn\n{\n  trap;\n}\n");
        assertTrue(m.function("die").directives().noreturn());
    }

    @Test
    void performanceAndClusterDirectivesWithMissingDimensionsAsOne() {
        Module m = parse(HEADER + ".visible .entry k()\n.maxntid 256, 1, 1\n.reqntid 128\n.reqnctapercluster 2, 2\n"
                + ".explicitcluster\n.maxnreg 32\n.minnctapersm 2\n.maxclusterrank 8\n{\n  ret;\n}\n");
        Directives d = m.function("k").directives();
        assertArrayEquals(new int[] {256, 1, 1}, d.maxntid());
        assertArrayEquals(new int[] {128, 1, 1}, d.reqntid());
        assertArrayEquals(new int[] {2, 2, 1}, d.reqnctapercluster());
        assertTrue(d.explicitCluster());
        assertEquals(32, d.maxnreg());
        assertEquals(2, d.minnctapersm());
        assertEquals(8, d.maxclusterrank());
        assertNull(d.clusterDim());
    }

    @Test
    void aCtaOrClusterDimensionOfZeroIsRefusedWhereItIsWritten() {
        // Once it reached the launch's cluster arithmetic as a division by zero.
        for (String d : new String[] {".reqnctapercluster 0", ".cluster_dim 2, 0", ".maxntid 0", ".reqntid 32, 1, 0"}) {
            assertError(HEADER + ".visible .entry k()\n" + d + "\n{\n  ret;\n}\n", 5, d.lastIndexOf('0') + 1, "a dimension must be at least 1");
        }
    }

    @Test
    void clusterDimDirective() {
        Module m = parse(HEADER + ".entry k() .cluster_dim 4\n{\n  ret;\n}\n");
        assertArrayEquals(new int[] {4, 1, 1}, m.function("k").directives().clusterDim());
    }

    @Test
    void entryWithoutDirectivesHasNone() {
        assertSame(Directives.NONE, kernel("  ret;").directives());
    }

    @Test
    void moduleHeaderIsRecorded() {
        Module m = parse(".version 9.0\n.target sm_90a, debug\n.address_size 64\n");
        assertEquals("9.0", m.version());
        assertEquals(List.of("sm_90a", "debug"), m.target());
        assertEquals(64, m.addressSize());
        assertEquals(List.of(".version 9.0", ".target sm_90a, debug", ".address_size 64", ""), m.sourceLines());
    }

    @Test
    void sectionsPragmasAliasesAndPrototypesAreIgnored() {
        Module m = parse(HEADER + ".pragma \"nounroll\";\n.alias fa, fb;\n.callprototype (.param .b32 _) _ (.param .b32 _);\n"
                + "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,90,0\n.b32 .debug_loc+133\n\t}\n");
        assertTrue(m.functions().isEmpty());
        assertTrue(m.variables().isEmpty());
    }

    @Test
    void vectorRegistersAreRejected() {
        assertKernelError("  .reg .v4 .b32 %v;", 0, 8, "vector registers are not supported");
    }

    @Test
    void unknownTypeIsReported() {
        assertError(HEADER + ".global .texref t;", 4, 9, "unknown type '.texref'");
    }

    @Test
    void unknownModuleDirectiveIsReported() {
        assertError(HEADER + ".frobnicate 3;", 4, 1, "unknown directive '.frobnicate'");
    }
}
