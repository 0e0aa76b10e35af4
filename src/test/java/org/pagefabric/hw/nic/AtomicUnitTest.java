package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The atomic unit's order: a word's atomics one after another, other words' atomics at once. */
class AtomicUnitTest {
    @Test
    void anAtomicWaitsOnlyForEarlierAtomicsOnItsWord() {
        AtomicUnit unit = new AtomicUnit();
        assertEquals(100, unit.admit(0, 1, 8, 100));
        assertEquals(110, unit.admit(10, 1, 16, 100), "another word of the same process starts on arrival");
        assertEquals(120, unit.admit(20, 2, 8, 100), "the same address of another process is another word");
        assertEquals(200, unit.admit(30, 1, 8, 100), "the same word waits for the atomic before it");
        assertEquals(300, unit.admit(40, 1, 8, 100), "and for every one queued on it");
    }

    @Test
    void finishedAtomicsLeaveTheUnit() {
        AtomicUnit unit = new AtomicUnit();
        for (int i = 0; i < 20; i++) {
            unit.admit(0, i, 0, 100);
        }
        assertEquals(20, unit.inFlight());
        assertEquals(200, unit.admit(100, 0, 0, 100), "a word whose atomic is done starts at once");
        assertEquals(1, unit.inFlight(), "the finished ones are gone");
    }
}
