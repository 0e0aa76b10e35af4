package org.pagefabric.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.WorkCompletion;

/** An application reads the NIC's completion status one for one, and the view shows the last entry reaped. */
class OutcomeTest {
    @Test
    void everyStatusHasTheOutcomeOfItsName() {
        assertEquals(CompletionStatus.values().length, Outcome.values().length);
        for (CompletionStatus s : CompletionStatus.values()) {
            Outcome o = Outcome.of(s);
            assertEquals(s.name(), o.name());
            assertEquals(s == CompletionStatus.SUCCESS, o.ok(), s.name());
        }
    }

    @Test
    void theViewShowsTheEntryItWasLastFilledWith() {
        CompletionEntry c = new CompletionEntry();
        c.show(new WorkCompletion(7, Opcode.RDMA_WRITE, CompletionStatus.RETRY_EXCEEDED, 64, 3, 1_000, 0));
        assertEquals(7, c.wrId());
        assertEquals(Outcome.RETRY_EXCEEDED, c.status());
        assertEquals(false, c.ok());
        c.show(new WorkCompletion(8, Opcode.RECV, CompletionStatus.SUCCESS, 4096, 3, 2_000, 0));
        assertEquals(8, c.wrId());
        assertEquals(4096, c.bytes());
        assertEquals(2_000, c.timePs());
        assertEquals(true, c.ok());
    }
}
