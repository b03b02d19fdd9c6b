package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.BODY_LINE;
import static io.barrierscope.ptx.PtxTestSupport.FILE;
import static io.barrierscope.ptx.PtxTestSupport.HEADER;
import static io.barrierscope.ptx.PtxTestSupport.assertError;
import static io.barrierscope.ptx.PtxTestSupport.assertKernelError;
import static io.barrierscope.ptx.PtxTestSupport.kernel;
import static io.barrierscope.ptx.PtxTestSupport.kernelText;
import static io.barrierscope.ptx.PtxTestSupport.only;
import static io.barrierscope.ptx.PtxTestSupport.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.SourcePos;
import java.util.List;
import org.junit.jupiter.api.Test;

class PtxInstructionTest {

    private static String regName(Operand o) { return ((Operand.Reg) o).reg().name(); }

    @Test
    void mnemonicIsSplitAtDotsKeepingDoubleColon() {
        Instruction i = only("  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r1;");
        assertEquals("mbarrier", i.opcode());
        assertEquals(List.of(".try_wait", ".parity", ".shared::cta", ".b64"), i.modifiers());
        assertEquals("mbarrier.try_wait.parity.shared::cta.b64", i.mnemonic());
        assertTrue(i.has(".parity"));
    }

    @Test
    void cacheHintAndCompleteTxModifiers() {
        Instruction i = only("  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], %r2, [%r3], %rd2;");
        assertEquals(List.of(".async", ".bulk", ".shared::cluster", ".global", ".mbarrier::complete_tx::bytes", ".L2::cache_hint"),
                i.modifiers());
        assertEquals(5, i.operands().size());
    }

    @Test
    void unknownInstructionIsReportedAtItsColumn() {
        assertKernelError("  ret;\n    mbarrier2.init.b64 [%rd1], 1;", 1, 5, "unknown instruction 'mbarrier2'");
    }

    @Test
    void everyIsaOpcodeIsAccepted() {
        for (String op : List.of("abs", "activemask", "add", "alloca", "applypriority", "barrier", "bmsk", "clusterlaunchcontrol",
                "createpolicy", "discard", "elect", "griddepcontrol", "ldmatrix", "lop3", "mapa", "movmatrix", "multimem",
                "setmaxnreg", "stackrestore", "stmatrix", "szext", "tanh", "tcgen05", "tensormap", "vavrg4", "wgmma", "wmma")) {
            assertTrue(PtxOpcodes.isOpcode(op), op);
        }
        assertFalse(PtxOpcodes.isOpcode("mbarrier2"));
    }

    @Test
    void guardedInstructionsWithPositiveAndNegatedPredicate() {
        Function f = kernel("  @%p1 bra L;\n  @!%p2 ret;\nL:\n  exit;");
        Instruction bra = f.instructions().get(0);
        assertEquals("%p1", bra.guard().reg().name());
        assertEquals(false, bra.guard().negated());
        assertEquals(true, f.instructions().get(1).guard().negated());
        assertNull(f.instructions().get(2).guard());
        assertEquals(new SourcePos(FILE, BODY_LINE, 3), bra.pos());
    }

    @Test
    void guardWithUndeclaredPredicateIsReported() {
        assertKernelError("  @%p9 ret;", 0, 4, "undeclared register %p9");
    }

    @Test
    void dualDestinationAndSink() {
        Instruction i = only("  shfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;");
        Operand.Pair pair = assertInstanceOf(Operand.Pair.class, i.operands().get(0));
        assertEquals("%r1", regName(pair.first()));
        assertEquals("%p1", regName(pair.second()));
        Operand.Pair sink = (Operand.Pair) only("  elect.sync _|%p1, -1;").operands().get(0);
        assertInstanceOf(Operand.Sink.class, sink.first());
    }

    @Test
    void vectorOperandsWithSink() {
        Instruction i = only("  ld.global.v4.u32 {%r1, %r2, _, %r4}, [%rd1];");
        Operand.Vector v = assertInstanceOf(Operand.Vector.class, i.operands().get(0));
        assertEquals(4, v.elements().size());
        assertInstanceOf(Operand.Sink.class, v.elements().get(2));
        assertEquals("%r4", regName(v.elements().get(3)));
    }

