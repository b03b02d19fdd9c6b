package io.barrierscope.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The engine never touches the UI toolkit (architecture.md): the window is one consumer among others. */
class EngineIsHeadlessTest {
    @Test
    void noEngineSourceImportsJavafxScene() throws Exception {
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            List<Path> bad = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return Files.readString(f).contains("import javafx.scene");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }).toList();
            assertEquals(List.of(), bad);
        }
    }
}
