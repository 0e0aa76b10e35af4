package org.pagefabric.workload.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.SchemePoint;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * The Active Access hashtable (002 §4.1, Listing 3): every insert is one put that the target's
 * IOMMU logs, and the target's handler inserts it; under every notification each element ends
 * up once in its own volume, handled by its own volume's domain, even when logs fill up.
 */
class ActiveAccessDhtTest {
    private static final Profile CRAY = ProfileRegistry.load("aa-crayxe6");
    private static final DhtInsertWorkload DHT = (DhtInsertWorkload) WorkloadRegistry.standard().byName(DhtInsertWorkload.NAME);

    private static Map<String, Object> params(long processes, long perNode, double collisions, long table, long inserts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("processes", processes);
        p.put("processes_per_node", perNode);
        p.put("collision_rate", collisions);
        p.put("volume_elements", table);
        p.put("iterations", inserts);
        return p;
    }

    private record Ran(Simulator sim, DhtInsertWorkload.Outcome out, ActiveDhtScheme scheme) {
    }

    private static Ran run(Profile profile, String policy, Map<String, Object> given, long seed) {
        Map<String, Object> p = DHT.resolve(SchemePoint.with("aa/" + policy, given));
        Simulator sim = new Simulator(seed);
        RegistrationPolicy pol = PolicyRegistry.standard().create(policy, profile);
        Job job = new Job(sim, profile, DHT.nodes(p), DHT.segmentBytes(p), pol, false);
        ActiveDhtScheme scheme = (ActiveDhtScheme) DhtInsertWorkload.newScheme(job, DHT.descriptor().values(p));
        DhtInsertWorkload.Outcome out = DHT.launch(job, DHT.descriptor().values(p), scheme, -1);
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return new Ran(sim, out, scheme);
    }

    @ParameterizedTest
    @CsvSource({"aa-int,1", "aa-int,2", "aa-poll,1", "aa-poll,3", "aa-sp,1", "aa-sp,4"})
    void everyElementIsFoundOnceAndHandledByItsOwnVolumesDomain(String policy, long seed) {
        Ran r = run(CRAY, policy, params(12, 4, 0.3, 64, 40), seed);
        assertTrue(r.out().verified(), policy + ": every inserted element once, in its own volume and cell");
        assertEquals(0, r.scheme().misrouted(), "a handler only ever sees elements of its own volume");
        long total = r.out().inserters * 40L;
        long handled = 0;
        for (int v = 0; v < r.out().dht.ranks(); v++) {
            long inVolume = r.out().dht.volume(v).content().elements();
            assertEquals(inVolume, r.scheme().domain(v).handled(),
                    "volume " + v + ": its domain's handler ran once per element it holds");
            assertEquals(r.out().dht.nodeOf(v), r.scheme().channel().nodeOf(v), "the domain lives on its volume's node");
            handled += inVolume;
        }
        assertEquals(total, handled);
        assertEquals(total, r.scheme().domain(0).node().unit().logged()
                + otherNodesLogged(r), "the IOMMUs logged each put once");
        assertEquals(0, r.scheme().channel().refusedAccesses());
    }

    private static long otherNodesLogged(Ran r) {
        long n = 0;
        var seen = new java.util.IdentityHashMap<Object, Boolean>();
        seen.put(r.scheme().domain(0).node(), true);
        for (int v = 0; v < r.out().dht.ranks(); v++) {
            var an = r.scheme().domain(v).node();
            if (seen.put(an, true) == null) {
                n += an.unit().logged();
            }
        }
        return n;
    }

    @Test
    void aFullLogHoldsPutsBackWithoutLosingAny() {
        // room for two entries per log: the IOMMU applies backpressure, the owner drains, nothing is lost
        Profile tiny = CRAY.withOverrides(Map.of("aa.access_log.size", "80 B"), "test");
        Ran r = run(tiny, "aa-int", params(8, 4, 0.1, 64, 30), 5);
        assertTrue(r.out().verified());
        assertTrue(r.scheme().channel().heldBack() > 0, "small logs must have held puts back");
        assertEquals(0, r.scheme().misrouted());
    }

