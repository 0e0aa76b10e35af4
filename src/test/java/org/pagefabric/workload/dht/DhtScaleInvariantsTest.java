package org.pagefabric.workload.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * What the hashtable's speed-ups rely on: the bounds an AM-Onload run gives the search over C
 * (which {@code CandidateSearchTest} checks against an exhaustive search) never exceed the run's
 * real end, and a hashtable experiment's rows are the same bytes whatever the thread count.
 */
class DhtScaleInvariantsTest {
    private static final Profile CRAY = ProfileRegistry.load("aa-crayxe6");
    private static final DhtInsertWorkload DHT = (DhtInsertWorkload) WorkloadRegistry.standard().byName(DhtInsertWorkload.NAME);

    private static Map<String, Object> params(long processes, long perNode, double collisions, long inserts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("processes", processes);
        p.put("processes_per_node", perNode);
        p.put("collision_rate", collisions);
        p.put("volume_elements", 4096L);
        p.put("iterations", inserts);
        p.put("onload_cores", "best");
        p.put("scheme", "am-onload");
        return DHT.resolve(p);
    }

    private static Job job(Map<String, Object> p, long seed) {
        RegistrationPolicy pol = PolicyRegistry.standard().create("pin-all", CRAY);
        return new Job(new Simulator(seed), CRAY, DHT.nodes(p), DHT.segmentBytes(p), pol, false);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void theBoundsOnTheEndNeverExceedTheEnd(long c) {
        Map<String, Object> p = params(40, 8, 0.1 * c, 60);
        Job j = job(p, c);
        DhtScheme scheme = DhtInsertWorkload.newScheme(j, DHT.descriptor().values(p));
        DhtInsertWorkload.Outcome o = DHT.launch(j, DHT.descriptor().values(p), scheme, c);
        Simulator sim = j.simulator();
        long[] bounds = new long[200];
        int n = 0;
        for (long t = o.start + 200 * Time.NS; !o.finished() && sim.pendingEvents() > 0 && n < bounds.length;
             t += 200 * Time.NS) {
            sim.runUntil(t);
            long unstarted = o.mostUnstartedInserts();
            bounds[n++] = Math.max(sim.now() + unstarted * scheme.minInsertPs(o.dht),
                    scheme.appliedNoEarlierThan(o.dht.unapplied()));
        }
        sim.run();
        assertTrue(o.verified());
        assertTrue(n > 3, "the run was observed in several slices");
        assertTrue(scheme.minInsertPs(o.dht) > 0);
        for (int i = 0; i < n; i++) {
            assertTrue(bounds[i] <= o.end(), "bound " + bounds[i] + " ps after slice " + i + " exceeds the end "
                    + o.end() + " ps");
        }
    }

    @Test
    void theLossDeadlineIsWhereTheRateFallsToTheBest() {
        Map<String, Object> p = params(16, 4, 0.05, 10);
        Job j = job(p, 1);
        Params values = DHT.descriptor().values(p);
        DhtInsertWorkload.Outcome o = DHT.launch(j, values, DhtInsertWorkload.newScheme(j, values), 2);
        double best = 3.0e7;
        long deadline = DhtInsertWorkload.lossDeadline(o, best, false);
        long span = deadline - o.start;
        assertTrue(o.rateAtSpan(span) <= best, "at the deadline the run cannot beat the best");
        assertTrue(o.rateAtSpan(span - 2) > best, "just before it, it still could");
        assertEquals(Time.NEVER, DhtInsertWorkload.lossDeadline(o, Double.MIN_VALUE, false), "unreachable deadline");
        long strict = DhtInsertWorkload.lossDeadline(o, best, true) - o.start;
        assertTrue(o.rateAtSpan(strict) < best, "a smaller C must be strictly slower to lose");
    }

    @Test
    void hashtableRowsAreTheSameBytesWithOneAndTwoThreads() {
        ExperimentSpec spec = SpecReader.parse("dht-threads.yaml", """
                id: test.dht
                title: hashtable rows and threads
                workload: dht-insert
                policies: [pin-all]
                profile: aa-crayxe6
                seed: 5
                repetitions: 2
                grid:
                  processes: 24
                  processes_per_node: 6
                  collision_rate: [0.05, 0.3]
                  volume_elements: 1024
                  iterations: 25
                  onload_cores: best
                  scheme: [rma, am-exp, am-onload, am-ints]
                """, null);
        ExperimentResult one = ExperimentRunner.run(spec, new ExperimentRunner.Options(1, false, false, Map.of()));
        ExperimentResult two = ExperimentRunner.run(spec, new ExperimentRunner.Options(2, false, false, Map.of()));
        assertEquals(ResultWriter.csv(one.rows()), ResultWriter.csv(two.rows()));
        assertTrue(one.allVerified());
    }
}
