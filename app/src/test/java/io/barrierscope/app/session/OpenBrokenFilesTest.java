package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's open of broken files (docs/reliability.md, the campaign of 2026-11-29 afternoon):
 * each is an open that failed with the engine's located message, as the command line's exit 2,
 * never an internal error, and the session shown stays as it was.
 */
class OpenBrokenFilesTest {
    @TempDir
    Path tmp;

    private final ArrayDeque<Runnable> loads = new ArrayDeque<>();
    private final List<Path> opened = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final DebugSession session = new DebugSession(Runnable::run, loads::add, Runnable::run, new DebugSession.Listener() {
        @Override public void opened(OpenedFile file) { opened.add(file.file()); }
        @Override public void updated(Snapshot s) { }
        @Override public void failed(String message) { failures.add(message); }
    });

    private String openFails(Path p) {
        failures.clear();
        session.open(p);
        while (!loads.isEmpty()) loads.poll().run();
        assertEquals(1, failures.size(), p + ": " + failures);
        return failures.get(0);
    }

    @Test
    void brokenPtxLaunchFilesTracesAndFoldersFailToOpenWithALocatedMessageNotAnInternalError() throws Exception {
        Path sample = TestFiles.sample("block-reduce");
        String ptx = Files.readString(sample.resolveSibling("kernel.ptx"));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("cut.ptx", ptx.substring(0, ptx.length() / 2).getBytes(StandardCharsets.UTF_8));
        files.put("empty.ptx", new byte[0]);
        files.put("junk.ptx", new byte[] {(byte) 0xff, 0, 1, 2});
        files.put("huge.ptx", (".version 8.0\n.target sm_90a\n.address_size 64\n.global .b8 big[2147483648];\n"
                + ".visible .entry k()\n{\n\tret;\n}\n").getBytes(StandardCharsets.UTF_8));
        files.put("const.ptx", (".version 8.0\n.target sm_90a\n.address_size 64\n.const .b8 c[268435456];\n"
                + ".visible .entry k()\n{\n\tret;\n}\n").getBytes(StandardCharsets.UTF_8));
        files.put("empty.json", new byte[0]);
        files.put("open.json", "{".getBytes(StandardCharsets.UTF_8));
        files.put("array.json", "[]".getBytes(StandardCharsets.UTF_8));
        files.put("noptx.json", "{\"ptx\": \"missing.ptx\", \"grid\": [1,1,1], \"block\": [32,1,1], \"args\": []}".getBytes(StandardCharsets.UTF_8));
        files.put("empty.bstrace", new byte[0]);
        files.put("junk.bstrace", "not a trace at all".getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path p = Files.write(tmp.resolve(f.getKey()), f.getValue());
            String msg = openFails(p);
            assertFalse(msg.startsWith("Internal error"), p + ": " + msg);
            assertTrue(msg.contains("error"), p + ": " + msg);
        }
        Path folder = Files.createDirectories(tmp.resolve("not-a-bundle"));
        assertTrue(openFails(folder).contains("is a folder but not a launch bundle"));
        Path launchIsFolder = Files.createDirectories(tmp.resolve("bundle/launch.json"));
        String msg = openFails(launchIsFolder.getParent());
        assertFalse(msg.startsWith("Internal error"), msg);
        assertTrue(opened.isEmpty(), "nothing opened: " + opened);
    }
}
