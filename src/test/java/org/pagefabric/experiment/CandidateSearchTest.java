package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * The search over a parameter a workload leaves to the experiment layer, on dht-insert's
 * {@code onload_cores: best}: stopping hopeless candidates picks what an exhaustive search
 * picks, and the row is the chosen value's own row with the parameter as given.
 */
class CandidateSearchTest {
    private static final Profile CRAY = ProfileRegistry.load("aa-crayxe6");
    private static final Workload DHT = WorkloadRegistry.standard().byName("dht-insert");

    private static Map<String, Object> params(long processes, long perNode, double collisions, long inserts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("scheme", "am-onload");
        p.put("processes", processes);
        p.put("processes_per_node", perNode);
        p.put("collision_rate", collisions);
        p.put("volume_elements", 4096L);
        p.put("iterations", inserts);
        p.put("onload_cores", "best");
        return DHT.resolve(p);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void stoppingLosingCandidatesPicksWhatTheExhaustiveSearchPicks(long seed) {
        Map<String, Object> p = params(32, 8, 0.05 * seed, 30 + 10 * seed);
        SearchedParameter s = DHT.search(p);
        CandidateSearch.Choice all = CandidateSearch.search(CRAY, "pin-all", DHT, p, seed, s, false);
        CandidateSearch.Choice cut = CandidateSearch.search(CRAY, "pin-all", DHT, p, seed, s, true);
        assertEquals(all.value(), cut.value(), "same argmax over C");
        assertEquals(all.metric(), cut.metric(), "the winner ran to its end");
        assertEquals(0, all.cutTrials());
        assertTrue(cut.cutTrials() > 0, "some of the 7 candidates were hopeless before their end");
    }

    @Test
    void theRowIsTheChosenValuesOwnRowWithTheParameterAsGiven() {
        Map<String, Object> p = params(8, 4, 0.05, 20);
        Map<String, Object> row = CandidateSearch.row(CRAY, "pin-all", DHT, p, 1);
        long best = (Long) row.get("best_onload_cores");
        assertTrue(best >= 1 && best <= 3, row.toString());
        assertEquals(0L, row.get("onload_cores"), "best is stored as 0");
        double bestRate = (Double) row.get("inserts_per_s");
        for (long c = 1; c <= 3; c++) {
            Map<String, Object> q = new LinkedHashMap<>(p);
            q.put("onload_cores", c);
            Map<String, Object> one = PointRun.run(CRAY, "pin-all", DHT, q, 1);
            assertTrue((Double) one.get("inserts_per_s") <= bestRate, "C=" + c + " is no faster than the choice");
            if (c == best) {
                one.put("onload_cores", 0L);
                one.put("best_onload_cores", best);
                assertEquals(one, row, "every other column is the chosen C's own run");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void theChoicesRowFromTheSearchIsTheRowOfItsValueRunAlone(long seed) {
        Map<String, Object> p = params(16, 4 + 4 * (seed % 2), 0.04 * seed, 20 + 7 * seed);
        CandidateSearch.Choice c = CandidateSearch.search(CRAY, "pin-all", DHT, p, seed, DHT.search(p), true);
        Map<String, Object> alone = new LinkedHashMap<>(p);
        alone.put("onload_cores", c.value());
        assertEquals(PointRun.run(CRAY, "pin-all", DHT, alone, seed), c.row());
    }

    @Test
    void aPointWithoutASearchIsOneRun() {
        Map<String, Object> p = new LinkedHashMap<>(params(8, 4, 0.05, 20));
        p.put("scheme", "rma");
        assertEquals(PointRun.run(CRAY, "pin-all", DHT, p, 3), CandidateSearch.row(CRAY, "pin-all", DHT, p, 3));
    }
}