    @Test
    void negatedPredicateSource() {
        Instruction i = only("  setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;");
        Operand.Reg r = (Operand.Reg) i.operands().get(3);
        assertTrue(r.negated());
        assertEquals("%p3", r.reg().name());
    }

    @Test
    void registerAndSymbolAddressesWithOffsets() {
        Function f = kernel("  .shared .align 4 .b8 smem[64];\n  ld.u32 %r1, [%rd1];\n  ld.u32 %r1, [%rd1+4];\n"
                + "  ld.u32 %r1, [%rd1+-4];\n  ld.u32 %r1, [%rd1-8];\n  ld.shared.u32 %r1, [smem];\n"
                + "  ld.shared.u32 %r1, [smem+8];\n  ld.u32 %r1, [100];\n  ld.param.u64 %rd1, [k_p0];");
        List<Operand.Address> a = f.instructions().stream().map(i -> (Operand.Address) i.operands().get(1)).toList();
        assertEquals("%rd1", regName(a.get(0).base()));
        assertEquals(0, a.get(0).offset());
        assertEquals(4, a.get(1).offset());
        assertEquals(-4, a.get(2).offset());
        assertEquals(-8, a.get(3).offset());
        Operand.Symbol smem = (Operand.Symbol) a.get(4).base();
        assertEquals("smem", smem.name());
        assertSame(f.variables().get(0), smem.variable());
        assertEquals(8, a.get(5).offset());
        assertNull(a.get(6).base());
        assertEquals(100, a.get(6).offset());
        assertSame(f.params().get(0), ((Operand.Symbol) a.get(7).base()).variable());
    }

    @Test
    void tensorAddressWithCoordinates() {
        Instruction i = only("  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];");
        Operand.Address a = (Operand.Address) i.operands().get(1);
        Operand.Vector parts = (Operand.Vector) a.base();
        assertEquals("%rd1", regName(parts.elements().get(0)));
        assertEquals(2, ((Operand.Vector) parts.elements().get(1)).elements().size());
    }

    @Test
    void nestedAddressIsRejected() {
        assertKernelError("  ld.u32 %r1, [%rd1, [%rd2]];", 0, 22, "expected an operand, found '['");
    }

    @Test
    void warpSizeConstant() {
        assertEquals(new Operand.Imm(32, Operand.ImmKind.INT), only("  mov.u32 %r1, WARP_SZ;").operands().get(1));
    }

    @Test
    void deeplyNestedBlocksAreRejected() {
        PtxException e = PtxTestSupport.error(kernelText("{".repeat(300) + "}".repeat(300)));
        assertEquals("too deeply nested", e.detail());
        assertEquals(BODY_LINE, e.pos().line());
    }

    @Test
    void symbolsAsValuesResolveToVariablesAndFunctions() {
        Module m = parse(HEADER + ".global .align 1 .b8 $str[2] = {104, 0};\n.func helper()\n{\n  ret;\n}\n"
                + ".entry k()\n{\n  .reg .b64 %rd<4>;\n  .reg .b32 %r<2>;\n  .shared .u32 smem[8];\n"
                + "  mov.u64 %rd1, smem;\n  cvta.global.u64 %rd2, $str;\n  mov.u32 %r1, smem+16;\n  mov.u64 %rd3, helper;\n}\n");
        List<Instruction> is = m.function("k").instructions();
        Operand.Symbol smem = (Operand.Symbol) is.get(0).operands().get(1);
        assertEquals(StateSpace.SHARED, smem.variable().space());
        assertSame(m.variables().get(0), ((Operand.Symbol) is.get(1).operands().get(1)).variable());
        assertEquals(16, ((Operand.Symbol) is.get(2).operands().get(1)).offset());
        assertSame(m.function("helper"), ((Operand.Symbol) is.get(3).operands().get(1)).function());
    }

    @Test
    void undefinedSymbolIsReported() {
        assertKernelError("  mov.u64 %rd1, nowhere;", 0, 17, "undefined symbol nowhere");
    }

