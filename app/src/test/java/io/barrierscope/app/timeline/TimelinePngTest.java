package io.barrierscope.app.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The PNG export of the timeline in a real (headless) stage over a real recording. */
@ExtendWith(ApplicationExtension.class)
class TimelinePngTest {
    private TimelineView view;

    @Start
    void start(Stage stage) {
        TimelineViewModel vm = new TimelineViewModel(new Recorded("block-reduce").model);
        view = new TimelineView(vm);
        stage.setScene(new Scene(view, 1000, 420));
        stage.show();
    }

    @Test
    void exportsAPngOfTheSizeAskedThatIsNotBlank(@TempDir Path dir) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        Path out = dir.resolve("timeline.png");
        AtomicReference<Exception> failure = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> {
            try {
                TimelinePng.write(view, 800, 300, out);
            } catch (Exception e) {
                failure.set(e);
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
        if (failure.get() != null) throw failure.get();
        BufferedImage img = ImageIO.read(out.toFile());
        assertEquals(800, img.getWidth());
        assertEquals(300, img.getHeight());
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 3) for (int x = 0; x < img.getWidth(); x += 3) colours.add(img.getRGB(x, y));
        assertTrue(colours.size() > 5, "distinct colours: " + colours.size());
        // the state colours of the lanes are there (running green, CTA barrier orange)
        assertTrue(colours.stream().anyMatch(c -> near(c, 0x43a047)), "running");
        assertTrue(colours.stream().anyMatch(c -> near(c, 0xfb8c00)), "waiting at the CTA barrier");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary files left behind");
        }
    }

    private static boolean near(int argb, int rgb) {
        int d = 0;
        for (int s = 0; s < 24; s += 8) d += Math.abs(((argb >> s) & 0xff) - ((rgb >> s) & 0xff));
        return d < 24;
    }
}
