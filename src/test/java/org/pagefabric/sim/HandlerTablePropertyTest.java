package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Handler ids through the recent-handler cache against a plain identity map that assigns ids in
 * order of first sight: seeded random sequences over more handlers than the cache holds, so
 * that entries collide and are replaced.
 */
class HandlerTablePropertyTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 99, 2024})
    void idsAreAssignedInOrderOfFirstSightAndNeverChange(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int count = 1 + rnd.nextInt(4 * HandlerTable.CACHE);
        List<EventHandler> handlers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // plain handlers go through the cache, frequent ones keep their id themselves
            handlers.add(i % 3 == 0 ? new FrequentHandler() {
                @Override
                public void handle(int type, long arg) {
                }
            } : (type, arg) -> { });
        }
        HandlerTable table = new HandlerTable();
        Map<EventHandler, Integer> ref = new IdentityHashMap<>();
        for (int step = 0; step < 20_000; step++) {
            // mostly a few hot handlers, as devices alternate, sometimes any
            EventHandler h = handlers.get(rnd.nextInt(4) == 0 ? rnd.nextInt(count) : rnd.nextInt(Math.min(count, 3)));
            int expected = ref.computeIfAbsent(h, k -> ref.size() + 1);
            int id = table.idOf(h);
            assertEquals(expected, id, "step " + step);
            assertSame(h, table.get(id));
        }
    }

    @org.junit.jupiter.api.Test
    void aFrequentHandlerOnTwoSimulatorsHasEachOnesId() {
        FrequentHandler f = new FrequentHandler() {
            @Override
            public void handle(int type, long arg) {
            }
        };
        HandlerTable first = new HandlerTable();
        HandlerTable second = new HandlerTable();
        first.idOf((type, arg) -> { });
        first.idOf((type, arg) -> { });
        assertEquals(3, first.idOf(f));
        assertEquals(1, second.idOf(f));
        assertEquals(3, first.idOf(f));
        assertSame(f, first.get(3));
        assertSame(f, second.get(1));
    }
}
