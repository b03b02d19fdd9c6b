package io.barrierscope.app.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecentFilesTest {
    @Test
    void newestFirstNoDuplicatesAtMostTenAndKeptAcrossRestarts(@TempDir Path tmp) {
        Path store = tmp.resolve("config/recent-files");
        RecentFiles r = RecentFiles.storedIn(store);
        for (int i = 0; i < 12; i++) r.add(tmp.resolve("f" + i + ".json"));
        r.add(tmp.resolve("f5.json"));
        assertEquals(RecentFiles.MAX, r.files().size());
        assertEquals(tmp.resolve("f5.json"), r.files().get(0));
        assertEquals(tmp.resolve("f11.json"), r.files().get(1));
        r.remove(tmp.resolve("f11.json"));
        RecentFiles again = RecentFiles.storedIn(store);
        assertEquals(r.files(), again.files());
        assertTrue(RecentFiles.inMemory().files().isEmpty());
    }
}
