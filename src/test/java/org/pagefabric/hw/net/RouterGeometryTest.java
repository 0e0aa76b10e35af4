package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Sizes, cabling and minimal deterministic routing of every router geometry, without a simulator. */
class RouterGeometryTest {
    @ParameterizedTest(name = "{0} with {1} nodes: {2} routers, diameter {3}")
    @CsvSource({
            "torus3d, 8, 8, 3", "torus3d, 9, 12, 3", "torus3d, 27, 27, 3", "torus3d, 1024, 1100, 15",
            "torus3d, 32768, 32768, 48",
            "torus5d, 8, 8, 3", "torus5d, 1024, 1024, 10",
            "hypercube, 5, 8, 3", "hypercube, 1024, 1024, 10",
            "long-hop, 8, 8, 2", "long-hop, 1024, 1024, 5",
            "dragonfly, 6, 6, 3", "dragonfly, 8, 4, 1", "dragonfly, 72, 36, 3", "dragonfly, 1024, 256, 3",
            "flattened-butterfly, 8, 4, 2", "flattened-butterfly, 1024, 99, 2", "flattened-butterfly, 3, 2, 1",
            "fat-tree, 2, 5, 4", "fat-tree, 3, 4, 2", "fat-tree, 16, 20, 4", "fat-tree, 1024, 320, 4",
    })
    void sizeFollowsTheConstruction(String kind, int nodes, int routers, int diameter) {
        RouterGeometry g = Topologies.geometry(kind, nodes);
        assertEquals(nodes, g.nodes());
        assertEquals(routers, g.routers(), g.shape());
        assertEquals(diameter, g.diameter(), g.shape());
    }

    @Test
    void torusShapesAreNearCubic() {
        assertArrayEquals(new int[] {11, 10, 10}, Torus.fitting("torus3d", 1024, 3).dims());
        assertArrayEquals(new int[] {3, 2, 2}, Torus.fitting("torus3d", 9, 3).dims());
        assertArrayEquals(new int[] {2, 2, 2, 1, 1}, Torus.fitting("torus5d", 8, 5).dims());
        assertArrayEquals(new int[] {4, 4, 4, 4, 4}, Torus.fitting("torus5d", 1024, 5).dims());
    }

    @Test
    void longHopAddsLongLinksToTheHypercube() {
        BinaryCayleyGraph cube = BinaryCayleyGraph.hypercube(1024);
        BinaryCayleyGraph lh = BinaryCayleyGraph.longHop(1024);
        assertEquals(10, cube.degree(0));
        assertEquals(20, lh.degree(0));
        assertEquals(cube.routers(), lh.routers());
        assertTrue(lh.diameter() < cube.diameter(), "long hops shorten the worst route: " + lh.diameter());
        for (int g : Arrays.copyOf(lh.generators(), 10)) {
            assertEquals(1, Integer.bitCount(g), "the hypercube's unit generators come first");
        }
    }

