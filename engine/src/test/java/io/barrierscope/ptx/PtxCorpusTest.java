package io.barrierscope.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every real nvcc-generated .ptx in the repository parses, with locations and labels bound. */
class PtxCorpusTest {

    /** Corpus folders relative to the engine module; missing ones are skipped. */
    static List<Path> corpusFiles() {
        List<Path> out = new ArrayList<>();
        for (Path root : List.of(Path.of("..", "samples"), Path.of("src", "test", "resources", "ptx-corpus"))) {
            if (!Files.isDirectory(root)) continue;
            try (Stream<Path> s = Files.walk(root)) {
                // Build output (samples/target holds copies of the test resources) would count files twice.
                s.filter(p -> p.toString().endsWith(".ptx") && Files.isRegularFile(p) && !root.relativize(p).startsWith("target"))
                        .sorted().forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyCorpusFileParses() {
        return corpusFiles().stream().map(p -> DynamicTest.dynamicTest(p.toString(), () -> check(p)));
    }

    private static void check(Path path) throws IOException {
        Module m = PtxParser.parse(path.toString(), Files.readString(path));
        assertFalse(m.entries().isEmpty(), "has an entry");
        assertFalse(m.target().isEmpty(), "has a target");
        for (Function f : m.functions().values()) {
            if (!f.hasBody()) continue;
            boolean seenLoc = false;
            for (int i = 0; i < f.instructions().size(); i++) {
                Instruction in = f.instructions().get(i);
                assertEquals(i, in.index());
                assertTrue(PtxOpcodes.isOpcode(in.opcode()));
                assertFalse(in.text().isEmpty() || in.text().endsWith(";"), in.text());
                if (in.loc() != null) {
                    seenLoc = true;
                    assertFalse(in.loc().file().startsWith("<file"), "file resolved through .file: " + in.loc());
                } else {
                    assertFalse(seenLoc && f.entry(), "instruction after a .loc without a location: " + in.text());
                }
                for (Operand o : in.operands()) checkOperand(o, f);
            }
            for (int target : f.labels().values()) assertTrue(target >= 0 && target <= f.instructions().size());
        }
    }

    private static void checkOperand(Operand o, Function f) {
        if (o instanceof Operand.Label l) {
            assertTrue(l.target() >= 0 && l.target() <= f.instructions().size(), "label " + l);
        } else if (o instanceof Operand.Vector v) {
            v.elements().forEach(e -> checkOperand(e, f));
        } else if (o instanceof Operand.ParenList pl) {
            pl.elements().forEach(e -> checkOperand(e, f));
        } else if (o instanceof Operand.Pair pr) {
            checkOperand(pr.first(), f);
            checkOperand(pr.second(), f);
        } else if (o instanceof Operand.Address a && a.base() != null) {
            checkOperand(a.base(), f);
        } else if (o instanceof Operand.Reg r) {
            assertEquals(r.reg(), f.registers().get(r.reg().index()));
        } else if (o instanceof Operand.Symbol s) {
            assertNotNull(s.name());
        }
    }
}
