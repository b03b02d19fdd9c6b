package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.app.session.OpenedFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The PTX pane's linked lines and reveal requests. */
class SourceLinkingTest {
    @Test
    void clicksLinksAndReveals() {
        SourceViewModel vm = new SourceViewModel();
        vm.load(new OpenedFile(Path.of("k.ptx"), "k.ptx", List.of("a", "b", "c", "d")));
        List<Integer> clicked = new ArrayList<>();
        vm.setOnLineClicked(clicked::add);
        vm.clickLine(2);
        vm.clickLine(9); // past the end: nothing
        assertEquals(List.of(2), clicked);
        assertEquals(Set.of(2), vm.linkedLinesProperty().get());
        vm.showLinked(List.of(4, 3));
        assertEquals(Set.of(3, 4), vm.linkedLinesProperty().get());
        assertEquals(3, vm.revealProperty().get().line());
        long serial = vm.revealProperty().get().serial();
        vm.reveal(3);
        assertEquals(serial + 1, vm.revealProperty().get().serial(), "asking again scrolls again");
    }
}