    @Test
    void callFormsHaveReturnsTargetAndArguments() {
        Module m = parse(HEADER + ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
                + ".func (.param .b32 r) foo(.param .b32 x)\n{\n  ret;\n}\n.func bar()\n{\n  ret;\n}\n"
                + ".entry k()\n{\n  .reg .b64 %rd<2>;\n"
                + "  { .param .b64 param0; .param .b64 param1; .param .b32 retval0;\n"
                + "    call.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);\n  }\n"
                + "  { .param .b32 param0; call.uni foo, (param0); }\n"
                + "  { .param .b32 p0; .param .b32 retval0; call (retval0), foo, (p0); }\n"
                + "  call bar;\n}\n");
        List<Instruction> is = m.function("k").instructions();
        List<Operand> c0 = is.get(0).operands();
        assertEquals(3, c0.size());
        assertEquals("retval0", ((Operand.Symbol) ((Operand.ParenList) c0.get(0)).elements().get(0)).name());
        assertSame(m.function("vprintf"), ((Operand.Symbol) c0.get(1)).function());
        assertEquals(2, ((Operand.ParenList) c0.get(2)).elements().size());
        assertEquals("call.uni (retval0), vprintf, (param0, param1)", is.get(0).text());
        assertInstanceOf(Operand.Symbol.class, is.get(1).operands().get(0));
        assertInstanceOf(Operand.ParenList.class, is.get(1).operands().get(1));
        assertEquals(3, is.get(2).operands().size());
        assertEquals(List.of(new Operand.Symbol("bar", null, m.function("bar"), 0)), is.get(3).operands());
    }

    @Test
    void indirectCallNamesItsPrototype() {
        Function f = kernel("  { .param .b32 param0; .param .b32 retval0;\n  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                + "  call (retval0), %rd1, (param0), prototype_0; }");
        List<Operand> ops = f.instructions().get(0).operands();
        assertEquals("%rd1", regName(ops.get(1)));
        Operand.Symbol proto = (Operand.Symbol) ops.get(3);
        assertEquals("prototype_0", proto.name());
        assertNull(proto.function());
    }

    @Test
    void recursiveCallRefersToItsOwnFunction() {
        Module m = parse(HEADER + ".func rec()\n{\n  call.uni rec, ();\n  ret;\n}\n");
        Function rec = m.function("rec");
        assertSame(rec, ((Operand.Symbol) rec.instructions().get(0).operands().get(0)).function());
        assertTrue(rec.toString().contains("Symbol[rec, function]"));
        assertEquals(rec.hashCode(), rec.hashCode());
    }

    @Test
    void undefinedCallTargetIsReported() {
        assertKernelError("  call.uni missing;", 0, 12, "undefined function missing");
    }

    @Test
    void labelsResolveForwardAndBackward() {
        Function f = kernel("$L__BB0_1:\n  add.s32 %r1, %r1, 1;\n  @%p1 bra $L__BB0_1;\n  bra.uni $L__BB0_3;\n$L__BB0_3:\n  ret;\nEND:");
        assertEquals(new Operand.Label("$L__BB0_1", 0), f.instructions().get(1).operands().get(0));
        assertEquals(new Operand.Label("$L__BB0_3", 3), f.instructions().get(2).operands().get(0));
        assertEquals(0, f.labels().get("$L__BB0_1"));
        assertEquals(4, f.labels().get("END"));
    }

    @Test
    void undefinedLabelIsReportedAtTheUse() {
        assertKernelError("  ret;\n  @%p1 bra $L__BB0_9;", 1, 12, "undefined label $L__BB0_9");
    }

    @Test
    void duplicateLabelIsReported() {
        assertKernelError("L1:\n  ret;\nL1:\n  ret;", 2, 1, "duplicate label L1");
    }

    @Test
    void labelsAreScopedToTheirBlock() {
        String asm = "  {\n  .reg .pred P1;\nLAB_WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], %r2;\n"
                + "  @P1 bra DONE;\n  bra LAB_WAIT;\nDONE:\n  }\n";
        Function f = kernel(asm + asm);
        assertEquals(new Operand.Label("LAB_WAIT", 0), f.instructions().get(2).operands().get(0));
        assertEquals(new Operand.Label("DONE", 3), f.instructions().get(1).operands().get(0));
        assertEquals(new Operand.Label("LAB_WAIT", 3), f.instructions().get(5).operands().get(0));
        assertEquals(new Operand.Label("DONE", 6), f.instructions().get(4).operands().get(0));
    }