    @Test
    void unknownTopologyNamesTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Topologies.geometry("torus4d", 8));
        assertEquals("unknown topology 'torus4d'; valid: torus3d, torus5d, hypercube, dragonfly,"
                + " flattened-butterfly, long-hop, fat-tree", e.getMessage());
    }

    static Stream<Arguments> smallInstances() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (String kind : Topologies.ROUTED) {
            for (int n : new int[] {2, 3, 8, 13, 27, 50, 64, 100}) {
                b.add(Arguments.of(kind, n));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} with {1} nodes")
    @MethodSource("smallInstances")
    void everyCableHasItsWayBack(String kind, int nodes) {
        RouterGeometry g = Topologies.geometry(kind, nodes);
        for (int r = 0; r < g.routers(); r++) {
            for (int p = 0; p < g.degree(r); p++) {
                int n = g.neighbor(r, p);
                assertTrue(n >= 0 && n < g.routers() && n != r, kind + " router " + r + " port " + p + " -> " + n);
                int back = 0;
                for (int q = 0; q < g.degree(n); q++) {
                    back += g.neighbor(n, q) == r ? 1 : 0;
                }
                assertEquals(1, back, kind + ": router " + n + " has one port back to " + r);
            }
        }
    }

    @ParameterizedTest(name = "{0} with {1} nodes")
    @MethodSource("smallInstances")
    void everyPairIsRoutedOnAShortestPath(String kind, int nodes) {
        RouterGeometry g = Topologies.geometry(kind, nodes);
        int longest = 0;
        for (int src = 0; src < nodes; src++) {
            int[] dist = shortest(g, g.routerOf(src));
            for (int dst = 0; dst < nodes; dst++) {
                int hops = walk(g, src, dst);
                assertEquals(dist[g.routerOf(dst)], hops, kind + " " + g.shape() + ": " + src + " -> " + dst);
                longest = Math.max(longest, hops);
            }
        }
        assertTrue(longest <= g.diameter(), kind + ": a route of " + longest + " hops beyond the diameter");
    }

    static Stream<Arguments> largeInstances() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (String kind : Topologies.ROUTED) {
            for (long seed = 1; seed <= 3; seed++) {
                b.add(Arguments.of(kind, 1000 + (int) seed * 337, seed));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} with {1} nodes, seed {2}")
    @MethodSource("largeInstances")
    void randomPairsOnLargeInstancesTakeShortestPaths(String kind, int nodes, long seed) {
        RouterGeometry g = Topologies.geometry(kind, nodes);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 20; i++) {
            int src = rnd.nextInt(nodes);
            int[] dist = shortest(g, g.routerOf(src));
            for (int j = 0; j < 20; j++) {
                int dst = rnd.nextInt(nodes);
                assertEquals(dist[g.routerOf(dst)], walk(g, src, dst), kind + ": " + src + " -> " + dst);
            }
        }
    }

    /** Follows the routing decisions from src's router; checks it ends at dst's router. */
    static int walk(RouterGeometry g, int src, int dst) {
        int at = g.routerOf(src);
        int hops = 0;
        for (int p = g.nextPort(at, dst); p >= 0; p = g.nextPort(at, dst)) {
            assertTrue(p < g.degree(at), "port " + p + " of router " + at);
            at = g.neighbor(at, p);
            hops++;
            assertTrue(hops <= g.routers(), "routing loops");
        }
        assertEquals(g.routerOf(dst), at, "ejected at the wrong router");
        return hops;
    }

    /**
     * Breadth-first distances from {@code from}. For the dragonfly, minimal routing means the
     * fewest hops among paths with at most one global cable (the paper's MIN routing), so the
     * search runs over (router, global cables used).
     */
    static int[] shortest(RouterGeometry g, int from) {
        int maxGlobal = g instanceof Dragonfly ? 1 : Integer.MAX_VALUE;
        int layers = g instanceof Dragonfly ? 2 : 1;
        int[][] dist = new int[layers][g.routers()];
        for (int[] d : dist) {
            Arrays.fill(d, Integer.MAX_VALUE);
        }
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        dist[0][from] = 0;
        queue.add(new int[] {from, 0});
        while (!queue.isEmpty()) {
            int[] s = queue.poll();
            for (int p = 0; p < g.degree(s[0]); p++) {
                int used = s[1] + (g instanceof Dragonfly d && d.isGlobal(p) ? 1 : 0);
                if (used > maxGlobal) {
                    continue;
                }
                int layer = layers == 1 ? 0 : used;
                int n = g.neighbor(s[0], p);
                if (dist[layer][n] == Integer.MAX_VALUE) {
                    dist[layer][n] = dist[layers == 1 ? 0 : s[1]][s[0]] + 1;
                    queue.add(new int[] {n, layer});
                }
            }
        }
        int[] best = dist[0].clone();
        for (int l = 1; l < layers; l++) {
            for (int r = 0; r < best.length; r++) {
                best[r] = Math.min(best[r], dist[l][r]);
            }
        }
        return best;
    }
}
