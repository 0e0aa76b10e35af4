package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Simulator;

class ProcessImplTest {
    @Test
    void parsesTheNamesOfThePropertyInAnyCase() {
        assertEquals(ProcessImpl.CONTINUATION, ProcessImpl.parse("continuation"));
        assertEquals(ProcessImpl.THREAD, ProcessImpl.parse(" Thread "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProcessImpl.parse("fiber"));
        assertTrue(e.getMessage().contains("fiber"));
    }

    @Test
    void continuationsAreTheDefaultWhenTheJvmExportsThem() {
        // Surefire passes --add-exports java.base/jdk.internal.vm=ALL-UNNAMED.
        assertTrue(ProcessImpl.continuationsAvailable());
        String old = System.getProperty(ProcessImpl.PROPERTY);
        try {
            System.clearProperty(ProcessImpl.PROPERTY);
            assertEquals(ProcessImpl.CONTINUATION, ProcessImpl.selected());
            System.setProperty(ProcessImpl.PROPERTY, "thread");
            assertEquals(ProcessImpl.THREAD, ProcessImpl.selected());
            SimProcess p = new SimProcess(new Simulator(1), "p", ctx -> { });
            assertEquals(ProcessImpl.THREAD, p.impl());
            assertTrue(p.coroutine() instanceof ThreadHandoffCoroutine);
        } finally {
            if (old == null) {
                System.clearProperty(ProcessImpl.PROPERTY);
            } else {
                System.setProperty(ProcessImpl.PROPERTY, old);
            }
        }
    }

    @Test
    void aContinuationResumeAllocatesNothingInSteadyState() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Simulator sim = new Simulator(1);
        Completion c = new Completion("cq");
        Hardware hw = new Hardware(sim, "hw", c::complete);
        new SimProcess(sim, null, "p", ProcessImpl.CONTINUATION, ctx -> {
            while (true) {
                ctx.sleep(1);
                c.reset();
                hw.post(1, 0);
                ctx.await(c);
            }
        }).start();
        sim.runUntil(200_000); // warm-up: stack chunk sized, code compiled
        long resumes = 100_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        sim.runUntil(sim.now() + 2 * resumes);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        SimProcess.closeAll(sim);
        assertTrue(allocated < resumes / 10, allocated + " bytes allocated over " + resumes + " resumes");
    }
}
