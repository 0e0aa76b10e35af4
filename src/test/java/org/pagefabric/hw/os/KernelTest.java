package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.mem.FrameTable;

class KernelTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private static final long HUGE = Kernel.HUGE_SIZE;
    private final OsCosts c = TestKernels.costs();

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    @Test
    void firstTouchIsAMinorFaultWithZeroFillThenNoFault() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        MapResult m = k.mmap(as, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.NONE);
        assertEquals(c.mmapPs(), m.costPs());
        assertEquals(0, as.translate(m.address()), "mmap populates nothing");
        Fault f = k.touch(as, m.address() + 5, false);
        assertEquals(FaultKind.MINOR, f.kind());
        assertEquals(c.minorFaultPs() + c.zeroFillPerPagePs(), f.costPs());
        assertEquals(Fault.NONE, k.touch(as, m.address() + 100, true));
        long pte = as.translate(m.address());
        assertTrue(Pte.has(pte, Pte.PRESENT | Pte.WRITABLE | Pte.READABLE | Pte.ACCESSED | Pte.DIRTY));
        assertEquals(1, as.residentPages());
        assertEquals(1, k.memory().usedFrames());
    }

    @Test
    void accessesOutsideVmasOrAgainstProtectionAreSegv() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ, MapFlags.NONE).address();
        assertEquals(FaultKind.SEGV_MAPERR, k.touch(as, a + 4 * PAGE, false).kind());
        assertEquals(FaultKind.SEGV_ACCERR, k.touch(as, a, true).kind());
        assertEquals(FaultKind.MINOR, k.touch(as, a, false).kind());
        OsException e = assertThrows(OsException.class, () -> k.write(as, a, new byte[1], 0, 1));
        assertEquals(Errno.EFAULT, e.errno());
        assertEquals(3, as.segvs());
    }

    @Test
    void mprotectWriteProtectsAndNotifiesAndWriteUpgradesLater() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 4 * PAGE, (s, st, en, r, seq) -> seen.add(r));
        long cost = k.mprotect(as, a, 2 * PAGE, Prot.READ);
        assertEquals(c.mprotectBasePs() + c.tlbShootdownPs() + c.notifierInvalidatePs() + 2 * c.mprotectPerPagePs(), cost);
        assertEquals(List.of(InvalidationReason.PROTECTION), seen);
        assertFalse(Pte.has(as.translate(a), Pte.WRITABLE));
        assertEquals(FaultKind.SEGV_ACCERR, k.touch(as, a, true).kind());
        assertEquals(2, as.vmas().size(), "split into [a, a+2p) read-only and the read-write rest");
        k.mprotect(as, a, 2 * PAGE, Prot.READ_WRITE);
        assertEquals(FaultKind.MINOR, k.touch(as, a, true).kind(), "write upgrade on an exclusive page");
        assertTrue(Pte.has(as.translate(a), Pte.WRITABLE));
    }

    @Test
    void munmapFreesFramesFiresNotifierAndUserfaultButPinnedFramesSurvive() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(as, a, bytes(4096, 1), 0, 4096);
        k.write(as, a + PAGE, bytes(4096, 2), 0, 4096);
        PinResult pin = k.getUserPages(as, a + PAGE, 1, true);
        assertEquals(1, pin.pinned());
        long pinned = pin.frames()[0];
        List<long[]> seen = new ArrayList<>();
        as.subscribe(a, 4 * PAGE, (s, st, en, r, seq) -> seen.add(new long[] {st, en, r.ordinal()}));
        UserfaultFd uffd = as.openUserfaultFd();
        uffd.register(a, 4 * PAGE);
        long cost = k.munmap(as, a, 4 * PAGE);
        assertEquals(c.munmapBasePs() + c.tlbShootdownPs() + c.notifierInvalidatePs() + 2 * c.munmapPerPagePs(), cost);
        assertEquals(1, seen.size());
        assertArrayEquals(new long[] {a, a + 4 * PAGE, InvalidationReason.UNMAP.ordinal()}, seen.get(0));
        assertEquals(List.of(new UserfaultEvent(UserfaultEvent.Kind.UNMAP, a, a + 4 * PAGE)), uffd.drain());
        assertEquals(0, as.translate(a + PAGE));
        assertEquals(1, k.memory().usedFrames(), "the pinned frame is still allocated");
        assertTrue(k.memory().isAllocated(pinned));
        assertEquals(0, k.memory().frames().mapCount(pinned));
        // the device still writes through its stale translation: the old frame changes, nobody's memory does
        k.memory().write(pinned, 0, new byte[] {9}, 0, 1);
        assertEquals(0, k.memory().strayWrites());
        k.putPage(pinned);
        assertEquals(0, k.memory().usedFrames());
        assertEquals(3, as.pageTable().tableCount(), "the emptied level-1 table was freed; levels 4 to 2 stay");
        k.memory().write(pinned, 0, new byte[] {9}, 0, 1);
        assertEquals(1, k.memory().strayWrites(), "a DMA after the last put_page is caught as a stray write");
    }

    @Test
    void staleTranslationCorruptsTheOldFrameNotTheNewPage() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.writeTag(as, a, PAGE, 11, 0);
        long nicFrame = k.getUserPages(as, a, 1, true).frames()[0];
        k.munmap(as, a, PAGE);
        // the application maps the same address again and writes its data there
        long b = k.mmap(as, a, PAGE, Prot.READ_WRITE, MapFlags.FIXED).address();
        assertEquals(a, b);
        k.writeTag(as, b, PAGE, 22, 0);
        // a remote put lands through the cached registration
        k.memory().writeTag(nicFrame, 0, (int) PAGE, 33, 0);
        assertFalse(k.verifyTag(as, b, PAGE, 33, 0), "the put did not reach the application");
        assertTrue(k.verifyTag(as, b, PAGE, 22, 0));
        assertTrue(k.memory().verifyTag(nicFrame, 0, (int) PAGE, 33, 0), "it landed in the old frame");
    }

    @Test
    void forkSharesCopyOnWriteAndKeepsBothViewsIntact() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace parent = k.createProcess(0, false);
        long a = k.mmap(parent, 0, 2 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(parent, a, bytes(100, 1), 0, 100);
        List<InvalidationReason> seen = new ArrayList<>();
        parent.subscribe(a, PAGE, (s, st, en, r, seq) -> seen.add(r));
        ForkResult fr = k.fork(parent);
        AddressSpace child = fr.child();
        assertEquals(List.of(InvalidationReason.FORK), seen);
        long frame = Pte.frame(parent.translate(a));
        assertEquals(frame, Pte.frame(child.translate(a)));
        assertEquals(2, k.memory().frames().mapCount(frame));
        assertTrue(Pte.has(parent.translate(a), Pte.COW));
        Fault f = k.touch(child, a, true);
        assertEquals(FaultKind.COW, f.kind());
        assertEquals(c.minorFaultPs() + c.cowCopyPerPagePs() + c.tlbShootdownPs(), f.costPs(),
                "a TLB flush, and no callback: the child has no subscriptions");
        k.write(child, a, bytes(100, 2), 0, 100);
        byte[] got = new byte[100];
        k.read(parent, a, got, 0, 100);
        assertArrayEquals(bytes(100, 1), got);
        k.read(child, a, got, 0, 100);
        assertArrayEquals(bytes(100, 2), got);
        assertEquals(1, k.memory().frames().mapCount(frame));
        Fault reuse = k.touch(parent, a, true);
        assertEquals(FaultKind.COW, reuse.kind());
        assertEquals(c.minorFaultPs(), reuse.costPs(), "the last sharer reuses the page without copying");
        assertEquals(frame, Pte.frame(parent.translate(a)));
        assertEquals(List.of(InvalidationReason.FORK), seen, "a reuse changes no translation");
    }

    @Test
    void forkCopiesPinnedPagesEagerlySoTheParentKeepsItsFrame() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace parent = k.createProcess(1 << 20, false);
        long a = k.mmap(parent, 0, PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(parent, a, bytes(64, 3), 0, 64);
        long pinned = k.getUserPages(parent, a, 1, true).frames()[0];
        AddressSpace child = k.fork(parent).child();
        assertNotEquals(pinned, Pte.frame(child.translate(a)));
        assertEquals(Fault.NONE, k.touch(parent, a, true), "still writable: no COW on a pinned page");
        assertEquals(pinned, Pte.frame(parent.translate(a)));
        byte[] got = new byte[64];
        k.read(child, a, got, 0, 64);
        assertArrayEquals(bytes(64, 3), got);
    }

    @Test
    void reclaimSwapsOutAndMajorFaultBringsDataBack() {
        Kernel k = TestKernels.kernel(64, 128, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 16 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        for (int i = 0; i < 16; i++) {
            k.write(as, a + i * PAGE, bytes(4096, i), 0, 4096);
        }
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 16 * PAGE, (s, st, en, r, seq) -> seen.add(r));
        ReclaimResult r = k.reclaim(16);
        assertEquals(16, r.reclaimed(), "second chance clears the accessed bits, then takes them");
        assertEquals(16, k.swap().used());
        assertEquals(16, as.swapPages());
        assertEquals(0, k.memory().usedFrames());
        assertEquals(16, seen.size());
        assertTrue(seen.stream().allMatch(x -> x == InvalidationReason.RECLAIM));
        assertTrue(Pte.has(as.translate(a), Pte.SWAPPED));
        byte[] got = new byte[4096];
        k.peek(as, a + 3 * PAGE, got, 0, 4096);
        assertArrayEquals(bytes(4096, 3), got, "inspection reads through swap");
        Fault f = k.touch(as, a + 3 * PAGE, false);
        assertEquals(FaultKind.MAJOR, f.kind());
        assertEquals(c.majorFaultPs(), f.costPs());
        k.read(as, a + 3 * PAGE, got, 0, 4096);
        assertArrayEquals(bytes(4096, 3), got);
        assertEquals(15, k.swap().used());
    }

    @Test
    void directReclaimLetsFaultsProceedAndPinnedOrLockedPagesStay() {
        Kernel k = TestKernels.kernel(32, 64, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 64 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        long pinned = k.getUserPages(as, a, 1, true).frames()[0];
        k.mlock(as, a + PAGE, PAGE);
        long locked = Pte.frame(as.translate(a + PAGE));
        for (int i = 2; i < 64; i++) {
            k.write(as, a + i * PAGE, bytes(16, i), 0, 16);
        }
        assertEquals(pinned, Pte.frame(as.translate(a)));
        assertEquals(locked, Pte.frame(as.translate(a + PAGE)));
        assertTrue(as.swapPages() > 0);
        for (int i = 2; i < 64; i++) {
            byte[] got = new byte[16];
            k.read(as, a + i * PAGE, got, 0, 16);
            assertArrayEquals(bytes(16, i), got, "page " + i);
        }
    }

    @Test
    void outOfMemoryWithoutSwapIsReported() {
        Kernel k = TestKernels.kernel(4, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        for (int i = 0; i < 4; i++) {
            assertEquals(FaultKind.MINOR, k.touch(as, a + i * PAGE, true).kind());
        }
        assertEquals(FaultKind.OOM, k.touch(as, a + 4 * PAGE, true).kind());
        OsException e = assertThrows(OsException.class, () -> k.write(as, a + 5 * PAGE, new byte[1], 0, 1));
        assertEquals(Errno.ENOMEM, e.errno());
    }

    @Test
    void migrationMovesDataAndNotifiesButRefusesPinnedPages() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 2 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(as, a, bytes(4096, 5), 0, 4096);
        k.write(as, a + PAGE, bytes(4096, 6), 0, 4096);
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 2 * PAGE, (s, st, en, r, seq) -> seen.add(r));
        long before = Pte.frame(as.translate(a));
        PageOpResult r = k.migrate(as, a);
        assertTrue(r.done());
        assertEquals(c.tlbShootdownPs() + c.notifierInvalidatePs() + c.migratePerPagePs(), r.costPs());
        assertNotEquals(before, Pte.frame(as.translate(a)));
        assertFalse(k.memory().isAllocated(before));
        assertEquals(List.of(InvalidationReason.MIGRATE), seen);
        byte[] got = new byte[4096];
        k.read(as, a, got, 0, 4096);
        assertArrayEquals(bytes(4096, 5), got);
        k.getUserPages(as, a + PAGE, 1, false);
        assertEquals(Errno.EBUSY, k.migrate(as, a + PAGE).error());
        assertEquals(1, k.stats().migrationsRefused());
    }

    @Test
    void mlockIsChargedAgainstRlimitMemlock() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(4, false);
        long a = k.mmap(as, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        long cost = k.mlock(as, a, 3 * PAGE);
        assertEquals(c.mlockBasePs() + 3 * c.mlockPerPagePs() + 3 * (c.minorFaultPs() + c.zeroFillPerPagePs()), cost,
                "mlock populates");
        assertEquals(3, as.lockedPages());
        k.mlock(as, a, 3 * PAGE);
        assertEquals(3, as.lockedPages(), "locking again charges nothing");
        OsException e = assertThrows(OsException.class, () -> k.mlock(as, a + 2 * PAGE, 3 * PAGE));
        assertEquals(Errno.ENOMEM, e.errno());
        assertEquals(c.mlockBasePs(), e.costPs());
        k.munlock(as, a, PAGE);
        assertEquals(2, as.lockedPages());
        k.mlock(as, a + 2 * PAGE, 3 * PAGE);
        assertEquals(4, as.lockedPages());
        k.munmap(as, a, 8 * PAGE);
        assertEquals(0, as.lockedPages());
        AddressSpace root = k.createProcess(0, true);
        long b = k.mmap(root, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.mlock(root, b, 8 * PAGE);
        assertEquals(8, root.lockedPages(), "CAP_IPC_LOCK is exempt");
        assertEquals(Errno.ENOMEM, assertThrows(OsException.class, () -> k.mlock(as, 0x1000, PAGE)).errno(),
                "an unmapped range");
    }

    @Test
    void pinnedVmChargeIsLimitedAndGupFaultsPagesIn() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(4, false);
        long a = k.mmap(as, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.chargePinned(as, 4);
        assertEquals(Errno.ENOMEM, assertThrows(OsException.class, () -> k.chargePinned(as, 1)).errno());
        k.unchargePinned(as, 4);
        PinResult p = k.getUserPages(as, a + 6 * PAGE, 4, true);
        assertEquals(2, p.pinned(), "stops at the end of the mapping");
        assertEquals(Errno.EFAULT, p.error());
        assertEquals(2, p.minorFaults());
        assertEquals(c.gupBasePs() + 2 * c.gupPerPagePs() + 2 * (c.minorFaultPs() + c.zeroFillPerPagePs()), p.costPs());
        for (int i = 0; i < 2; i++) {
            assertEquals(1, k.memory().frames().pinCount(p.frames()[i]));
        }
        assertEquals(-1, p.frames()[2]);
    }

    @Test
    void transparentHugePagesFaultCollapseAndSplit() {
        Kernel k = TestKernels.kernel(4096, 0, ThpMode.MADVISE);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 2 * HUGE, Prot.READ_WRITE, MapFlags.NONE).address();
        assertEquals(0, a % HUGE, "large mappings are 2 MiB aligned");
        assertEquals(FaultKind.MINOR, k.touch(as, a, true).kind(), "not madvised: small pages");
        k.madvise(as, a, 2 * HUGE, Advice.HUGEPAGE);
        Fault f = k.touch(as, a + HUGE + 5, true);
        assertEquals(FaultKind.MINOR_HUGE, f.kind());
        assertEquals(c.minorFaultPs() + 512 * c.zeroFillPerPagePs(), f.costPs());
        assertTrue(as.pageTable().isHuge(a + HUGE));
        assertEquals(513, as.residentPages());
        k.write(as, a + HUGE + 3 * PAGE, bytes(100, 9), 0, 100);
        k.write(as, a + 7 * PAGE, bytes(100, 8), 0, 100);
        // collapse the small pages of the first block
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 2 * HUGE, (s, st, en, r, seq) -> seen.add(r));
        PageOpResult col = k.collapseHuge(as, a);
        assertTrue(col.done(), String.valueOf(col.error()));
        assertTrue(as.pageTable().isHuge(a));
        assertEquals(1024, as.residentPages());
        byte[] got = new byte[100];
        k.read(as, a + 7 * PAGE, got, 0, 100);
        assertArrayEquals(bytes(100, 8), got);
        // split the second and check its data
        assertTrue(k.splitHuge(as, a + HUGE).done());
        assertFalse(as.pageTable().isHuge(a + HUGE));
        k.read(as, a + HUGE + 3 * PAGE, got, 0, 100);
        assertArrayEquals(bytes(100, 9), got);
        assertEquals(List.of(InvalidationReason.HUGE_COLLAPSE, InvalidationReason.HUGE_SPLIT), seen);
        // a pinned page blocks collapse
        k.getUserPages(as, a + HUGE, 1, false);
        assertEquals(Errno.EBUSY, k.collapseHuge(as, a + HUGE).error());
    }

    @Test
    void partialMunmapOfAHugePageSplitsIt() {
        Kernel k = TestKernels.kernel(4096, 0, ThpMode.ALWAYS);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, HUGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(as, a + 10 * PAGE, bytes(50, 1), 0, 50);
        assertTrue(as.pageTable().isHuge(a));
        k.munmap(as, a, 4 * PAGE);
        assertFalse(as.pageTable().isHuge(a + 10 * PAGE));
        assertEquals(508, as.residentPages());
        assertEquals(508, k.memory().usedFrames());
        byte[] got = new byte[50];
        k.read(as, a + 10 * PAGE, got, 0, 50);
        assertArrayEquals(bytes(50, 1), got);
        assertEquals(FaultKind.SEGV_MAPERR, k.touch(as, a, false).kind());
    }

    @Test
    void brkGrowsAndShrinksTheHeap() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long start = as.brk();
        assertEquals(start + 10 * PAGE, k.brk(as, start + 10 * PAGE).address());
        k.write(as, start + 9 * PAGE, new byte[] {1}, 0, 1);
        UserfaultFd uffd = as.openUserfaultFd();
        uffd.register(start, 10 * PAGE);
        assertEquals(start + 4 * PAGE, k.brk(as, start + 4 * PAGE).address());
        assertEquals(List.of(new UserfaultEvent(UserfaultEvent.Kind.UNMAP, start + 4 * PAGE, start + 10 * PAGE)),
                uffd.drain());
        assertEquals(FaultKind.SEGV_MAPERR, k.touch(as, start + 9 * PAGE, false).kind());
        assertEquals(0, k.memory().usedFrames());
        assertEquals(start + 4 * PAGE, k.brk(as, start - PAGE).address(), "below the heap start: refused");
    }

    @Test
    void madviseDontneedDropsPagesAndQueuesRemove() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(as, a, bytes(4096, 1), 0, 4096);
        UserfaultFd uffd = as.openUserfaultFd();
        uffd.register(a, 4 * PAGE);
        k.madvise(as, a, 4 * PAGE, Advice.DONTNEED);
        assertEquals(List.of(new UserfaultEvent(UserfaultEvent.Kind.REMOVE, a, a + 4 * PAGE)), uffd.drain());
        byte[] got = new byte[4096];
        k.read(as, a, got, 0, 4096);
        assertArrayEquals(new byte[4096], got);
        k.mlock(as, a, PAGE);
        assertEquals(Errno.EINVAL, assertThrows(OsException.class, () -> k.madvise(as, a, PAGE, Advice.DONTNEED)).errno());
    }

    @Test
    void deviceAccessSetsBitsOnlyWhenPermittedAndDeviceBitsSurviveSwap() {
        Kernel k = TestKernels.kernel(64, 64, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        assertEquals(0, k.deviceAccess(as, a, true), "not present: the IOMMU faults");
        k.touch(as, a, false);
        k.setDeviceBits(as, a, Pte.WL | Pte.E | Pte.withIuid(0, 5), 0);
        long pte = k.deviceAccess(as, a, true);
        assertTrue(Pte.has(pte, Pte.DIRTY | Pte.WL | Pte.E));
        assertThrows(IllegalArgumentException.class, () -> k.setDeviceBits(as, a, Pte.PRESENT, 0));
        k.reclaim(2);
        k.reclaim(2);
        assertTrue(Pte.has(as.translate(a), Pte.SWAPPED | Pte.WL | Pte.E));
        k.touch(as, a, false);
        assertTrue(Pte.has(as.translate(a), Pte.PRESENT | Pte.WL | Pte.E));
        assertEquals(5, Pte.iuid(as.translate(a)));
    }

    @Test
    void exitReleasesEverythingExceptPins() {
        Kernel k = TestKernels.kernel(1024, 64, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 8 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long pinned = k.getUserPages(as, a, 1, true).frames()[0];
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(0, PageTable.USER_TOP, (s, st, en, r, seq) -> seen.add(r));
        k.exit(as);
        assertEquals(List.of(InvalidationReason.RELEASE), seen);
        assertEquals(1, k.memory().usedFrames());
        assertTrue(k.memory().frames().has(pinned, FrameTable.ALLOCATED));
        k.putPage(pinned);
        assertEquals(0, k.memory().usedFrames());
        assertThrows(IllegalStateException.class, () -> k.mmap(as, 0, PAGE, Prot.READ, MapFlags.NONE));
    }
}
