package org.pagefabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/** Requests run handlers at their target and their values come back, over the simulated network. */
class ActiveMessagesTest {
    @Test
    void requestsRunHandlersRemotelyAndTakeNetworkTime() {
        Simulator sim = new Simulator(3);
        var profile = ProfileRegistry.load("default");
        Job job = new Job(sim, profile, 3, 1 << 16, new PinEverything(profile));
        ActiveMessages am = ActiveMessages.attach(job.layout());
        List<String> seen = new ArrayList<>();
        am.register(1, (ctx, target, source, a0, a1, a2, a3) -> {
            seen.add(target.id() + "<-" + source.id() + ":" + a0);
            ctx.sleep(5 * Time.US); // the handler's own work
            return a0 * 10 + target.id();
        });
        long[] got = new long[4];
        long[] took = new long[1];
        new SimProcess(sim, job.rank(0).node(), "client0", ctx -> {
            long t0 = ctx.now();
            got[0] = am.request(ctx, job.rank(0).endpoint(), job.rank(1).endpoint(), 1, 7, 0, 0, 0);
            took[0] = ctx.now() - t0;
            got[1] = am.request(ctx, job.rank(0).endpoint(), job.rank(2).endpoint(), 1, 8, 0, 0, 0);
        }).start();
        new SimProcess(sim, job.rank(2).node(), "client2", ctx -> {
            got[2] = am.request(ctx, job.rank(2).endpoint(), job.rank(0).endpoint(), 1, 9, 0, 0, 0);
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim); // the servers are daemons
        assertEquals(71, got[0]);
        assertEquals(82, got[1]);
        assertEquals(90, got[2]);
        assertTrue(seen.containsAll(List.of("1<-0:7", "2<-0:8", "0<-2:9")), seen.toString());
        assertTrue(took[0] > 5 * Time.US, "handler time plus two network crossings: " + Time.format(took[0]));
    }

    @Test
    void aJobsPolicyPartsShareOneSetAndCannotTakeEachOthersHandlers() {
        Simulator sim = new Simulator(3);
        var profile = ProfileRegistry.load("default");
        Job job = new Job(sim, profile, 2, 1 << 16, new PinEverything(profile));
        ActiveMessages am = ActiveMessages.attach(job.layout());
        assertSame(am, ActiveMessages.attach(job.layout()));
        am.register(1, (ctx, target, source, a0, a1, a2, a3) -> 0);
        am.register(2, (ctx, target, source, a0, a1, a2, a3) -> 0);
        assertThrows(IllegalStateException.class, () -> am.register(1, (ctx, target, source, a0, a1, a2, a3) -> 1));
    }

    /** Warm round trips of an empty request from rank 0 to rank 1, under {@code profile}. */
    private static long warmRoundTrip(org.pagefabric.config.Profile profile) {
        Simulator sim = new Simulator(3);
        Job job = new Job(sim, profile, 2, 1 << 16, new PinEverything(profile));
        ActiveMessages am = ActiveMessages.attach(job.layout());
        am.register(1, (ctx, target, source, a0, a1, a2, a3) -> 0);
        long[] took = new long[3];
        new SimProcess(sim, job.rank(0).node(), "client", ctx -> {
            for (int i = 0; i < took.length; i++) {
                long t0 = ctx.now();
                am.request(ctx, job.rank(0).endpoint(), job.rank(1).endpoint(), 1, 0, 0, 0, 0);
                took[i] = ctx.now() - t0;
            }
        }).start();
        sim.run();
        assertEquals(took[1], took[2], "warm round trips repeat exactly");
        return took[2];
    }

    @Test
    void eachMessageCostsTheLibraryAtBothEnds() {
        var profile = ProfileRegistry.load("default");
        long none = warmRoundTrip(profile.withOverrides(java.util.Map.of("am.message_overhead", "0us"), "test"));
        long oneUs = warmRoundTrip(profile.withOverrides(java.util.Map.of("am.message_overhead", "1us"), "test"));
        // request and reply, each sent and received: four times the overhead
        assertEquals(4 * Time.US, oneUs - none);
    }
}
