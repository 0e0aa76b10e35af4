package org.pagefabric.workload.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sparse memory against a {@link HashMap}: seeded random reads, writes and
 * read-modify-writes through one found slot, over addresses that crowd a few cells' fields
 * together (so that cell-grouped placement collides and grows), then a full scan.
 */
class CellMapPropertyTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 17, 4242})
    void behavesAsAMapOfWordsDefaultingToZero(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        CellMap m = new CellMap();
        Map<Long, Long> ref = new HashMap<>();
        long cells = 1 + rnd.nextInt(5000);
        for (int step = 0; step < 40_000; step++) {
            long address = rnd.nextLong(cells) << 2 | rnd.nextInt(4);
            long value = rnd.nextInt(3) == 0 ? 0 : rnd.nextLong();
            switch (rnd.nextInt(4)) {
                case 0 -> assertEquals(ref.getOrDefault(address, 0L), m.get(address), "read " + address);
                case 1 -> {
                    m.put(address, value);
                    ref.put(address, value);
                }
                case 2 -> {
                    // a compare-and-swap, as the volume does it: one slot for the read and the write
                    int slot = m.slot(address);
                    long old = m.valueAt(slot);
                    assertEquals(ref.getOrDefault(address, 0L), old, "cas read " + address);
                    if (old == 0) {
                        m.putAt(slot, address, value);
                        ref.put(address, value);
                    }
                }
                default -> {
                    int slot = m.slot(address);
                    long old = m.valueAt(slot);
                    m.putAt(slot, address, old + 1);
                    ref.put(address, ref.getOrDefault(address, 0L) + 1);
                }
            }
        }
        assertEquals(ref.size(), m.size());
        Map<Long, Long> scanned = new HashMap<>();
        m.forEach((a, v) -> {
            assertEquals(null, scanned.put(a, v), "address " + a + " scanned twice");
            return 0;
        });
        assertEquals(ref, scanned);
    }
}
