package org.pagefabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The outstanding-request table keeps each request's fields by id and allocates nothing per operation. */
class OutstandingRequestsTest {
    private record Fields(Endpoint peer, long localVa, long remoteVa, long length) {
    }

    private static Endpoint endpoint(int id) {
        return new Endpoint(id, null, null, null, null, null, 4, 0, 0);
    }

    @Test
    void refusesAnIdAlreadyOutstandingAndReportsAnUnknownOne() {
        OutstandingRequests t = new OutstandingRequests();
        assertTrue(t.add(7, null, 1, 2, 3));
        assertFalse(t.add(7, null, 4, 5, 6));
        int slot = t.take(7);
        assertEquals(1, t.localVa(slot));
        assertEquals(OutstandingRequests.NONE, t.take(7));
        assertEquals(OutstandingRequests.NONE, t.find(8));
        assertEquals(0, t.size());
    }

    @Test
    void anEndpointRefusesToTrackAWorkRequestIdTwice() {
        Endpoint e = endpoint(0);
        e.trackSend(1, null, 0, 0, 8);
        assertThrows(IllegalArgumentException.class, () -> e.trackSend(1, null, 0, 0, 8));
        e.trackReceive(1, null, 0, 8);
        assertThrows(IllegalArgumentException.class, () -> e.trackReceive(1, null, 0, 8));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void agreesWithAHashMapOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Endpoint[] peers = {null, endpoint(1), endpoint(2)};
        OutstandingRequests t = new OutstandingRequests();
        Map<Long, Fields> reference = new HashMap<>();
        for (int step = 0; step < 40_000; step++) {
            // A few hundred live ids, some negative: slots are reused and the arrays grow.
            long id = rnd.nextLong(600) - 100;
            if (rnd.nextBoolean()) {
                Fields f = new Fields(peers[rnd.nextInt(3)], rnd.nextLong(), rnd.nextLong(), rnd.nextLong());
                boolean fresh = !reference.containsKey(id);
                assertEquals(fresh, t.add(id, f.peer(), f.localVa(), f.remoteVa(), f.length()));
                reference.putIfAbsent(id, f);
            } else {
                Fields f = reference.remove(id);
                int slot = t.take(id);
                if (f == null) {
                    assertEquals(OutstandingRequests.NONE, slot);
                } else {
                    assertSame(f.peer(), t.peer(slot));
                    assertEquals(f, new Fields(t.peer(slot), t.localVa(slot), t.remoteVa(slot), t.length(slot)));
                }
            }
            assertEquals(reference.size(), t.size());
        }
        reference.forEach((id, f) -> {
            int slot = t.find(id);
            assertEquals(f, new Fields(t.peer(slot), t.localVa(slot), t.remoteVa(slot), t.length(slot)));
        });
    }

    @Test
    void trackingAndReapingInSteadyStateAllocatesNothing() {
        Endpoint e = endpoint(0);
        Endpoint peer = endpoint(1);
        long sink = cycle(e, peer, 0, 200_000); // reaches the working depth and lets the JIT compile the loop
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        sink += cycle(e, peer, 200_000, 200_000);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        // A boxed key and a record per operation would be about 10 MB here; allow a little for
        // whatever the JVM itself charges to the thread.
        assertTrue(allocated < 64 * 1024, allocated + " bytes allocated by 200 000 operations (sink " + sink + ")");
    }

    /** Posts {@code n} sends, 32 in flight, reaping each in posting order as a rank does. */
    private static long cycle(Endpoint e, Endpoint peer, long firstId, int n) {
        OutstandingRequests sends = e.sends();
        long sum = 0;
        for (long id = firstId; id < firstId + n; id++) {
            e.trackSend(id, peer, id, id + 1, 64);
            if (id - firstId >= 32) {
                int slot = sends.take(id - 32);
                sum += sends.localVa(slot) + sends.length(slot);
            }
        }
        for (long id = firstId + n - 32; id < firstId + n; id++) {
            sum += sends.length(sends.take(id));
        }
        return sum;
    }
}
