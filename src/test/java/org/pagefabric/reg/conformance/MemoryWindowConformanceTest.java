package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * What revoking a memory window guarantees, under odp-windows revoking after every transfer: once
 * the LOCAL_INV of a window has completed, no access through that window's key succeeds. Random
 * sequences (fixed seeds) of puts of random ranges, each through a window bound for it and
 * revoked after it; then a put through the last window's key, its revocation completed: it is
 * refused with a remote access error, counted as a refused window access, and the target's
 * bytes are unchanged.
 */
class MemoryWindowConformanceTest {
    private static final Profile PROFILE = Conformance.profile("default")
            .withOverrides(Map.of("odp.mw.revoke_every", "1"), "conformance test");
    private static final long SEGMENT = 1 << 20;
    private static final long AREA = 256 << 10;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noAccessThroughAWindowSucceedsOnceItsInvalidationCompleted(long seed) {
        Simulator sim = new Simulator(seed);
        Job job = new Job(sim, PROFILE, 2, SEGMENT, PolicyRegistry.standard().create("odp-windows", PROFILE));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        SplittableRandom random = new SplittableRandom(seed);
        int steps = 1 + random.nextInt(6);
        Outcome[] last = new Outcome[1];
        long[] digests = new long[2];
        int[] completed = {0};
        new SimProcess(sim, a.node(), "puts", ctx -> {
            int key = 0;
            long to = 0;
            long len = 0;
            for (int i = 0; i < steps; i++) {
                to = random.nextLong(AREA / Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE + random.nextLong(64);
                len = 1 + random.nextLong(3 * Kernel.PAGE_SIZE);
                a.node().kernel().writeTag(a.process(), a.segment(), len, 100 + i, 0);
                key = a.policy().remote(ctx, a.endpoint(), b.endpoint(), b.segment() + to, len).key();
                a.write(ctx, b, 0, to, len, i);
                if (a.awaitSend(ctx).status() == Outcome.SUCCESS) {
                    completed[0]++;
                }
            }
            digests[0] = b.node().kernel().digest(b.process(), b.segment(), AREA + 4 * Kernel.PAGE_SIZE);
            a.node().kernel().writeTag(a.process(), a.segment(), len, 999, 0);
            long localVa = a.segment();
            a.endpoint().trackSend(99, b.endpoint(), localVa, b.segment() + to, len);
            a.endpoint().qp(b.id()).postSend(WorkRequest.write(99, localVa, len, a.endpoint().segmentRegion().lkey(),
                    b.segment() + to, key));
            last[0] = a.awaitSend(ctx).status();
            digests[1] = b.node().kernel().digest(b.process(), b.segment(), AREA + 4 * Kernel.PAGE_SIZE);
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(steps, completed[0], "every put through a freshly bound window completed");
        assertEquals(Outcome.REMOTE_ACCESS_ERROR, last[0], "a put through a revoked window's key");
        assertEquals(digests[0], digests[1], "the refused put changed nothing at the target");
        assertEquals(1, b.node().nic().windowRefusals(), "the refusal is counted");
        assertTrue(b.node().nic().refusedTotal() >= 1);
    }
}
