package org.pagefabric.workload.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.SchemePoint;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.WorkloadRegistry;

/** The hashtable under every baseline scheme: correctness, scheme behaviours, determinism, scale. */
class DhtInsertWorkloadTest {
    private static final Profile CRAY = ProfileRegistry.load("aa-crayxe6");
    private static final DhtInsertWorkload DHT = (DhtInsertWorkload) WorkloadRegistry.standard().byName(DhtInsertWorkload.NAME);

    private static Map<String, Object> params(long processes, long perNode, double collisions, long table,
                                              long inserts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("processes", processes);
        p.put("processes_per_node", perNode);
        p.put("collision_rate", collisions);
        p.put("volume_elements", table);
        p.put("iterations", inserts);
        return p;
    }

    private record Ran(Simulator sim, DhtInsertWorkload.Outcome out) {
    }

    /** Runs a baseline scheme under pin-all. */
    private static Ran run(String scheme, Map<String, Object> given, long seed, long onload) {
        Map<String, Object> p = DHT.resolve(SchemePoint.with(scheme + "/pin-all", given));
        Simulator sim = new Simulator(seed);
        RegistrationPolicy pol = PolicyRegistry.standard().create("pin-all", CRAY);
        Job job = new Job(sim, CRAY, DHT.nodes(p), DHT.segmentBytes(p), pol, false);
        Params values = DHT.descriptor().values(p);
        DhtInsertWorkload.Outcome out = DHT.launch(job, values, DhtInsertWorkload.newScheme(job, values), onload);
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return new Ran(sim, out);
    }

    @ParameterizedTest
    @CsvSource({"rma,1", "rma,2", "am,1", "am,2", "am-exp,1", "am-exp,3", "am-onload,1", "am-onload,4", "am-ints,1",
        "am-ints,5"})
    void everyElementIsFoundOnceInItsVolumeAndCollisionsUseTheHeap(String policy, long seed) {
        Ran r = run(policy, params(12, 4, 0.3, 64, 40), seed, 1);
        assertTrue(r.out().verified(), policy + ": every inserted element once, in its own volume and cell");
        long heapUsed = 0;
        long elements = 0;
        for (int v = 0; v < r.out().dht.ranks(); v++) {
            Volume vol = r.out().dht.volume(v);
            heapUsed += vol.read(Volume.address(0, Volume.NEXT_FREE)) - vol.tableCells();
            elements += vol.content().elements();
        }
        assertTrue(heapUsed > 0, "collisions went to the overflow heap");
        assertEquals(r.out().inserters * 40L, elements);
    }

    @Test
    void aTooSmallHeapIsCaughtByTheVerification() {
        Map<String, Object> p = params(4, 2, 0.9, 4, 30);
        p.put("heap_elements", 1L);
        Ran r = run("rma", p, 1, -1);
        assertFalse(r.out().verified(), "lost elements must fail verification");
    }

