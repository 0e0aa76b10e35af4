package org.pagefabric.hw.pcie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/** Cost arithmetic of posted and non-posted transactions, and contention per direction. */
class PcieLinkTest {
    /** 1 GB/s makes one byte take exactly 1000 ps, so expected times read as byte counts. */
    private static final PcieCosts COSTS = new PcieCosts(1_000_000_000L, 100_000, 24, 256, 512, 50_000, 20_000);

    private final Simulator sim = new Simulator(1);
    private final List<String> log = new ArrayList<>();
    private final EventHandler recorder = (type, arg) -> log.add(arg + "@" + sim.now());

    @Test
    void postedWriteCostsSerializationOfPayloadAndHeadersPlusLatency() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        assertEquals(280_000 + 100_000, link.writeLatencyPs(0, 256));
        assertEquals(305_000 + 100_000, link.writeLatencyPs(0, 257), "one byte more costs a whole TLP header");
        assertEquals(279_000 + 100_000, link.writeLatencyPs(0, 255));
        link.dmaWrite(0, 257, recorder, 0, 1);
        sim.run();
        assertEquals(List.of("1@405000"), log);
        assertEquals(2, link.tlps(PcieLink.UPSTREAM));
        assertEquals(305, link.wireBytes(PcieLink.UPSTREAM));
        assertEquals(0, link.tlps(PcieLink.DOWNSTREAM));
    }

    @Test
    void readNeedsARoundTripAndCompletionsComeBackInMaxPayloadChunks() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        // One 24-byte request (24 ns) + 100 ns flight + 50 ns completer, then two 256-byte
        // completions (560 ns) + 100 ns flight.
        assertEquals(834_000, link.readLatencyPs(0, 512));
        // 513 bytes: two requests, three completions.
        assertEquals(24_000 + 100_000 + 50_000 + (513 + 3 * 24) * 1000L + 100_000, link.readLatencyPs(0, 513));
        link.dmaRead(0, 512, recorder, 0, 2);
        sim.run();
        assertEquals(List.of("2@834000"), log);
        assertEquals(1, link.tlps(PcieLink.UPSTREAM));
        assertEquals(2, link.tlps(PcieLink.DOWNSTREAM));
    }

    @Test
    void completionsNeverSpanTwoReadRequests() {
        PcieCosts smallRequests = new PcieCosts(1_000_000_000L, 100_000, 24, 256, 64, 50_000, 20_000);
        PcieLink link = new PcieLink(sim, "pcie", smallRequests);
        // 16 requests of 64 bytes: completions of 64 bytes each; the first is ready at 174 ns,
        // 16 completions of 88 bytes take 1408 ns: the completion stream dominates.
        assertEquals(174_000 + 1_408_000 + 100_000, link.readLatencyPs(0, 1024));
        link.dmaRead(0, 1024, recorder, 0, 3);
        sim.run();
        assertEquals(List.of("3@1682000"), log);
        assertEquals(16, link.tlps(PcieLink.DOWNSTREAM));
    }

    @Test
    void transactionsOnOneDirectionSerialize() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        link.dmaWrite(0, 4096, recorder, 0, 1);
        link.dmaWrite(8192, 4096, recorder, 0, 2);
        sim.run();
        long burst = (4096 + 16 * 24) * 1000L;
        assertEquals(List.of("1@" + (burst + 100_000), "2@" + (2 * burst + 100_000)), log);
        assertEquals(2 * burst, link.busyPs(PcieLink.UPSTREAM));
    }

    @Test
    void directionsDoNotContendWithEachOther() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        link.dmaWrite(0, 256, recorder, 0, 1);
        link.mmioWrite(0, 256, recorder, 0, 2);
        sim.run();
        assertEquals(List.of("1@380000", "2@380000"), log);
    }

    @Test
    void readCompletionsContendWithHostWritesDownstream() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        link.dmaRead(0, 512, recorder, 0, 1);
        // Completions occupy downstream from 174 ns to 734 ns; a doorbell at 200 ns waits.
        sim.schedule(200_000, (t, a) -> link.mmioWrite(0, 8, recorder, 0, 2), 0, 0);
        sim.run();
        assertEquals(List.of("1@834000", "2@" + (734_000 + 32_000 + 100_000)), log);
    }

    @Test
    void mmioReadUsesTheDeviceCompleter() {
        PcieLink link = new PcieLink(sim, "pcie", COSTS);
        link.mmioRead(0, 4, recorder, 0, 9);
        sim.run();
        assertEquals(List.of("9@" + (24_000 + 100_000 + 20_000 + 28_000 + 100_000)), log);
        assertEquals(1, link.tlps(PcieLink.UPSTREAM));
        assertEquals(1, link.tlps(PcieLink.DOWNSTREAM));
    }

    @Test
    void fractionalRatesRoundUpAndBadParametersAreRefused() {
        PcieLink link = new PcieLink(sim, "pcie", new PcieCosts(3_000_000_000L, 0, 0, 256, 512, 0, 0));
        assertEquals(334, link.serializationPs(1));
        assertEquals(333_334, link.serializationPs(1000));
        assertThrows(IllegalArgumentException.class, () -> new PcieCosts(1, 0, 0, 255, 512, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new PcieCosts(0, 0, 0, 256, 512, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> link.dmaRead(0, 0, recorder, 0, 0));
    }
}
