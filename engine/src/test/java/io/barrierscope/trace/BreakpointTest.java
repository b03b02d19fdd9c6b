package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BreakpointTest {
    @Test
    void aPtxLineBreakpointStopsBeforeTheInstruction() {
        Breakpoint b = Breakpoint.parse("line:42");
        assertEquals(Breakpoint.Kind.LINE, b.kind);
        assertEquals(42, b.line);
        assertTrue(b.stopsBefore());
    }

    @Test
    void aCudaLineBreakpointNamesItsFile() {
        Breakpoint b = Breakpoint.parse("line:kernel.cu:17,warp=3");
        assertEquals(Breakpoint.Kind.CUDA_LINE, b.kind);
        assertEquals("kernel.cu", b.file);
        assertEquals(17, b.line);
        assertEquals(3, b.warp);
    }

    @Test
    void eventBreakpointsTakeTheirArgumentsAndConditions() {
        assertEquals(1, Breakpoint.parse("barrier:1").barrierId);
        assertEquals(-1, Breakpoint.parse("barrier").barrierId);
        Breakpoint m = Breakpoint.parse("mbarrier:full,phase=3,cta=1,cluster=0,hits=2");
        assertEquals("full", m.variable);
        assertEquals(3, m.phase);
        assertEquals(1, m.cta);
        assertEquals(0, m.cluster);
        assertEquals(2, m.hitTarget);
        assertEquals(List.of("cluster=0", "cta=1", "phase=3", "hits=2"), m.conditions());
        assertEquals(0x18, Breakpoint.parse("tx-zero:0x18").offset);
        assertEquals(5, Breakpoint.parse("arrive,thread=5").thread);
        assertEquals("mbarrier-stale-token", Breakpoint.parse("diagnostic:mbarrier-stale-token").code);
        assertEquals(Breakpoint.Kind.PARK, Breakpoint.parse("park").kind);
        assertEquals(Breakpoint.Kind.DEADLOCK, Breakpoint.parse("deadlock").kind);
        assertEquals(Breakpoint.Kind.WAIT_FALSE, Breakpoint.parse("wait-false,warp=0").kind);
    }

    @Test
    void badSpecsAreRefusedWithAMessage() {
        for (String bad : new String[] {"", "line", "line:x", "line:0", "barrier:16", "frobnicate", "park:3", "arrive,warp",
                "arrive,warp=-1", "arrive,colour=red", "diagnostic:no-such-code", "park,phase=2", "mbarrier:full,hits=0"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse(bad), bad);
            assertTrue(e.getMessage().contains("breakpoint") || e.getMessage().contains("empty"), e.getMessage());
        }
    }

    @Test
    void aSpecOfOnlyACommaIsRefusedWithItsPositionNotACrash() {
        String e = assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse(",")).getMessage();
        assertTrue(e.contains("at character 1"), e);
        assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse(",,"));
        assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("barrier,"));
    }

    @Test
    void numbersAreRangeCheckedBeforeNarrowingToInt() {
        String e = assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("barrier,cta=4294967297")).getMessage();
        assertTrue(e.contains("at character 13") && e.contains("cta 4294967297 is outside"), e);
        e = assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("line:4294967338")).getMessage();
        assertTrue(e.contains("line 4294967338 is outside"), e);
        assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("hits=1,hits=99999999999999999999999"));
        assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("barrier,hits=99999999999999999999999"));
    }

    @Test
    void nonAsciiDigitsAreRefusedAtTheirCharacter() {
        String e = assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("line:4\u0662")).getMessage();
        assertTrue(e.contains("at character 7"), e);
        assertThrows(IllegalArgumentException.class, () -> Breakpoint.parse("barrier,warp=+1"));
    }
}