    @Test
    void rmaCollisionsCostFiveOrSixRemoteAccessesAndMessagesOne() {
        Map<String, Object> row = SchemePoint.run(CRAY, "rma/pin-all", DHT, params(8, 4, 0.5, 1024, 50), 1);
        double rma = (Double) row.get("remote_accesses_per_insert");
        assertTrue(rma > 5 && rma <= 6, "Listing 2: 5 on a chain's first collision, 6 after; got " + rma);
        Map<String, Object> am = SchemePoint.run(CRAY, "am/pin-all", DHT, params(8, 4, 0.5, 1024, 50), 1);
        assertEquals(1.0, am.get("remote_accesses_per_insert"));
        assertTrue((Double) am.get("inserts_per_s") > 0);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void onloadHandlersRunOnlyOnTheLastCCores(long c) {
        Ran r = run("am-onload", params(16, 8, 0.1, 256, 20), 7, c);
        assertTrue(r.out().verified());
        long handled = 0;
        for (int core = 0; core < 8; core++) {
            long n = r.out().dht.handledOnCore(core);
            if (core < 8 - c) {
                assertEquals(0, n, "core " + core + " inserts and never handles");
            }
            handled += n;
        }
        assertEquals(r.out().inserters * 20L, handled);
        assertEquals(16 - 2 * c, r.out().inserters, "C cores per node do not insert");
    }

    @Test
    void exponentialBackoffDoublesOnEmptyPollsAndPollsLess() {
        Ran fixed = run("am", params(8, 4, 0.05, 256, 30), 3, -1);
        Ran exp = run("am-exp", params(8, 4, 0.05, 256, 30), 3, -1);
        long fixedPolls = ((Counter) fixed.sim().statistics().get("dht_am.polls")).value();
        long expPolls = ((Counter) exp.sim().statistics().get("dht_am.polls")).value();
        assertEquals(0, ((Counter) fixed.sim().statistics().get("dht_am.backoffDoublings")).value());
        assertTrue(((Counter) exp.sim().statistics().get("dht_am.backoffDoublings")).value() > 0);
        assertTrue(expPolls < fixedPolls, "back-off polls less: " + expPolls + " vs " + fixedPolls);
    }

    @Test
    void interruptsComeInBatches() {
        Ran r = run("am-ints", params(8, 4, 0.05, 256, 50), 3, -1);
        assertTrue(r.out().verified());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rma", "am-exp", "am-ints"})
    void sameSeedSameRow(String scheme) {
        Map<String, Object> a = SchemePoint.run(CRAY, scheme + "/pin-all", DHT, params(8, 4, 0.25, 512, 30), 11);
        Map<String, Object> b = SchemePoint.run(CRAY, scheme + "/pin-all", DHT, params(8, 4, 0.25, 512, 30), 11);
        assertEquals(a, b);
    }

    @Test
    void aPolicyWithoutTheRegistrationASchemeNeedsIsRefusedNamingTheOnesThatHaveIt() {
        PolicyRefusal e = assertThrows(PolicyRefusal.class,
                () -> SchemePoint.run(CRAY, "aa/pin-all", DHT, params(4, 2, 0, 64, 1), 1));
        assertTrue(e.getMessage().contains("aa-poll") && e.getMessage().contains("aa-sp"), e.getMessage());
        PolicyRefusal f = assertThrows(PolicyRefusal.class,
                () -> SchemePoint.run(CRAY, "rma/firehose", DHT, params(4, 2, 0, 64, 1), 1));
        assertTrue(f.getMessage().contains("needs policy pin-all"), f.getMessage());
    }

    @Test
    void anUnknownSchemeIsOneLineNamingTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemePoint.run(CRAY, "akv/pin-all", DHT, params(4, 2, 0, 64, 1), 1));
        assertEquals("scheme: 'akv' is not valid; valid values: rma, am, am-exp, am-onload, am-ints, aa", e.getMessage());
    }

    @Test
    void onloadRefusesAsManyHandlerCoresAsProcessesPerNode() {
        Map<String, Object> p = params(8, 4, 0, 64, 1);
        p.put("onload_cores", 4L);
        assertThrows(IllegalArgumentException.class, () -> SchemePoint.run(CRAY, "am-onload/pin-all", DHT, p, 1));
    }

    @Test
    void bestOnloadIsASearchTheWorkloadLeavesToTheExperiment() {
        Map<String, Object> p = DHT.resolve(SchemePoint.with("am-onload/pin-all", params(8, 4, 0.05, 256, 20)));
        SearchedParameter s = DHT.search(p);
        assertEquals("onload_cores", s.parameter());
        assertEquals(List.of(1L, 2L, 3L), s.candidates());
        assertEquals("inserts_per_s", s.metric());
        assertEquals("best_onload_cores", s.chosenColumn());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchemePoint.run(CRAY, "am-onload/pin-all", DHT, params(8, 4, 0.05, 256, 20), 1));
        assertTrue(e.getMessage().startsWith("onload_cores: best (0) is a search over every C"), e.getMessage());
        Map<String, Object> one = new LinkedHashMap<>(p);
        one.put("onload_cores", 2L);
        assertNull(DHT.search(one), "one C is one run");
        assertNull(DHT.search(DHT.resolve(SchemePoint.with("am/pin-all", params(8, 4, 0.05, 256, 20)))),
                "a scheme without handler cores ignores onload_cores");
    }

    @Test
    void aThousandNodesOfThirtyTwoBuildLightly() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        long before = rt.totalMemory() - rt.freeMemory();
        Ran r = run("rma", params(4096, 32, 0.05, 1L << 21, 2), 1, -1);
        assertTrue(r.out().verified());
        assertEquals(128, r.out().dht.cluster().size());
        long used = rt.totalMemory() - rt.freeMemory() - before;
        assertTrue(used < 1_500_000_000L, "128 nodes and 4096 volumes of 2^21 cells: " + used + " B");
    }
}
