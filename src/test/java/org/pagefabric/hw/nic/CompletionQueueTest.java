package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.net.CompletionStatus;

class CompletionQueueTest {
    private static WorkCompletion wc(long id) {
        return new WorkCompletion(id, Opcode.RDMA_WRITE, CompletionStatus.SUCCESS, 8, 1, 0, 0);
    }

    @Test
    void fifoWithBoundedDepthAndCountedOverruns() {
        CompletionQueue cq = new CompletionQueue("cq", 2);
        assertFalse(cq.notEmpty().isDone());
        assertTrue(cq.push(wc(1)));
        assertTrue(cq.notEmpty().isDone());
        assertTrue(cq.push(wc(2)));
        assertFalse(cq.push(wc(3)));
        assertEquals(1, cq.overruns());
        assertEquals(1, cq.poll().wrId());
        assertTrue(cq.notEmpty().isDone(), "still an entry");
        assertEquals(2, cq.poll().wrId());
        assertFalse(cq.notEmpty().isDone(), "re-armed when empty");
        assertNull(cq.poll());
    }

    @Test
    void depthMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new CompletionQueue("cq", 0));
    }

    @Test
    void workRequestShapesAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new WorkRequest(1, Opcode.ATOMIC_FETCH_AND_ADD, 0, 4, 0, 0, 0, 0, 0, true));
        assertThrows(IllegalArgumentException.class, () -> WorkRequest.write(1, 0, -1, 0, 0, 0));
        assertEquals(8, WorkRequest.fetchAndAdd(1, 0, 0, 0, 0, 5).length());
    }
}
