package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

class SimLockTest {
    private final Simulator sim = new Simulator(5);
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    private long waits() {
        return ((Counter) sim.statistics().all().stream().filter(s -> s.name().equals("lock" + SimLock.WAITS))
                .findFirst().orElseThrow()).value();
    }

    @Test
    void aThreadThatFindsTheLockHeldWaitsUntilItsHolderReleasesIt() {
        SimLock lock = new SimLock(sim, "lock");
        new SimProcess(sim, "a", ctx -> {
            lock.acquire(ctx);
            ctx.sleep(10);
            log.add("a releases at " + ctx.now());
            lock.release();
        }).start();
        new SimProcess(sim, "b", ctx -> {
            ctx.sleep(1);
            lock.acquire(ctx);
            log.add("b holds at " + ctx.now());
            lock.release();
        }).start();
        sim.run();
        assertEquals(List.of("a releases at 10", "b holds at 10"), log);
        assertEquals(1, waits());
        assertNull(lock.holder());
    }

    @Test
    void twoThreadsWaitingOnEachOtherThroughTheLockAreReportedByName() {
        SimLock lock = new SimLock(sim, "lock");
        Completion done = new Completion("what b would signal");
        new SimProcess(sim, "a", ctx -> {
            lock.acquire(ctx);
            ctx.await(done);
            lock.release();
        }).start();
        new SimProcess(sim, "b", ctx -> {
            ctx.sleep(1);
            lock.acquire(ctx);
            done.complete();
            lock.release();
        }).start();
        sim.run();
        String report = SimProcess.waitReport(sim);
        assertTrue(report.contains("a on what b would signal"), report);
        assertTrue(report.contains("b on lock, held by a"), report);
        assertEquals(1, waits());
    }

    @Test
    void releasingAFreeLockIsAnError() {
        assertThrows(IllegalStateException.class, () -> new SimLock(sim, "lock").release());
    }
}
