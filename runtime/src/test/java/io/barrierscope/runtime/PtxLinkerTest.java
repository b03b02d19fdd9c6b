package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Linking the PTX of relocatable objects (nvcc -rdc=true), one rule per test (docs/runtime.md, "Relocatable device code"). */
class PtxLinkerTest {
    private static final String HEAD = ".version 9.0\n.target sm_90a\n.address_size 64\n";

    /** An object whose kernel calls twice() and reads scale, both extern. */
    private static final String USER = HEAD
            + ".extern .func (.param .b32 r) _Z5twicei(.param .b32 x);\n"
            + ".extern .global .align 4 .u32 scale;\n"
            + ".visible .entry k(.param .u64 out)\n{\n"
            + "  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
            + "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 7;\n"
            + "  { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1; call.uni (b), _Z5twicei, (a); ld.param.b32 %r2, [b]; }\n"
            + "  ld.global.u32 %r3, [scale];\n  mul.lo.s32 %r2, %r2, %r3;\n  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";

    private static String definer(String linkage, String shift, int scale) {
        return HEAD + ".visible .global .align 4 .u32 scale = " + scale + ";\n"
                + linkage + " .func (.param .b32 r) _Z5twicei(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
                + "  ld.param.u32 %r1, [x];\n  shl.b32 %r2, %r1, " + shift + ";\n  st.param.b32 [r], %r2;\n  ret;\n}\n";
    }

    private static Program compile(String linked) {
        Module m = PtxParser.parse("linked.ptx", linked);
        return ProgramBuilder.build(m, "k");
    }

    @Test
    void externFunctionsAndVariablesResolveToAnotherObjectsDefinitions() {
        String linked = PtxLinker.link(List.of(USER, definer(".visible", "1", 5)));
        assertFalse(linked.contains(".extern"), linked);
        Program p = compile(linked);
        assertTrue(p.globalTemplate.segments().stream().anyMatch(s -> s.name().equals("scale")), linked);
    }

    @Test
    void aWeakDefinitionYieldsToAStrongOneWhicheverObjectComesFirst() {
        String weak = definer(".weak", "3", 5).replace(".visible .global", ".weak .global");
        for (List<String> order : List.of(List.of(USER, weak, definer(".visible", "1", 5)),
                List.of(definer(".visible", "1", 5), USER, weak))) {
            String linked = PtxLinker.link(order);
            assertTrue(linked.contains("shl.b32 %r2, %r1, 1;") && !linked.contains("shl.b32 %r2, %r1, 3;"), linked);
            compile(linked);
        }
    }

    @Test
    void twoStrongDefinitionsAreAMultipleDefinitionErrorNamingBothObjects() {
        var e = assertThrows(PtxLinker.LinkException.class,
                () -> PtxLinker.link(List.of(definer(".visible", "1", 5), USER, definer(".visible", "2", 6))));
        assertEquals("multiple definition of 'scale': first defined in object 1 of 3, again in object 3 of 3", e.getMessage());
    }

    @Test
    void anExternNothingDefinesIsAnUndefinedReferenceNamingTheObjectAndItsFile() {
        String named = USER + ".file 1 \"/src/kernels/user.cu\"\n";
        var e = assertThrows(PtxLinker.LinkException.class, () -> PtxLinker.link(List.of(HEAD, named)));
        assertTrue(e.getMessage().startsWith("undefined reference to '_Z5twicei' in object 2 of 2 (user.cu): no object defines it"),
                e.getMessage());
    }

    @Test
    void deviceRuntimeFunctionsAndUndefinedExternSharedStayDeclaredOnce() {
        String a = HEAD + ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
                + ".extern .shared .align 4 .b8 tile[];\n";
        String linked = PtxLinker.link(List.of(USER, a, definer(".visible", "1", 5), a));
        assertEquals(1, count(linked, "vprintf"), linked);
        assertEquals(1, count(linked, "tile[]"), linked);
        compile(linked);
    }

    @Test
    void namesWithoutLinkageDefinedInTwoObjectsAreRenamedInTheLaterOne() {
        String a = HEAD + ".global .align 1 .b8 $str[2] = {65, 0};\n.visible .entry k2(.param .u64 p)\n{\n"
                + "  .reg .b64 %rd<2>;\n  mov.u64 %rd1, $str;\n  ret;\n}\n";
        String b = HEAD + ".global .align 1 .b8 $str[2] = {66, 0};\n.visible .entry k3(.param .u64 p)\n{\n"
                + "  .reg .b64 %rd<2>;\n  mov.u64 %rd1, $str;\n  ret;\n}\n";
        String linked = PtxLinker.link(List.of(a, b));
        assertTrue(linked.contains("$str[2] = {65") && linked.contains("$str$o2[2] = {66") && linked.contains("mov.u64 %rd1, $str$o2;"), linked);
        PtxParser.parse("linked.ptx", linked);
    }

    @Test
    void debugStringLabelsOfTwoObjectsAreRenamedInTheLaterOneWhereLocNamesThem() {
        String o = HEAD + ".visible .entry KNAME(.param .u64 p)\n{\n  .loc 1 9 1, function_name $L__info_string0, inlined_at 1 4 2\n"
                + "  ret;\n}\n.file 1 \"x.cu\"\n.section .debug_str\n{\n$L__info_string0:\n.b8 97,0\n}\n";
        String linked = PtxLinker.link(List.of(o.replace("KNAME", "k1"), o.replace("KNAME", "k2")));
        assertTrue(linked.contains("$L__info_string0$o2:") && linked.contains("function_name $L__info_string0$o2, inlined_at 2 4 2")
                && linked.contains("function_name $L__info_string0, inlined_at 1 4 2"), linked);
    }

    @Test
    void aLaterObjectsFileIndicesMovePastTheEarlierOnesSoLocNamesItsOwnFile() {
        String a = HEAD + ".visible .entry k(.param .u64 p)\n{\n  .loc 1 3 1\n  ret;\n}\n.file 1 \"a.cu\"\n";
        String b = HEAD + ".visible .entry k4(.param .u64 p)\n{\n  .loc 2 9 1, function_name $L__f, inlined_at 1 4 2\n  ret;\n}\n"
                + ".file 1 \"b.cu\"\n.file 2 \"b.h\"\n";
        String linked = PtxLinker.link(List.of(a, b));
        assertTrue(linked.contains(".file 2 \"b.cu\"") && linked.contains(".file 3 \"b.h\"")
                && linked.contains(".loc 3 9 1, function_name $L__f, inlined_at 2 4 2") && linked.contains(".loc 1 3 1"), linked);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
