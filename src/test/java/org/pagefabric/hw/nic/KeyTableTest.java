package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.RandomStream;

class KeyTableTest {
    private final ProtectionDomain pd = new ProtectionDomain(1, "p1");
    private final ProtectionDomain other = new ProtectionDomain(2, "p2");
    private final KeyTable keys = new KeyTable(new RandomStream(7));

    @Test
    void keysFindTheirRegionAndOnlyIt() {
        MemoryRegion a = keys.register(pd, 0x10000, 8192, AccessFlags.REMOTE_WRITE, false);
        MemoryRegion b = keys.register(pd, 0x20000, 4096, AccessFlags.REMOTE_READ, false);
        assertSame(a, keys.byLkey(a.lkey()));
        assertSame(a, keys.byRkey(a.rkey()));
        assertSame(b, keys.byRkey(b.rkey()));
        assertNull(keys.byRkey(b.lkey() == b.rkey() ? 0 : b.lkey()), "an lkey is not an rkey");
    }

    @Test
    void everyRefusalHasItsReason() {
        MemoryRegion mr = keys.register(pd, 0x10000, 8192, AccessFlags.REMOTE_WRITE, false);
        assertEquals(AccessCheck.OK, KeyTable.check(mr, pd, 0x10000, 8192, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.BAD_KEY, KeyTable.check(null, pd, 0x10000, 8, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.WRONG_PROTECTION_DOMAIN, KeyTable.check(mr, other, 0x10000, 8, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.OUT_OF_BOUNDS, KeyTable.check(mr, pd, 0x10000 + 8190, 8, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.OUT_OF_BOUNDS, KeyTable.check(mr, pd, 0xFFF8, 16, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.OUT_OF_BOUNDS, KeyTable.check(mr, pd, 0x10000, Long.MAX_VALUE, AccessFlags.REMOTE_WRITE));
        assertEquals(AccessCheck.ACCESS_DENIED, KeyTable.check(mr, pd, 0x10000, 8, AccessFlags.REMOTE_READ));
    }

    @Test
    void deregisteredKeysStopWorkingEvenWhenTheIndexIsReused() {
        MemoryRegion old = keys.register(pd, 0x10000, 4096, AccessFlags.REMOTE_WRITE, false);
        int staleRkey = old.rkey();
        keys.deregister(old);
        assertNull(keys.byRkey(staleRkey));
        assertEquals(AccessCheck.BAD_KEY, KeyTable.check(old, pd, 0x10000, 8, AccessFlags.REMOTE_WRITE));
        // Reuse the index until the random tag differs: the stale key must not reach the new region.
        for (int i = 0; i < 50; i++) {
            MemoryRegion fresh = keys.register(pd, 0x30000, 4096, AccessFlags.REMOTE_WRITE, false);
            assertEquals(old.index(), fresh.index());
            if (fresh.rkey() != staleRkey) {
                assertNull(keys.byRkey(staleRkey));
                return;
            }
            keys.deregister(fresh);
        }
        throw new AssertionError("the tag never changed in 50 registrations");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void forgedKeysAreAlmostAlwaysRefused(long seed) {
        for (int i = 0; i < 16; i++) {
            keys.register(pd, 0x10000L * (i + 1), 4096, AccessFlags.REMOTE_WRITE, false);
        }
        RandomStream attacker = new RandomStream(seed);
        int accepted = 0;
        int tries = 20_000;
        for (int i = 0; i < tries; i++) {
            int forged = (attacker.nextInt(16) << 8) | attacker.nextInt(256);
            if (keys.byRkey(forged) != null) {
                accepted++;
            }
        }
        // A random tag matches with probability 1/256 per guess; allow generous slack.
        assertTrue(accepted < tries / 100, "forged keys accepted: " + accepted);
        assertNotEquals(0, tries - accepted);
    }

    @Test
    void implicitRegionCoversTheAddressSpace() {
        MemoryRegion mr = keys.register(pd, 0, 1L << 47, AccessFlags.REMOTE_WRITE | AccessFlags.ON_DEMAND, true);
        assertTrue(mr.implicit() && mr.onDemand());
        assertEquals(AccessCheck.OK, KeyTable.check(mr, pd, 0x7fff_0000_0000L, 4096, AccessFlags.REMOTE_WRITE));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 8, 12, 16})
    void aKeyIsTheIndexAboveATagOfTheConfiguredBitsNeverZero(int bits) {
        KeyTable table = new KeyTable(new RandomStream(bits), bits);
        assertEquals(bits, table.tagBits());
        for (int i = 0; i < 200; i++) {
            MemoryRegion mr = table.register(pd, 0x10000L * (i + 1), 4096, AccessFlags.REMOTE_WRITE, false);
            for (int key : new int[] {mr.lkey(), mr.rkey()}) {
                assertEquals(mr.index(), key >>> bits, "index above the tag");
                int tag = key & ((1 << bits) - 1);
                assertTrue(bits == 0 ? tag == 0 : tag >= 1, "tag " + tag);
            }
            assertSame(mr, table.byRkey(mr.rkey()));
        }
    }

    @Test
    void tagBitsOutsideZeroToSixteenAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeyTable(new RandomStream(1), 17));
        assertThrows(IllegalArgumentException.class, () -> new KeyTable(new RandomStream(1), -1));
    }

    @Test
    void sixteenTagBitsLeaveRoomForExactlyTwoToTheSixteenRegions() {
        KeyTable table = new KeyTable(new RandomStream(3), KeyTable.MAX_TAG_BITS);
        for (int i = 0; i < 1 << KeyTable.MIN_INDEX_BITS; i++) {
            table.register(pd, 0x10000, 4096, AccessFlags.REMOTE_WRITE, false);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> table.register(pd, 0x10000, 4096, AccessFlags.REMOTE_WRITE, false));
        assertTrue(e.getMessage().contains("16 key tag bits leave 16 index bits"), e.getMessage());
    }
}
