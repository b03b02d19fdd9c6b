package io.barrierscope.app.classroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.ThreadStatus;
import org.junit.jupiter.api.Test;

class GlossaryTest {
    @Test
    void everyTermIsOneSentenceWithItsSection() {
        for (Glossary.Term t : Glossary.ALL) {
            assertTrue(t.sentence().endsWith("."), t.name());
            assertEquals(1, t.sentence().split("\\. ").length, t.name() + " is one sentence");
            if (t.section().isEmpty()) continue; // BarrierScope's own term
            assertTrue(t.section().matches("9\\.7\\.\\d+(\\.\\d+)*"), t.section());
            assertTrue(t.tooltip().endsWith("(PTX ISA " + t.section() + ")"));
        }
        assertTrue(Glossary.PHASE.url().endsWith("#parallel-synchronization-and-communication-instructions-mbarrier-phase"));
        assertEquals("9.7.13.15.5", Glossary.find("TX-COUNT").orElseThrow().section());
    }

    @Test
    void waitingStatesAreExplained() {
        assertEquals(Glossary.PARKED, Glossary.forStatus(ThreadStatus.PARKED).orElseThrow());
        assertEquals(Glossary.WARP_SYNC, Glossary.forStatus(ThreadStatus.WARP_SYNC).orElseThrow());
        assertTrue(Glossary.forStatus(ThreadStatus.RUNNABLE).isEmpty());
        assertEquals("parked", StateNames.shortName(ThreadStatus.PARKED));
        assertTrue(StateNames.waiting(ThreadStatus.ASYNC_WAIT));
    }
}
