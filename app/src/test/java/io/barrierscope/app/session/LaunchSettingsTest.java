package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.BadInputException;
import org.junit.jupiter.api.Test;

class LaunchSettingsTest {
    @Test
    void dimsAreReadInTheUsualSpellings() {
        assertEquals(new Dim3(4, 1, 1), LaunchSettings.dim("grid", "4"));
        assertEquals(new Dim3(4, 2, 1), LaunchSettings.dim("grid", "4,2"));
        assertEquals(new Dim3(4, 2, 3), LaunchSettings.dim("grid", "4x2x3"));
        assertEquals(new Dim3(4, 2, 3), LaunchSettings.dim("grid", "(4, 2, 3)"));
        LaunchSettings s = LaunchSettings.parse("2", "128", " ", "random", "9");
        assertNull(s.cluster());
        assertEquals("grid (2,1,1), block (128,1,1), random, seed 9", s.describe());
        assertEquals("1,1,1", LaunchSettings.text(LaunchSettings.defaults().grid()));
    }

    @Test
    void badFieldsAreNamed() {
        assertTrue(assertThrows(BadInputException.class, () -> LaunchSettings.dim("block", "0")).getMessage().contains("block"));
        assertTrue(assertThrows(BadInputException.class, () -> LaunchSettings.dim("grid", "a,b")).getMessage().contains("'a'"));
        assertTrue(assertThrows(BadInputException.class, () -> LaunchSettings.parse("1", "2048", "", "round-robin", "0"))
                .getMessage().contains("at most 1024"));
        assertTrue(assertThrows(BadInputException.class, () -> LaunchSettings.parse("1", "32", "", "round-robin", "x"))
                .getMessage().contains("seed"));
    }
}
