package org.pagefabric.hw.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.Completion;

/** Queueing, priorities, preemption, context switches, polling and busy time of a core. */
class CoreTest {
    private final Simulator sim = new Simulator(11);
    private final List<String> log = new ArrayList<>();
    /** Logs "name@time" for continuations; type indexes {@link #names}. */
    private final List<String> names = new ArrayList<>();
    private final EventHandler recorder = (type, arg) -> log.add(names.get(type) + "@" + sim.now());

    private static CpuCosts costs(long contextSwitch, long entry, long delivery, long idleExit, long pollIteration) {
        return new CpuCosts(contextSwitch, entry, delivery, idleExit, pollIteration);
    }

    private int tag(String name) {
        names.add(name);
        return names.size() - 1;
    }

    private void at(long time, Runnable action) {
        sim.schedule(time - sim.now(), (t, a) -> action.run(), 0, 0);
    }

    @Test
    void busyCoreDelaysLaterWorkAndRecordsQueueDelay() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        CpuThread a = cpu.thread("a", 0);
        a.run(100, recorder, tag("first"), 0);
        a.run(50, recorder, tag("second"), 0);
        at(120, () -> a.run(10, recorder, tag("third"), 0));
        sim.run();
        assertEquals(List.of("first@100", "second@150", "third@160"), log);
        Core core = cpu.core(0);
        assertEquals(3, core.queueDelay().count());
        assertEquals(0, core.queueDelay().min());
        assertEquals(160, core.busyPs());
        assertTrue(core.isIdle());
        assertEquals(0, core.queued());
    }

    @Test
    void queueDelayIsMeasuredFromSubmissionToStart() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        CpuThread a = cpu.thread("a", 0);
        a.run(1_000_000, recorder, tag("long"), 0);
        a.run(10, recorder, tag("short"), 0);
        sim.run();
        assertEquals(2, cpu.core(0).queueDelay().count());
        assertEquals(1_000_000, cpu.core(0).queueDelay().max(), 1_000);
        assertEquals(0, cpu.core(0).queueDelay().min());
    }

    @Test
    void contextSwitchIsChargedOnlyWhenTheThreadChanges() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(7, 0, 0, 0, 10));
        CpuThread a = cpu.thread("a", 0);
        CpuThread b = cpu.thread("b", 0);
        a.run(100, recorder, tag("a1"), 0);
        a.run(100, recorder, tag("a2"), 0);
        b.run(100, recorder, tag("b1"), 0);
        a.run(100, recorder, tag("a3"), 0);
        sim.run();
        // The first run switches in from idle; a2 follows a1 in the same thread and pays nothing.
        assertEquals(List.of("a1@107", "a2@207", "b1@314", "a3@421"), log);
        assertEquals(3, cpu.core(0).contextSwitches());
    }

    @Test
    void interruptPreemptsThreadAndTaskletRunsBeforeTheThreadResumes() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(5, 10, 0, 0, 10));
        Core core = cpu.core(0);
        CpuThread a = cpu.thread("a", 0);
        CpuThread b = cpu.thread("b", 0);
        Tasklet tasklet = cpu.tasklet("bottom", 0, (t, arg) -> 30, recorder, tag("tasklet"));
        int irqTag = tag("irq");
        EventHandler irqDone = (t, arg) -> {
            recorder.handle(irqTag, arg);
            tasklet.schedule(0);
        };
        a.run(1000, recorder, tag("a"), 0);
        at(100, () -> {
            core.submit(Core.INTERRUPT, null, 50, null, irqDone, 0, 0, null);
            b.run(20, recorder, tag("b"), 0);
        });
        sim.run();
        // a: switch 0..5, runs 5..100 (95 done), suspended; irq 100..160 (entry 10 + 50);
        // tasklet 160..190; a resumes without a switch with 905 left: 190..1095; b switches: 1120.
        assertEquals(List.of("irq@160", "tasklet@190", "a@1095", "b@1120"), log);
        assertEquals(1, core.preemptions(), "suspended once; the tasklet is queued while the thread waits");
        assertEquals(1, core.interruptsTaken());
        assertEquals(1, core.taskletRuns());
        assertEquals(2, core.contextSwitches());
    }

    @Test
    void queuedWorkRunsByClassInterruptsThenTaskletsThenThreads() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        Core core = cpu.core(0);
        CpuThread a = cpu.thread("a", 0);
        a.run(10, recorder, tag("busy"), 0);
        // All queued while the core is busy with a thread item of the same class.
        a.run(10, recorder, tag("t1"), 0);
        core.submit(Core.TASKLET, null, 10, null, recorder, tag("s1"), 0, null);
        a.run(10, recorder, tag("t2"), 0);
        core.submit(Core.TASKLET, null, 10, null, recorder, tag("s2"), 0, null);
        sim.run();
        // The tasklets preempt the first thread item at time 0 (it has not progressed).
        assertEquals(List.of("s1@10", "s2@20", "busy@30", "t1@40", "t2@50"), log);
    }

    @Test
    void interruptsDoNotPreemptInterrupts() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        Core core = cpu.core(0);
        core.submit(Core.INTERRUPT, null, 100, null, recorder, tag("i1"), 0, null);
        at(10, () -> core.submit(Core.INTERRUPT, null, 100, null, recorder, tag("i2"), 0, null));
        sim.run();
        assertEquals(List.of("i1@100", "i2@200"), log);
        assertEquals(0, core.preemptions());
    }

    @Test
    void workBodyDecidesTheCostWhenTheWorkStarts() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        CpuThread a = cpu.thread("a", 0);
        long[] queuedFaults = {1};
        Tasklet tasklet = cpu.tasklet("drain", 0, (t, arg) -> {
            long n = queuedFaults[0];
            queuedFaults[0] = 0;
            return 100 * n;
        }, recorder, tag("drained"));
        a.run(50, recorder, tag("a"), 0);
        // Scheduled at 0 while the thread runs: preempts it and drains the one fault there is.
        tasklet.schedule(0);
        at(5, () -> queuedFaults[0] += 2);
        sim.run();
        assertEquals(List.of("drained@100", "a@150"), log);
        assertEquals(2, queuedFaults[0], "faults queued after the tasklet started wait for another run");
    }

    @Test
    void taskletScheduledWhilePendingRunsOnceAndWhileRunningRunsAgain() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        Tasklet tasklet = cpu.tasklet("t", 0, (t, arg) -> 100, recorder, tag("run"));
        assertTrue(tasklet.schedule(0));
        // The tasklet started at once (idle core); it is running, not pending, so this queues a run.
        assertTrue(tasklet.schedule(0));
        assertFalse(tasklet.schedule(0), "pending: coalesced");
        sim.run();
        assertEquals(List.of("run@100", "run@200"), log);
        assertEquals(2, tasklet.scheduledRuns());
        assertEquals(1, tasklet.coalesced());
    }

    @Test
    void idleExitIsChargedOnlyWhenTheCoreWasIdle() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 3, 10));
        CpuThread a = cpu.thread("a", 0);
        a.run(10, recorder, tag("x"), 0);
        a.run(10, recorder, tag("y"), 0);
        at(100, () -> a.run(10, recorder, tag("z"), 0));
        sim.run();
        assertEquals(List.of("x@13", "y@23", "z@113"), log);
        assertEquals(23 + 13, cpu.core(0).busyPs());
    }

    @Test
    void completionContinuationCarriesTheValue() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        Completion done = new Completion("done");
        cpu.thread("a", 0).run(40, done, 77);
        sim.run();
        assertTrue(done.isDone());
        assertEquals(77, done.value());
        assertEquals(40, sim.now());
    }

    @Test
    void continuationSubmittingToItsOwnCoreCompetesByPriority() {
        Cpu cpu = new Cpu(sim, "cpu", 1, costs(0, 0, 0, 0, 10));
        Core core = cpu.core(0);
        CpuThread a = cpu.thread("a", 0);
        int thenTag = tag("tasklet");
        a.run(10, recorder, tag("queued-thread"), 0);
        core.submit(Core.INTERRUPT, null, 10, null,
                (t, arg) -> core.submit(Core.TASKLET, null, 10, null, recorder, thenTag, 0, null), 0, 0, null);
        sim.run();
        assertEquals(List.of("tasklet@20", "queued-thread@30"), log);
    }

    @Test
    void threadsArePinnedToTheirCore() {
        Cpu cpu = new Cpu(sim, "cpu", 2, costs(0, 0, 0, 0, 10));
        CpuThread a = cpu.thread("a", 0);
        assertThrows(IllegalArgumentException.class,
                () -> cpu.core(1).submit(Core.THREAD, a, 10, null, null, 0, 0, null));
        assertThrows(IllegalArgumentException.class,
                () -> cpu.core(1).submit(Core.THREAD, null, 10, null, null, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> a.run(-1, recorder, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> cpu.core(2));
    }

    @Test
    void busyCoresDoNotDelayOtherCores() {
        Cpu cpu = new Cpu(sim, "cpu", 2, costs(0, 0, 0, 0, 10));
        cpu.thread("a", 0).run(100, recorder, tag("a"), 0);
        cpu.thread("b", 1).run(30, recorder, tag("b"), 0);
        sim.run();
        assertEquals(List.of("b@30", "a@100"), log);
        assertEquals(0.0, cpu.core(1).busyLevel().level());
    }
}