    @Test
    void branchTargetListsExpandToLabels() {
        Function f = kernel("$L_brx_0: .branchtargets A, B;\n  brx.idx %r1, $L_brx_0;\nA:\n  ret;\nB:\n  exit;");
        Operand.Vector v = (Operand.Vector) f.instructions().get(0).operands().get(1);
        assertEquals(List.of(new Operand.Label("A", 1), new Operand.Label("B", 2)), v.elements());
    }

    @Test
    void specialRegisters() {
        Function f = kernel("  mov.u32 %r1, %tid.x;\n  mov.u32 %r1, %ctaid.y;\n  mov.u32 %r1, %cluster_ctaid.z;\n"
                + "  mov.u32 %r1, %laneid;\n  mov.u32 %r1, %lanemask_lt;\n  mov.u64 %rd1, %clock64;\n"
                + "  mov.u64 %rd1, %globaltimer;\n  mov.u32 %r1, %cluster_ctarank;\n  mov.u32 %r1, %envreg3;\n"
                + "  mov.u32 %r1, %pm0;\n  mov.u64 %rd1, %pm7_64;\n  mov.u32 %r1, %dynamic_smem_size;\n  mov.u32 %r1, %ntid;");
        List<Operand> got = f.instructions().stream().map(i -> i.operands().get(1)).toList();
        assertEquals(List.of(new Operand.Special(SpecialRegister.TID, 0), new Operand.Special(SpecialRegister.CTAID, 1),
                new Operand.Special(SpecialRegister.CLUSTER_CTAID, 2), new Operand.Special(SpecialRegister.LANEID, -1),
                new Operand.Special(SpecialRegister.LANEMASK_LT, -1), new Operand.Special(SpecialRegister.CLOCK64, -1),
                new Operand.Special(SpecialRegister.GLOBALTIMER, -1), new Operand.Special(SpecialRegister.CLUSTER_CTARANK, -1),
                new Operand.Special(SpecialRegister.ENVREG, 3), new Operand.Special(SpecialRegister.PM, 0),
                new Operand.Special(SpecialRegister.PM64, 7), new Operand.Special(SpecialRegister.DYNAMIC_SMEM_SIZE, -1),
                new Operand.Special(SpecialRegister.NTID, -1)), got);
    }

    @Test
    void undeclaredPercentNameIsReported() {
        assertKernelError("  add.s32 %r1, %r2, %r99;", 0, 21, "undeclared register %r99");
        assertKernelError("  mov.u32 %r1, %envreg32;", 0, 16, "undeclared register %envreg32");
    }

    @Test
    void badSpecialRegisterComponentIsReported() {
        assertKernelError("  mov.u32 %r1, %tid.w;", 0, 20, "unknown component '.w' of %tid");
    }

    @Test
    void severalInstructionsOnOneLine() {
        Function f = kernel("  mov.u32 %r1, 1; add.u32 %r1, %r1, 2;  ret;");
        assertEquals(3, f.instructions().size());
        assertEquals("add.u32 %r1, %r1, 2", f.instructions().get(1).text());
        assertEquals(new SourcePos(FILE, BODY_LINE, 19), f.instructions().get(1).pos());
        assertEquals(2, f.instructions().get(2).index());
    }

    @Test
    void instructionTextIsTrimmedWithoutSemicolon() {
        assertEquals("@%p1 bra \t$L__BB0_2", kernel("\t@%p1 bra \t$L__BB0_2;   // comment\n$L__BB0_2:").instructions().get(0).text());
    }

    @Test
    void missingSemicolonIsReportedAtTheOffendingToken() {
        assertKernelError("  add.s32 %r1, %r2, %r3 %r4;", 0, 25, "expected ';'");
    }

    @Test
    void missingOperandIsReported() {
        assertKernelError("  add.s32 %r1, , %r3;", 0, 16, "expected an operand, found ','");
    }