    @Test
    void activeAccessIssuesOneRemoteAccessPerInsertAndIsDeterministic() {
        Map<String, Object> a = SchemePoint.run(CRAY, "aa/aa-poll", DHT, params(8, 4, 0.5, 256, 50), 9);
        Map<String, Object> b = SchemePoint.run(CRAY, "aa/aa-poll", DHT, params(8, 4, 0.5, 256, 50), 9);
        assertEquals(1.0, a.get("remote_accesses_per_insert"), "Listing 3: one put per insert, collisions or not");
        assertEquals(a.get("inserts_per_s"), b.get("inserts_per_s"));
        assertEquals(Boolean.TRUE, a.get("verified"));
    }

    @Test
    void scratchpadNotificationIsNoSlowerThanPollingMemory() {
        Map<String, Object> poll = SchemePoint.run(CRAY, "aa/aa-poll", DHT, params(16, 8, 0.05, 256, 100), 2);
        Map<String, Object> sp = SchemePoint.run(CRAY, "aa/aa-sp", DHT, params(16, 8, 0.05, 256, 100), 2);
        assertTrue((Double) sp.get("inserts_per_s") >= (Double) poll.get("inserts_per_s"),
                "a 15 ns scratchpad check in place of a 70 ns memory read cannot slow handlers down");
    }

    @Test
    void extractingPayloadsCostsActiveMessagesButNotActiveAccess() {
        // 002 §5.2.1: in AM the computing processes extract each payload; in AA the IOMMU does
        Profile cheap = CRAY.withOverrides(Map.of("am.receive_overhead", "0 ns"), "test");
        Profile dear = CRAY.withOverrides(Map.of("am.receive_overhead", "1 us"), "test");
        Map<String, Object> p = params(16, 8, 0.05, 4096, 200);
        double amCheap = (Double) SchemePoint.run(cheap, "am/pin-all", DHT, p, 3).get("inserts_per_s");
        double amDear = (Double) SchemePoint.run(dear, "am/pin-all", DHT, p, 3).get("inserts_per_s");
        double aaCheap = (Double) SchemePoint.run(cheap, "aa/aa-sp", DHT, p, 3).get("inserts_per_s");
        double aaDear = (Double) SchemePoint.run(dear, "aa/aa-sp", DHT, p, 3).get("inserts_per_s");
        assertTrue(amDear < 0.8 * amCheap, "1 us per received message must slow AM down: " + amCheap + " -> " + amDear);
        assertEquals(aaCheap, aaDear, "AA never runs the AM receive path");
        assertTrue(aaDear > amDear, "with a receive path to pay, AM falls behind AA");
    }

    @Test
    void anIotlbMissCostsTheInsertsAWalkOnTheIommusPath() {
        // volumes in 2 MiB pages: 8 nodes' worth of 8 processes x 8 pages each per node; an IOTLB
        // that holds them all never walks, one of 8 entries walks on nearly every put
        Map<String, Object> p = params(16, 8, 0.05, 1L << 20, 300);
        Profile small = CRAY.withOverrides(Map.of("iommu.iotlb.l1.entries", "8", "iommu.iotlb.l1.ways", "full",
                "iommu.iotlb.l2.entries", "0"), "test");
        Profile large = CRAY.withOverrides(Map.of("iommu.iotlb.l1.entries", "512", "iommu.iotlb.l1.ways", "full",
                "iommu.iotlb.l2.entries", "0"), "test");
        double few = (Double) SchemePoint.run(small, "aa/aa-poll", DHT, p, 4).get("inserts_per_s");
        double many = (Double) SchemePoint.run(large, "aa/aa-poll", DHT, p, 4).get("inserts_per_s");
        assertTrue(many > 1.5 * few, "walks on the IOMMU's serial path must cost the inserts: " + few + " vs " + many);
    }

    @Test
    void interruptDrivenDomainsAreInterruptedOnTheirOwnersCores() {
        Ran r = run(CRAY, "aa-int", params(8, 4, 0.1, 64, 20), 6);
        for (int v = 0; v < r.out().dht.ranks(); v++) {
            var d = r.scheme().domain(v);
            assertEquals(r.out().dht.coreOf(v), d.interruptCore(), "volume " + v + "'s interrupt core");
        }
    }
}
