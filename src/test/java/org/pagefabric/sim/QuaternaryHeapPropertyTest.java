package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link QuaternaryHeap}, through {@link FutureEventSet}, against {@link PriorityQueue}. */
class QuaternaryHeapPropertyTest {
    record Entry(long time, long key) {
    }

    private static final Comparator<Entry> ORDER = Comparator.comparingLong(Entry::time).thenComparingLong(Entry::key);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void randomOperationsMatchPriorityQueue(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        FutureEventSet heap = new QuaternaryHeap(4); // tiny, so that it grows many times
        PriorityQueue<Entry> model = new PriorityQueue<>(ORDER);
        long nextSeq = 0;
        // Ranges vary by seed: narrow ones make many equal times, broad ones deep heaps.
        long timeRange = 1 + rnd.nextLong(seed % 2 == 0 ? 8 : 1_000_000);
        int ops = 20_000;
        int removeIfs = 0;
        for (int op = 0; op < ops; op++) {
            int r = rnd.nextInt(100);
            if (r < 50 || model.isEmpty()) {
                Entry e = entry(rnd, timeRange, nextSeq++);
                heap.add(e.time(), e.key());
                model.add(e);
            } else if (r < 75) {
                heap.removeMin();
                model.poll();
            } else if (r < 97) {
                Entry e = entry(rnd, timeRange, nextSeq++);
                heap.replaceMin(e.time(), e.key());
                model.poll();
                model.add(e);
            } else if (r < 99) {
                long m = 2 + rnd.nextInt(5);
                long k = rnd.nextLong(m);
                heap.removeIf(key -> (key & SEQ) % m == k);
                model.removeIf(e -> (e.key() & SEQ) % m == k);
                removeIfs++;
            } else {
                heap.clear();
                model.clear();
            }
            assertEquals(model.size(), heap.size(), "size after op " + op);
            assertEquals(model.isEmpty(), heap.isEmpty());
            if (!model.isEmpty()) {
                Entry min = model.peek();
                assertEquals(min, new Entry(heap.minTime(), heap.minKey()), "min after op " + op);
            }
        }
        assertTrue(removeIfs > 0);
        drainAndCompare(heap, model);
    }

    private static final long SEQ = (1L << 60) - 1;

    /** Keys carry a band in the top bits and a unique sequence below, as the kernel's do. */
    private static Entry entry(SplittableRandom rnd, long timeRange, long seq) {
        long key = ((long) rnd.nextInt(Band.COUNT) << 60) | seq;
        return new Entry(rnd.nextLong(timeRange), key);
    }

    private static void drainAndCompare(FutureEventSet heap, PriorityQueue<Entry> model) {
        List<Entry> expected = new ArrayList<>();
        while (!model.isEmpty()) {
            expected.add(model.poll());
        }
        List<Entry> actual = new ArrayList<>();
        while (!heap.isEmpty()) {
            actual.add(new Entry(heap.minTime(), heap.minKey()));
            heap.removeMin();
        }
        assertEquals(expected, actual);
    }

    @Test
    void largeBuildCompactAndDrainIsSorted() {
        SplittableRandom rnd = new SplittableRandom(99);
        FutureEventSet heap = new QuaternaryHeap();
        PriorityQueue<Entry> model = new PriorityQueue<>(ORDER);
        for (int i = 0; i < 200_000; i++) {
            Entry e = entry(rnd, 50_000, i);
            heap.add(e.time(), e.key());
            model.add(e);
        }
        // Drop 90%, as the kernel's compaction of cancelled timers does.
        heap.removeIf(key -> (key & SEQ) % 10 != 3);
        model.removeIf(e -> (e.key() & SEQ) % 10 != 3);
        assertEquals(model.size(), heap.size());
        drainAndCompare(heap, model);
    }

    @Test
    void removeIfEverythingAndNothing() {
        FutureEventSet heap = new QuaternaryHeap(4);
        for (int i = 0; i < 100; i++) {
            heap.add(100 - i, i);
        }
        heap.removeIf(key -> false);
        assertEquals(100, heap.size());
        assertEquals(1, heap.minTime());
        assertEquals(99, heap.minKey());
        heap.removeIf(key -> true);
        assertTrue(heap.isEmpty());
        heap.add(5, 42);
        assertEquals(42, heap.minKey());
    }
}