    @Test
    void locGivesEveryInstructionTheMostRecentCudaLocation() {
        Module m = parse(kernelText("  mov.u32 %r1, 1;\n\t.loc\t1 42 3\n  mov.u32 %r1, 2;\n"
                + "\t.loc\t2 397 9, function_name $L__info_string0, inlined_at 1 42 3\n  mov.u32 %r1, 3; ret;\n\t.loc 1 0 9\n  exit;")
                + "\t.file\t1 \"k.cu\"\n\t.file 2 \"cuda-include/sm_30_intrinsics.hpp\", 1700000000, 4242\n");
        List<Instruction> is = m.function("k").instructions();
        assertNull(is.get(0).loc());
        assertEquals(new CudaLoc("k.cu", 42, 3), is.get(1).loc());
        assertEquals(new CudaLoc("cuda-include/sm_30_intrinsics.hpp", 397, 9), is.get(2).loc());
        assertEquals(is.get(2).loc(), is.get(3).loc());
        assertEquals(new CudaLoc("k.cu", 0, 9), is.get(4).loc());
        assertEquals("cuda-include/sm_30_intrinsics.hpp", m.files().get(2));
    }

    @Test
    void inlinedAtChainsAreKeptOuterCallSiteLast() {
        // nvcc tells nested inlining one level per .loc: the helper's line, then the intrinsic inlined into it.
        Module m = parse(kernelText("\t.loc\t1 139 13\n  mov.u32 %r1, 1;\n"
                + "\t.loc\t1 30 5, function_name $L__info_string0, inlined_at 1 139 13\n"
                + "\t.loc\t2 151 3, function_name $L__info_string1, inlined_at 1 30 5\n  mov.u32 %r1, 2;\n"
                + "\t.loc\t1 140 9\n  mov.u32 %r1, 3; ret;")
                + "\t.file\t1 \"k.cu\"\n\t.file 2 \"cuda-include/sm_20_intrinsics.hpp\"\n");
        List<Instruction> is = m.function("k").instructions();
        CudaLoc inner = is.get(1).loc();
        assertEquals(new CudaLoc("cuda-include/sm_20_intrinsics.hpp", 151, 3), inner);
        assertEquals(new CudaLoc("k.cu", 30, 5), inner.inlinedAt());
        assertEquals(new CudaLoc("k.cu", 139, 13), inner.inlinedAt().inlinedAt());
        assertNull(inner.inlinedAt().inlinedAt().inlinedAt());
        assertTrue(inner.within("k.cu", 139));
        assertTrue(inner.within("sm_20_intrinsics.hpp", 151));
        assertFalse(inner.within("k.cu", 140));
        assertNull(is.get(2).loc().inlinedAt());
    }

    @Test
    void locDoesNotCarryIntoTheNextFunction() {
        Module m = parse(HEADER + ".func a()\n{\n  .loc 1 5 1\n  ret;\n}\n.func b()\n{\n  ret;\n}\n.file 1 \"x.cu\"\n");
        assertEquals(new CudaLoc("x.cu", 5, 1), m.function("a").instructions().get(0).loc());
        assertNull(m.function("b").instructions().get(0).loc());
    }

    @Test
    void pragmaInsideBodyIsIgnored() {
        assertEquals(1, kernel("L:\n\t.pragma \"nounroll\";\n  ret;").instructions().size());
    }

    @Test
    void unterminatedBodyIsReportedAtEndOfFile() {
        PtxException e = PtxTestSupport.error(HEADER + ".entry k()\n{\n  ret;\n");
        assertEquals("expected '}'", e.detail());
        assertEquals(7, e.pos().line());
    }

    @Test
    void strayTokenAtModuleScopeIsReported() {
        assertError(HEADER + "ret;", 4, 1, "expected a directive, found 'ret'");
    }

    @Test
    void errorMessageShowsLineAndCaret() {
        PtxException e = PtxTestSupport.error(kernelText("\tfoo.bar %r1;"));
        assertEquals("t.ptx:10:2: error: unknown instruction 'foo'\n   foo.bar %r1;\n   ^", e.getMessage());
        assertEquals("\tfoo.bar %r1;", e.lineText());
    }
}
