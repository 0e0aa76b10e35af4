package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

class ReceivePollTest {
    private static final long COALESCING = 3 * Time.US;
    private static final long DELIVERY = 300 * Time.NS;
    private static final long ENTRY = 700 * Time.NS;
    private static final long FRAME = 5 * Time.US;

    private final Simulator sim = new Simulator(1);
    private final Cpu cpu = new Cpu(sim, "cpu", 2, new CpuCosts(0, ENTRY, DELIVERY, 0, 100 * Time.NS));
    private final ReceivePoll poll = new ReceivePoll(cpu, cpu.core(0), COALESCING);
    private final List<Long> done = new ArrayList<>();

    /** One frame at {@code at}, followed by an action recording when its bottom half had run. */
    private void frameAt(long at) {
        sim.schedule(at, (t, a) -> {
            poll.frame(FRAME);
            poll.after(() -> done.add(sim.now()));
        }, 0, 0);
    }

    @Test
    void anIsolatedFrameWaitsForTheCoalescingTimerAndPaysAnInterrupt() {
        frameAt(0);
        sim.run();
        assertEquals(List.of(COALESCING + DELIVERY + ENTRY + FRAME), done);
    }

    @Test
    void framesArrivingWhileThePollHasWorkJoinItWithoutAnotherInterrupt() {
        frameAt(0);
        frameAt(Time.US); // during the coalescing delay
        frameAt(COALESCING + DELIVERY + ENTRY + FRAME + Time.US); // while the second frame's bottom half runs
        sim.run();
        long start = COALESCING + DELIVERY + ENTRY;
        assertEquals(List.of(start + FRAME, start + 2 * FRAME, start + 3 * FRAME), done);
    }

    @Test
    void aFrameAfterThePollDrainedWaitsAgain() {
        frameAt(0);
        long second = 100 * Time.US;
        frameAt(second);
        sim.run();
        long oneFrame = COALESCING + DELIVERY + ENTRY + FRAME;
        assertEquals(List.of(oneFrame, second + oneFrame), done);
    }
}
