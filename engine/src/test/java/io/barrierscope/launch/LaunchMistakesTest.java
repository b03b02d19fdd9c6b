package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes a launch file shows only against its PTX (argument sizes, cluster shape) are located in
 * the launch file with the line shown, like the reader's own (README, "Command line").
 */
class LaunchMistakesTest {
    @TempDir
    Path tmp;

    private String error(String json) throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 k_p0)\n{\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, json);
        return assertThrows(BadInputException.class, () -> LaunchValidation.validate(l).start()).getMessage();
    }

    @Test
    void anArgumentOfTheWrongSizeIsLocatedAtTheArgument() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\",\n \"args\": [\n  {\"value\": 3, \"type\": \"s32\"}]}");
        assertTrue(e.contains("launch.json:3:3: error: arg 0 is a .s32 value but parameter k_p0 has 8 bytes"), e);
        assertTrue(e.contains("\n    {\"value\": 3"), "shows the line: " + e);
    }

    @Test
    void aWrongNumberOfArgumentsIsLocatedAtTheArgs() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\",\n \"args\": []}");
        assertTrue(e.contains("launch.json:2:10: error: kernel k takes 1 parameters but the launch file gives 0 args"), e);
    }

    @Test
    void aGridThatIsNoMultipleOfTheClusterIsLocatedAtTheCluster() throws Exception {
        String e = error("{\"ptx\": \"k.ptx\", \"grid\": [3, 1, 1],\n \"cluster\": [2, 1, 1],\n"
                + " \"args\": [{\"buffer\": \"a\", \"type\": \"u32\", \"count\": 4}]}");
        assertTrue(e.contains("launch.json:2:13: error: grid (3,1,1) is not a multiple of the cluster (2,1,1)"), e);
    }
}
