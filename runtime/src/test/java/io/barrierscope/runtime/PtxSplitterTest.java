package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.ptx.Variable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A module cut down to one entry compiles to the same program as the whole module: same
 * functions, same instructions on the same PTX lines and columns, same module variables in the
 * same order. Checked on every nvcc-made PTX of the repository (the engine's corpus, the samples).
 */
class PtxSplitterTest {
    static List<Path> corpus() throws Exception {
        List<Path> out = new ArrayList<>();
        for (Path dir : List.of(Path.of("../engine/src/test/resources/ptx-corpus"), Path.of("../samples"),
                Path.of("../benchmarks/src/main/resources/kernels"))) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> p.toString().endsWith(".ptx") && !p.toString().contains("/target/")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    @Test
    void everyEntryCutFromEveryRepositoryModuleCompilesAsTheWholeModuleDoes() throws Exception {
        int checked = 0;
        for (Path f : corpus()) {
            String text = Files.readString(f);
            Module whole = PtxParser.parse(f.toString(), text);
            PtxSplitter split = new PtxSplitter(text);
            assertEquals(whole.entries().stream().map(Function::name).toList(), split.entries(), f.toString());
            for (String entry : split.entries()) {
                String cut = split.only(entry);
                assertEquals(text.lines().count(), cut.lines().count(), f + " " + entry + ": line count");
                Module part = PtxParser.parse(f.toString(), cut);
                assertEquals(whole.variables().stream().map(Variable::name).toList(), part.variables().stream().map(Variable::name).toList(),
                        f + " " + entry + ": module variables");
                Program a = ProgramBuilder.build(whole, entry);
                Program b = ProgramBuilder.build(part, entry);
                assertEquals(a.functionPc, b.functionPc, f + " " + entry + ": functions");
                assertEquals(a.code.length, b.code.length, f + " " + entry);
                for (String fn : a.functionPc.keySet()) {
                    List<Instruction> x = whole.function(fn).instructions();
                    List<Instruction> y = part.function(fn).instructions();
                    assertEquals(x.size(), y.size(), f + " " + fn);
                    for (int i = 0; i < x.size(); i++) {
                        assertEquals(x.get(i).pos(), y.get(i).pos(), f + " " + fn + " instruction " + i);
                        assertEquals(x.get(i).text(), y.get(i).text(), f + " " + fn + " instruction " + i);
                    }
                }
                assertEquals(a.globalTemplate.segments().stream().map(s -> s.name() + "@" + s.base()).toList(),
                        b.globalTemplate.segments().stream().map(s -> s.name() + "@" + s.base()).toList(), f + " " + entry + ": globals");
                assertEquals(java.util.Arrays.toString(a.constBank), java.util.Arrays.toString(b.constBank), f + " " + entry + ": constants");
                checked++;
            }
        }
        assertTrue(checked >= 40, "entries checked: " + checked);
    }

    @Test
    void otherEntriesAndUncalledFunctionsAreLeftOutButDirectivesAndVariablesStay() {
        String ptx = """
                //
                .version 9.0
                .target sm_90a
                .address_size 64

                .global .align 4 .b8 table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
                .func (.param .b32 r) helper(.param .b32 x);

                .func (.param .b32 r) helper(.param .b32 x)
                {
                \t.reg .b32 %r<2>;
                \tld.param.b32 %r1, [x];
                \tst.param.b32 [r], %r1;
                \tret;
                }
                .func unused()
                {
                \tret;
                }
                .visible .entry first()
                {
                \t.reg .b32 %r<3>;
                \t{
                \t.param .b32 p;
                \t.param .b32 q;
                \tst.param.b32 [p], 1;
                \tcall.uni (q), helper, (p);
                \t}
                \tret;
                }
                .visible .entry second()
                {
                \tret;
                }
                """;
        PtxSplitter s = new PtxSplitter(ptx);
        assertEquals(List.of("first", "second"), s.entries());
        String first = s.only("first");
        assertTrue(first.contains("helper(.param .b32 x)\n{") && first.contains(".global .align 4 .b8 table[8]")
                && first.contains(".address_size 64") && !first.contains("unused") && !first.contains("second"), first);
        String second = s.only("second");
        assertTrue(!second.contains("ld.param.b32") && !second.contains("first()"), second);
        assertEquals(ptx.lines().count(), second.lines().count());
        Module m = PtxParser.parse("t.ptx", second);
        assertEquals(List.of("second"), m.entries().stream().map(Function::name).toList());
    }

    @Test
    void aLeftOutBodyWithMultiLineCommentsAndStringsKeepsTheLinesOfWhatFollows() {
        String ptx = """
                .version 9.0
                .target sm_90a
                .address_size 64
                /* a header comment
                   over two lines */ .visible .entry first()
                {
                	/* a comment
                	   in the body */
                	// "a quote in a line comment
                	ret;
                }
                .visible .entry second()
                {
                	ret;
                }
                """;
        PtxSplitter s = new PtxSplitter(ptx);
        assertEquals(List.of("first", "second"), s.entries());
        String second = s.only("second");
        assertEquals(ptx.lines().count(), second.lines().count(), second);
        assertTrue(!second.contains("in the body"), second);
        Module m = PtxParser.parse("t.ptx", second);
        assertEquals(ptx.lines().toList().indexOf(".visible .entry second()") + 1, m.function("second").pos().line());
    }
}
