package org.pagefabric.hw.mem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PhysicalMemoryTest {
    private static final int PAGE = PhysicalMemory.PAGE_SIZE;

    @Test
    void freePlusUsedIsCapacityThroughSmallAndHugeAllocations() {
        PhysicalMemory m = new PhysicalMemory(4096L * PAGE);
        long a = m.allocate(FrameTable.ANON);
        long h = m.allocateHuge(FrameTable.ANON);
        long b = m.allocate(0);
        assertEquals(0, h % PhysicalMemory.HUGE_FRAMES, "huge pages are 2 MiB aligned");
        assertEquals(2 + 512, m.usedFrames());
        assertEquals(4096, m.usedFrames() + m.freeFrames());
        assertTrue(m.frames().has(h, FrameTable.HUGE_HEAD));
        assertTrue(m.frames().has(h + 511, FrameTable.HUGE_TAIL));
        m.freeHuge(h);
        m.free(a);
        m.free(b);
        assertEquals(0, m.usedFrames());
        assertEquals(h, m.allocateHuge(0), "a freed 2 MiB block is reused whole");
    }

    @Test
    void hugeAllocationFailsWhenMemoryIsFragmented() {
        PhysicalMemory m = new PhysicalMemory(1024L * PAGE);
        long[] all = new long[1024];
        for (int i = 0; i < all.length; i++) {
            all[i] = m.allocate(0);
        }
        assertEquals(PhysicalMemory.NO_FRAME, m.allocate(0));
        for (int i = 0; i < all.length; i += 2) {
            m.free(all[i]);
        }
        assertEquals(512, m.freeFrames());
        assertEquals(PhysicalMemory.NO_FRAME, m.allocateHuge(0), "no aligned free block: no compaction");
        assertTrue(m.allocate(0) >= 0);
    }

    @Test
    void doubleFreeAndFreeingPinnedFramesAreRefused() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long f = m.allocate(0);
        m.frames().addPinCount(f, 1);
        assertThrows(IllegalStateException.class, () -> m.free(f));
        m.frames().addPinCount(f, -1);
        m.free(f);
        assertThrows(IllegalStateException.class, () -> m.free(f));
        assertThrows(IllegalStateException.class, () -> m.frames().addPinCount(f, -1));
    }

    @Test
    void unwrittenFramesReadAsZerosAndHoldNoBytes() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long f = m.allocate(0);
        byte[] buf = new byte[PAGE];
        Arrays.fill(buf, (byte) 7);
        m.read(f, 0, buf, 0, PAGE);
        assertArrayEquals(new byte[PAGE], buf);
        assertFalse(m.backing().hasContent(f));
        m.write(f, 100, new byte[] {1, 2, 3}, 0, 3);
        assertTrue(m.backing().hasContent(f));
        m.read(f, 99, buf, 0, 5);
        assertArrayEquals(new byte[] {0, 1, 2, 3, 0}, Arrays.copyOf(buf, 5));
        m.free(f);
        assertFalse(m.backing().hasContent(f), "freeing drops the bytes");
        long g = m.allocate(0);
        m.read(g, 0, buf, 0, PAGE);
        assertArrayEquals(new byte[PAGE], buf, "a reallocated frame is zeroed");
    }

    @Test
    void contentTagsVerifyAndReadAsTheirBytes() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long f = m.allocate(0);
        m.writeTag(f, 0, PAGE, 42, 8192);
        assertTrue(m.verifyTag(f, 0, PAGE, 42, 8192));
        assertTrue(m.verifyTag(f, 100, 50, 42, 8292));
        assertFalse(m.verifyTag(f, 0, PAGE, 43, 8192), "another tag");
        assertFalse(m.verifyTag(f, 0, PAGE, 42, 8193), "shifted by one byte");
        byte[] expect = new byte[PAGE];
        ContentTag.fill(42, 8192, expect, 0, PAGE);
        byte[] got = new byte[PAGE];
        m.read(f, 0, got, 0, PAGE);
        assertArrayEquals(expect, got);
        // one literal byte in the middle: the page turns into bytes and still verifies elsewhere
        m.write(f, 2000, new byte[] {(byte) ~expect[2000]}, 0, 1);
        assertFalse(m.verifyTag(f, 0, PAGE, 42, 8192));
        assertTrue(m.verifyTag(f, 0, 2000, 42, 8192));
        assertTrue(m.verifyTag(f, 2001, PAGE - 2001, 42, 8192 + 2001));
    }

    @Test
    void copiesKeepTagsAndDigestsAgreeWithBytes() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long a = m.allocate(0);
        long b = m.allocate(0);
        long c = m.allocate(0);
        m.writeTag(a, 0, PAGE, 7, 0);
        m.copy(a, 1000, b, 0, 3000);
        assertTrue(m.verifyTag(b, 0, 3000, 7, 1000));
        byte[] bytes = new byte[PAGE];
        m.read(a, 0, bytes, 0, PAGE);
        m.write(c, 0, bytes, 0, PAGE);
        ContentDigest da = new ContentDigest();
        ContentDigest dc = new ContentDigest();
        m.digest(a, 0, PAGE, da);
        m.digest(c, 0, PAGE, dc);
        assertEquals(da.value(), dc.value(), "tagged and literal copies of the same bytes digest alike");
        m.write(c, 5, new byte[] {(byte) ~bytes[5]}, 0, 1);
        ContentDigest dc2 = new ContentDigest();
        m.digest(c, 0, PAGE, dc2);
        assertNotEquals(da.value(), dc2.value());
    }

    @Test
    void manySmallTagRunsMaterializeWithoutLosingData() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long f = m.allocate(0);
        for (int i = 0; i < 20; i++) {
            m.writeTag(f, i * 100, 60, 1000 + i, i * 7L);
        }
        for (int i = 0; i < 20; i++) {
            assertTrue(m.verifyTag(f, i * 100, 60, 1000 + i, i * 7L), "run " + i);
        }
        byte[] gap = new byte[40];
        m.read(f, 60, gap, 0, 40);
        assertArrayEquals(new byte[40], gap, "bytes between runs stay zero");
    }

    @Test
    void writesToFreeFramesAreCountedAsStray() {
        PhysicalMemory m = new PhysicalMemory(16L * PAGE);
        long f = m.allocate(0);
        m.free(f);
        assertEquals(0, m.strayWrites());
        m.write(f, 0, new byte[] {1}, 0, 1);
        m.writeTag(f, 0, 64, 1, 0);
        assertEquals(2, m.strayWrites());
        assertTrue(m.frames().has(f, FrameTable.STRAY_WRITE));
    }

    @Test
    void idleMemoryCostsAlmostNothing() {
        PhysicalMemory m = new PhysicalMemory(64L << 30);
        assertTrue(m.footprintBytes() < 1024, "an untouched 64 GiB node: " + m.footprintBytes() + " B");
        m.allocate(0);
        assertTrue(m.footprintBytes() < 128 * 1024, "chunk directories plus one chunk of metadata: " + m.footprintBytes() + " B");
    }
}
