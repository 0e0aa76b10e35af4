package org.pagefabric.reg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.sim.Simulator;

class PerRankTest {
    @Test
    void holdsOneStatePerRankInRankOrder() {
        JobLayout layout = new JobLayout(new Simulator(1), ProfileRegistry.load("default"), 3, 9, 1 << 16, false);
        PerRank<String> states = new PerRank<>();
        assertNull(states.get(layout.endpoint(5)));
        for (int i = 8; i >= 0; i -= 2) {
            states.put(layout.endpoint(i), "rank" + i);
        }
        assertEquals("rank6", states.get(layout.endpoint(6)));
        assertNull(states.get(layout.endpoint(7)));
        assertEquals(9, states.size());
        List<String> seen = new ArrayList<>();
        states.forEach(seen::add);
        assertEquals(List.of("rank0", "rank2", "rank4", "rank6", "rank8"), seen);
    }
}
