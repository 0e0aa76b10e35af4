package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Outcome;
import org.pagefabric.sim.Time;

class CheckedTransfersTest {
    @Test
    void cleanTransfersVerifyAndGiveTheirRate() {
        CheckedTransfers t = new CheckedTransfers(1000, 2, "delivered wrong bytes");
        t.timed(Time.US, Outcome.SUCCESS);
        t.timed(Time.US, Outcome.SUCCESS);
        assertTrue(t.verified());
        assertNull(t.failure());
        assertEquals(1e9, t.bytesPerSecond(), 1e-3, "2000 B in 2 us");
    }

    @Test
    void theFirstErrorIsNamedAndExplainedBeforeAnyCorruption() {
        CheckedTransfers t = new CheckedTransfers(64, 3, "delivered wrong bytes");
        t.timed(10, Outcome.SUCCESS);
        t.corrupted();
        t.timed(10, Outcome.LOCAL_PROTECTION_ERROR);
        t.timed(10, Outcome.RETRY_EXCEEDED);
        assertFalse(t.verified());
        assertEquals("2 of 3 transfers completed with LOCAL_PROTECTION_ERROR: the NIC refused the local buffer,"
                + " not in memory the policy registered", t.failure());
    }

    @Test
    void corruptionAloneSaysWhatItMeansInTheWorkload() {
        CheckedTransfers t = new CheckedTransfers(64, 4, "after fork delivered wrong bytes");
        t.timed(10, Outcome.SUCCESS);
        t.corrupted();
        assertEquals(1, t.corruptedCount());
        assertEquals("1 of 4 transfers after fork delivered wrong bytes", t.failure());
    }
}
