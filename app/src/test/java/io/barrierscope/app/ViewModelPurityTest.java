package io.barrierscope.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ViewModels and the pure helpers they use never import {@code javafx.scene}: they are tested
 * without a toolkit, and they must never know their views (architecture.md, App).
 */
class ViewModelPurityTest {
    /** Pure classes that are not named *ViewModel. */
    private static final Set<String> PURE = Set.of("ThreadTree.java", "ThreadNode.java", "RegisterFormat.java",
            "WaitGraph.java", "Markdown.java", "SampleCatalog.java", "SampleInfo.java", "Glossary.java",
            "StateNames.java", "Panel.java", "ShownLines.java", "Place.java", "Selection.java", "Reveal.java", "Locations.java", "RecentFiles.java", "ExploreRunner.java");

    @Test
    void viewModelsAndPureHelpersImportNoSceneGraph() throws Exception {
        Path main = Path.of("src/main/java/io/barrierscope/app");
        if (!Files.isDirectory(main)) main = Path.of("app").resolve(main); // run from the repository root
        List<Path> files;
        try (Stream<Path> all = Files.walk(main)) {
            files = all.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith("ViewModel.java") || PURE.contains(n) || p.toString().contains("/session/");
            }).toList();
        }
        assertTrue(files.size() >= 25, "found " + files.size());
        for (Path f : files) {
            String text = Files.readString(f);
            assertTrue(!text.contains("import javafx.scene"), f + " imports javafx.scene");
        }
    }
}
