package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Per-component random streams: a function of (master seed, name) only. */
class RandomStreamTest {

    static final class Node extends Component {
        Node(Simulator sim, String name) {
            super(sim, name);
        }

        Node(Simulator sim, Component parent, String name) {
            super(sim, parent, name);
        }

        @Override
        public void handle(int type, long arg) {
        }
    }

    private static long[] draw(RandomStream r, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.nextLong();
        }
        return out;
    }

    @ParameterizedTest(name = "master seed {0}")
    @ValueSource(longs = {0, 1, 42, -7, Long.MIN_VALUE})
    void componentStreamDependsOnlyOnMasterSeedAndName(long seed) {
        // Simulation A: just the NIC. Simulation B: other components built first, drawing
        // before, during and after the NIC does. The NIC must see the same numbers.
        Simulator a = new Simulator(seed);
        Node nicA = new Node(a, new Node(a, "node12"), "nic");
        long[] expected = draw(nicA.random(), 200);

        Simulator b = new Simulator(seed);
        Node other = new Node(b, "node7");
        draw(other.random(), 13);
        Node node12 = new Node(b, "node12");
        draw(node12.random(), 5);
        Node nicB = new Node(b, node12, "nic");
        long[] actual = new long[200];
        for (int i = 0; i < 200; i++) {
            actual[i] = nicB.random().nextLong();
            other.random().nextInt(10);
            if (i % 3 == 0) {
                node12.random().nextDouble();
            }
        }
        assertArrayEquals(expected, actual);
        assertEquals(RandomStream.deriveSeed(seed, "node12.nic"), nicB.random().seed());
        assertSame(nicB.random(), nicB.random(), "one stream per component, not a fresh one per call");
        assertArrayEquals(draw(new RandomStream(RandomStream.deriveSeed(seed, "node12.nic")), 200),
                draw(b.randomStream("node12.nic"), 200));
    }

    @Test
    void differentNamesAndSeedsGiveDifferentStreams() {
        Set<Long> seeds = new HashSet<>();
        Set<Long> firstValues = new HashSet<>();
        String[] names = {"node1", "node2", "node10", "node1.nic", "node1.nic.qp0", "node1.nic.qp1", "a", "b", ""};
        for (long master : new long[] {0, 1, 2, 1L << 32, -1}) {
            for (String name : names) {
                long s = RandomStream.deriveSeed(master, name);
                seeds.add(s);
                firstValues.add(new RandomStream(s).nextLong());
            }
        }
        assertEquals(5 * names.length, seeds.size());
        assertEquals(5 * names.length, firstValues.size());
    }

    @Test
    void similarNamesAreUncorrelated() {
        // Neighbouring names must not give neighbouring seeds: check the bit difference of
        // adjacent node names is about half of 64 on average.
        long totalBits = 0;
        int n = 1000;
        for (int i = 0; i < n; i++) {
            totalBits += Long.bitCount(RandomStream.deriveSeed(1, "node" + i) ^ RandomStream.deriveSeed(1, "node" + (i + 1)));
        }
        double mean = totalBits / (double) n;
        assertTrue(mean > 29 && mean < 35, "mean differing bits " + mean);
    }

    /** Regression guard: values computed once from the specified algorithm. */
    @Test
    void deriveSeedIsStable() {
        assertEquals(0x78bc762f9ad5c5c6L, RandomStream.deriveSeed(0, "node0"));
        assertEquals(0x7c8955cfd97114c4L, RandomStream.deriveSeed(42, "node12.nic.qp3"));
        assertEquals(0x5cf67d5aceb89e03L, RandomStream.deriveSeed(-1, ""));
        assertEquals(0x37fb81d186631dbdL, RandomStream.deriveSeed(42, "nœud"), "names hash as UTF-8");
        assertEquals(2989314340460998074L, new RandomStream(RandomStream.deriveSeed(42, "node12.nic.qp3")).nextLong());
    }

    /** An independent implementation of the documented algorithm: FNV-1a, then SplitMix64. */
    @ParameterizedTest
    @ValueSource(strings = {"", "x", "node0", "node12.nic.qp3", "rack[3].node-7_b", "nœud"})
    void deriveSeedFollowsTheDocumentedAlgorithm(String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        for (long master : new long[] {0, 99, Long.MAX_VALUE}) {
            assertEquals(RandomStream.mix64(RandomStream.mix64(master) ^ h), RandomStream.deriveSeed(master, name));
        }
    }

    @Test
    void mix64IsTheSplitMix64Finalizer() {
        // SplitMix64 seeded with 0 first outputs mix64(golden gamma) = 0xe220a8397b1dcdaf, a
        // published test vector; and 0 is a fixed point of the finalizer.
        assertEquals(0xe220a8397b1dcdafL, RandomStream.mix64(0x9E3779B97F4A7C15L));
        assertEquals(0L, RandomStream.mix64(0));
    }

    @Test
    void streamIsSplittableRandomWithThatSeed() {
        RandomStream r = new RandomStream(123);
        SplittableRandom s = new SplittableRandom(123);
        assertEquals(123, r.seed());
        for (int i = 0; i < 100; i++) {
            assertEquals(s.nextLong(), r.nextLong());
            assertEquals(s.nextInt(17), r.nextInt(17));
            assertEquals(s.nextLong(1_000_000_007L), r.nextLong(1_000_000_007L));
            assertEquals(s.nextDouble(), r.nextDouble());
        }
    }

    @Test
    void distributionsStayInRangeAndHaveTheRightMean() {
        RandomStream r = new RandomStream(5);
        double sum = 0;
        int n = 200_000;
        long mean = 250 * Time.NS;
        for (int i = 0; i < n; i++) {
            long x = r.nextExponential(mean);
            assertTrue(x >= 0);
            sum += x;
            int k = r.nextInt(3);
            assertTrue(k >= 0 && k < 3);
            double d = r.nextDouble();
            assertTrue(d >= 0 && d < 1);
        }
        assertEquals(mean, sum / n, mean * 0.01);
        int trues = 0;
        for (int i = 0; i < 10_000; i++) {
            assertFalse(r.nextBoolean(0));
            assertTrue(r.nextBoolean(1));
            if (r.nextBoolean(0.25)) {
                trues++;
            }
        }
        assertEquals(2_500, trues, 150);
        assertEquals(0, r.nextExponential(0));
    }

    @Test
    void nextBooleanAtTheExtremesDoesNotDraw() {
        // p = 0 and p = 1 consume no randomness, so adding a certain or impossible branch to a
        // model does not shift the component's later numbers.
        RandomStream a = new RandomStream(9);
        RandomStream b = new RandomStream(9);
        a.nextBoolean(0);
        a.nextBoolean(1);
        assertEquals(b.nextLong(), a.nextLong());
        assertNotEquals(new RandomStream(9).nextLong(), new RandomStream(10).nextLong());
    }
}
