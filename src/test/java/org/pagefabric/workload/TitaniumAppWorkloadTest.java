package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/**
 * The Titanium applications: put counts follow from the algorithms' communication, puts are
 * classified by what the policy did for them, every put is delivered, and runs repeat exactly.
 */
class TitaniumAppWorkloadTest {
    private static final Profile PROFILE = ProfileRegistry.load("firehose-myrinet");
    private static final Workload APP = WorkloadRegistry.standard().byName("titanium-app");

    private static Map<String, Object> run(String policy, String app, double scale) {
        return PointRun.run(PROFILE, policy, APP, Map.of("app", app, "problem_scale", scale), 1);
    }

    private static long count(Map<String, Object> row, String metric) {
        return ((Number) row.get(metric)).longValue();
    }

    @Test
    void fullProblemsIssueTheTablesPutCounts() {
        // Cannon: 10 remote block transfers of N/Q rows per multiplication.
        assertEquals(1_500_000, 10 * (CannonApp.N / CannonApp.Q) * CannonApp.MULTIPLICATIONS);
        // Bitonic: 6 exchange steps x 8 nodes x the puts of one local array.
        long perStep = Math.ceilDiv(BitonicApp.PER_NODE * Integer.BYTES, BitonicApp.PUT_BYTES);
        assertEquals(2_125_008, 6 * BitonicApp.NODES * perStep);
    }

    @Test
    void cannonPutsFollowTheMultiplications() {
        Map<String, Object> one = run("pin-all", "cannon", 1.0 / CannonApp.MULTIPLICATIONS);
        Map<String, Object> two = run("pin-all", "cannon", 2.0 / CannonApp.MULTIPLICATIONS);
        assertEquals(5000, count(one, "puts_total"));
        assertEquals(10000, count(two, "puts_total"));
        assertEquals(4, APP.ranks(APP.resolve(Map.of("app", "cannon"))));
        assertEquals(Boolean.TRUE, one.get("verified"));
        assertTrue((Double) two.get("runtime_s") > (Double) one.get("runtime_s"));
    }

    @Test
    void bitonicRunsOnEightNodesWithSixExchangesOfTheArray() {
        double scale = 0.002;
        Map<String, Object> row = run("firehose", "bitonic", scale);
        long perNode = Math.round(BitonicApp.PER_NODE * scale);
        long perStep = Math.ceilDiv(perNode * Integer.BYTES, BitonicApp.PUT_BYTES);
        assertEquals(8, APP.ranks(APP.resolve(Map.of("app", "bitonic"))));
        assertEquals(6 * 8 * perStep, count(row, "puts_total"));
        assertEquals(Boolean.TRUE, row.get("verified"));
    }

    @Test
    void putTypesComeFromThePolicy() {
        double scale = 2.0 / CannonApp.MULTIPLICATIONS;
        Map<String, Object> pinAll = run("pin-all", "cannon", scale);
        Map<String, Object> unpin = run("rendezvous-unpin", "cannon", scale);
        Map<String, Object> firehose = run("firehose", "cannon", scale);
        for (Map<String, Object> r : new Map[] {pinAll, unpin, firehose}) {
            assertEquals(count(r, "puts_total"), count(r, "puts_handshake") + count(r, "puts_onesided"));
            assertEquals(Boolean.TRUE, r.get("verified"));
        }
        assertEquals(0, count(pinAll, "puts_handshake"));
        assertEquals(count(unpin, "puts_total"), count(unpin, "puts_handshake"));
        // Firehose: a put misses only on buckets it has no firehose to yet, so the second
        // multiplication hits where the first moved, and every miss sends a move.
        long moves = count(firehose, "moves");
        assertTrue(count(firehose, "puts_handshake") > 0 && count(firehose, "puts_onesided") > 0);
        assertTrue(moves >= count(firehose, "puts_handshake"));
        assertTrue((Double) firehose.get("put_latency_handshake_us") > (Double) firehose.get("put_latency_onesided_us"));
        assertTrue((Double) firehose.get("move_time_us") > (Double) firehose.get("move_handler_us"));
        assertTrue((Double) firehose.get("am_round_trip_us") > 0);
        assertNull(pinAll.get("move_time_us"));
    }

    @Test
    void firehoseHitsMoreAsTheSameBuffersAreReused() {
        Map<String, Object> one = run("firehose", "cannon", 1.0 / CannonApp.MULTIPLICATIONS);
        Map<String, Object> four = run("firehose", "cannon", 4.0 / CannonApp.MULTIPLICATIONS);
        assertEquals(count(one, "moves"), count(four, "moves"), "later multiplications find every firehose mapped");
        assertTrue((Double) four.get("puts_onesided_pct") > (Double) one.get("puts_onesided_pct"));
    }

    @Test
    void quicksortComparisonsAreTheExpectedCountForRandomKeys() {
        assertEquals(0, BitonicApp.quicksortComparisons(1), 1e-9);
        assertEquals(1, BitonicApp.quicksortComparisons(2), 1e-9);
        assertEquals(8.0 / 3, BitonicApp.quicksortComparisons(3), 1e-9);
        // about 1.39 n log2 n for large n, above the n log2 n - 1.44 n lower bound of any comparison sort
        double n = 1 << 20;
        double c = BitonicApp.quicksortComparisons(1 << 20);
        assertTrue(c > n * 20 - 1.443 * n && c < 1.39 * n * 20, String.valueOf(c));
    }

    @Test
    void computationIsChargedFromTheProblemSizeAndTheProfile() {
        double scale = 0.002;
        Map<String, Object> row = run("pin-all", "bitonic", scale);
        long perNode = Math.round(BitonicApp.PER_NODE * scale);
        double compare = PROFILE.time(org.pagefabric.hw.param.CpuParameters.SORT_COMPARE);
        double expected = (Math.round(BitonicApp.quicksortComparisons(perNode) * compare) + 6 * perNode * compare)
                / org.pagefabric.sim.Time.S;
        assertEquals(expected, (Double) row.get("compute_s"), 1e-3);
        assertTrue((Double) row.get("runtime_s") > (Double) row.get("compute_s"), "communication adds to computation");
        Map<String, Object> one = run("pin-all", "cannon", 1.0 / CannonApp.MULTIPLICATIONS);
        Map<String, Object> two = run("pin-all", "cannon", 2.0 / CannonApp.MULTIPLICATIONS);
        long b = CannonApp.N / CannonApp.Q;
        double madd = PROFILE.time(org.pagefabric.hw.param.CpuParameters.MULTIPLY_ADD);
        // per rank and multiplication at least the Q partial products of b x b blocks
        assertTrue((Double) one.get("compute_s") >= CannonApp.Q * b * b * b * madd / org.pagefabric.sim.Time.S);
        assertEquals(2 * (Double) one.get("compute_s"), (Double) two.get("compute_s"), 2e-3);
    }

    @Test
    void sameSeedSameRow() {
        assertEquals(run("firehose", "bitonic", 0.001), run("firehose", "bitonic", 0.001));
    }

    @Test
    void badParametersAreRefusedWithTheValidValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> APP.resolve(Map.of("app", "fft")));
        assertTrue(e.getMessage().contains("cannon, bitonic"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> APP.resolve(Map.of("problem_scale", 0)));
        assertThrows(IllegalArgumentException.class, () -> APP.resolve(Map.of("problem_scale", "1.5")));
    }
}
