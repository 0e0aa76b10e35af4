package org.pagefabric.workload.dht;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.sim.RandomStream;

/** One volume: table cells, the overflow heap and its chains, overflow, the content scan. */
class VolumeTest {
    @Test
    void aFreeCellTakesOneAccessAndACollisionGoesToTheHeap() {
        Volume v = new Volume(3, 16, 4);
        long a = DhtHash.element(3, 5, 100);
        long b = DhtHash.element(3, 5, 200);
        long c = DhtHash.element(3, 5, 300);
        assertEquals(1, v.localInsert(a));
        assertEquals(5, v.localInsert(b), "first collision: cas, fao, write, replace, cas");
        assertEquals(6, v.localInsert(c), "later collisions also link the previous element");
        assertEquals(a, v.read(Volume.address(5, Volume.ELEM)));
        assertEquals(b, v.read(Volume.address(16, Volume.ELEM)), "the heap starts after the table");
        assertEquals(16, v.read(Volume.address(5, Volume.PTR)));
        assertEquals(17, v.read(Volume.address(16, Volume.PTR)), "the chain goes on to the next heap cell");
        assertEquals(2, v.collisions());
        Volume.Content content = v.content();
        assertEquals(3, content.elements());
        assertEquals(RandomStream.mix64(a) + RandomStream.mix64(b) + RandomStream.mix64(c), content.digest());
        assertEquals(0, content.misplaced());
    }

    @Test
    void aFullHeapLosesTheElementAndCountsIt() {
        Volume v = new Volume(0, 4, 1);
        v.localInsert(DhtHash.element(0, 1, 1));
        v.localInsert(DhtHash.element(0, 1, 2));
        v.localInsert(DhtHash.element(0, 1, 3));
        assertEquals(1, v.overflows());
        assertEquals(2, v.content().elements());
    }

    @Test
    void anElementOfAnotherVolumeOrCellIsMisplaced() {
        Volume v = new Volume(1, 8, 8);
        v.write(Volume.address(2, Volume.ELEM), DhtHash.element(2, 2, 7));
        v.write(Volume.address(3, Volume.ELEM), DhtHash.element(1, 4, 7));
        assertEquals(2, v.content().misplaced());
        assertNotEquals(0, v.content().digest());
    }
}
