package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launch past the emulated state's fixed budget is refused naming its parts, the limit and what
 * to shrink (docs/reliability.md, the campaign of 2026-11-29 afternoon): it said only "the launch
 * needs about 32773 MiB of emulated state; the budget is 1024 MiB".
 */
class StateBudgetMessageTest {
    @TempDir
    Path tmp;

    @Test
    void aLaunchPastTheStateBudgetIsRefusedNamingItsPartsTheLimitAndWhatToShrink() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                + "\t.local .align 4 .b8 buf[524288];\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, buf;\n\tst.local.u32 [%rd1], 1;\n\tret;\n}\n");
        Path launch = Files.writeString(tmp.resolve("launch.json"),
                "{\"ptx\": \"k.ptx\", \"grid\": [64, 1, 1], \"block\": [1024, 1, 1], \"args\": []}");
        BadInputException e = assertThrows(BadInputException.class, () -> LaunchValidation.validate(launch));
        String m = e.getMessage();
        assertTrue(m.startsWith(launch + ":1:26: error: the launch needs about 32771 MiB of emulated state: "), m);
        assertTrue(m.contains("65536 thread slots of 524"), m);
        assertTrue(m.contains(".local 524288"), m);
        assertTrue(m.contains("64 CTAs of 0 bytes of shared memory, 0 bytes of buffers; one launch may hold at most 1024 MiB, whatever the heap:"
                + " shrink the .local arrays or the threads for the debugging run"), m);
        assertEquals(1, m.lines().filter(l -> l.contains("error:")).count());
    }
}
