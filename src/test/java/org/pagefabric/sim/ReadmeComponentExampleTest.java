package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;

/**
 * The README's "Writing a model on the kernel" example, compiled and run. The body of
 * {@link #example()} between its first and last statement is the README's {@code java} block,
 * line for line ({@code ReadmeCommandsTest} checks that the README still holds the same text).
 */
class ReadmeComponentExampleTest {

    /** The README's code, as it stands there; it prints what a reader would see. */
    static void example() {
        Simulator sim = new Simulator(42);                      // the master seed: same seed, same run

        class Nic extends Component {                           // an event-driven state machine
            final Counter packets = counter("packets", "count", "packets received");
            long lastArrival;

            Nic(Simulator s) {
                super(s, "nic");                                // a stable name keys its random stream and statistics
            }

            @Override
            public void handle(int type, long arg) {            // one event: what happened (type) and a payload (arg)
                packets.increment();
                lastArrival = sim.now();
            }
        }
        Nic nic = new Nic(sim);

        new SimProcess(sim, "rank0", ctx -> {                   // sequential code that waits in simulated time
            for (int i = 0; i < 3; i++) {
                sim.schedule(2 * Time.US, Band.HARDWARE, nic, 0, 4096);   // a packet that lands 2 us from now
                ctx.sleep(10 * Time.US);                        // then compute for 10 us
            }
        }).start();

        sim.run();
        System.out.println(nic.packets.value() + " packets, the last at " + Time.format(nic.lastArrival));
        System.out.println(sim.summary());                      // events, wall time, events per second
    }

    @Test
    void printsThePacketsAndTheRunSummary() {
        String[] lines = capture().split("\n");
        assertEquals(2, lines.length, String.join("\n", lines));
        // Sent at 0, 10 and 20 us, each 2 us in flight.
        assertEquals("3 packets, the last at 22.000 us", lines[0]);
        assertTrue(lines[1].matches("\\d+ events in .* wall \\(.* events/s\\), 30\\.000 us simulated .*"), lines[1]);
    }

    /** What {@link #example()} prints. */
    private static String capture() {
        PrintStream was = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            example();
        } finally {
            System.setOut(was);
        }
        return bytes.toString(StandardCharsets.UTF_8).strip();
    }
}
