package io.barrierscope.app.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.Locations;
import io.barrierscope.app.TestFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WelcomeViewModelTest {
    private static List<SampleInfo> bundled() {
        Path root = TestFiles.sample("block-reduce").getParent().getParent().getParent();
        return SampleCatalog.read(Locations.samples(root));
    }

    @Test
    void everySampleHasAOneLineDescriptionFromItsLesson() {
        List<SampleInfo> all = bundled();
        assertTrue(all.size() >= 30, "samples: " + all.size());
        SampleInfo br = all.stream().filter(s -> s.name().equals("block-reduce")).findFirst().orElseThrow();
        assertEquals("A tree reduction held together by __syncthreads()", br.description());
        for (SampleInfo s : all) {
            assertFalse(s.description().isBlank(), s.name());
            assertFalse(s.description().contains("\n"), s.name());
        }
    }

    @Test
    void descriptionsFromTitlesOrFirstSentences() {
        assertEquals("Two CTAs", SampleCatalog.describe("x", List.of("", "# x: two CTAs")));
        assertEquals("First sentence.", SampleCatalog.describe("x", List.of("first sentence. Second one.")));
        assertEquals("", SampleCatalog.describe("x", List.of()));
    }

    @Test
    void filterAndOpen() {
        WelcomeViewModel vm = new WelcomeViewModel();
        vm.setSamples(bundled());
        vm.filterProperty().set("CLUSTER");
        assertTrue(vm.samples().size() >= 2);
        assertTrue(vm.samples().stream().allMatch(s -> (s.name() + " " + s.description()).toLowerCase().contains("cluster")));
        List<Path> opened = new ArrayList<>();
        vm.setOnOpen(opened::add);
        vm.show();
        vm.open(vm.samples().get(0));
        assertEquals(List.of(vm.samples().get(0).launchFile()), opened);
        assertFalse(vm.visibleProperty().get());
    }
}
