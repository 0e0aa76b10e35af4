package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.hw.mem.ContentTag;
import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.sim.RandomStream;

/**
 * Random sequences of mmap, munmap, reads and writes with data, pins and unpins, mlock and
 * munlock, madvise(DONTNEED), reclaim, migration, THP collapse and split, fork and exit, on a
 * node small enough that reclaim and direct reclaim run all the time. After every step the
 * kernel is checked against a plain model of what each process should see and against its own
 * bookkeeping:
 * <ul>
 *   <li>no page lost: every page of every process reads back what was last written to it
 *       through that process (zeros if never), across swap, migration, THP and COW;</li>
 *   <li>no pinned page freed, reclaimed or moved: each pin's frame stays allocated with the pin
 *       count the model holds, and while its page is mapped, the page still maps that frame;</li>
 *   <li>map counts equal the page-table entries found by walking every process; allocated frames
 *       are exactly those mapped or pinned; free + used = capacity; swap slot references equal
 *       the swap entries;</li>
 *   <li>MMU notifiers: a mirror that records translations and forgets them only when a
 *       notifier says so never holds a stale one; for interval subscriptions, readRetry is true
 *       iff an overlapping invalidation happened since readBegin;</li>
 *   <li>RLIMIT_MEMLOCK: mlock fails with ENOMEM exactly when the model's locked pages plus the
 *       newly locked ones exceed the limit, and locked_vm equals the model's count.</li>
 * </ul>
 * Seeds above 20 run with reclaim and migration batching their unmaps (16 pages per notifier
 * range) and migrate ranges as well as single pages: every invariant holds there too.
 */
class KernelPropertyTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private static final long HUGE = Kernel.HUGE_SIZE;
    private static final int RAM_PAGES = 3072;
    private static final int SWAP_SLOTS = 8192;
    private static final long MEMLOCK_LIMIT = 96;
    private static final int STEPS = 400;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 30);
    }

    /** The model of one process. */
    private static final class Proc {
        final AddressSpace as;
        /** Mapped pages. */
        final TreeSet<Long> mapped = new TreeSet<>();
        /** Expected content of pages written (others read as zeros). */
        final TreeMap<Long, byte[]> data = new TreeMap<>();
        /** Pages in mlocked VMAs. */
        final TreeSet<Long> locked = new TreeSet<>();
        /** The notifier mirror: va to frame, as a device translation table would hold. */
        final TreeMap<Long, Long> mirror = new TreeMap<>();
        final List<Watch> watches = new ArrayList<>();

        Proc(AddressSpace as) {
            this.as = as;
        }
    }

    /** An interval subscription with the sequence read at the start of the current step. */
    private static final class Watch {
        MmuIntervalNotifier sub;
        long seq;
        boolean invalidated;
    }

    /** A held pin. */
    private record Pin(Proc proc, long va, long frame) {
    }

    private RandomStream rnd;
    private Kernel k;
    private final List<Proc> procs = new ArrayList<>();
    private final List<Pin> pins = new ArrayList<>();
    /** Pins whose page was unmapped since (the frame must survive; the mapping may not). */
    private final List<Pin> detached = new ArrayList<>();

    @ParameterizedTest
    @MethodSource("seeds")
    void randomSequencesKeepEveryInvariant(long seed) {
        rnd = new RandomStream(seed);
        k = TestKernels.kernel(RAM_PAGES, SWAP_SLOTS, seed % 2 == 0 ? ThpMode.MADVISE : ThpMode.ALWAYS,
                seed > 20 ? 16 : 1);
        procs.add(newProc(k.createProcess(MEMLOCK_LIMIT, false)));
        for (int step = 0; step < STEPS; step++) {
            for (Proc p : procs) {
                for (Watch w : p.watches) {
                    w.seq = w.sub.readBegin();
                    w.invalidated = false;
                }
            }
            String op = step(step);
            try {
                check(op);
            } catch (AssertionError e) {
                fail("seed " + seed + " step " + step + " (" + op + "): " + e.getMessage(), e);
            }
        }
        assertTrue(k.stats().reclaimed() > 0, "the sequence exercised reclaim");
    }

    private Proc newProc(AddressSpace as) {
        Proc p = new Proc(as);
        as.subscribe(0, PageTable.USER_TOP, (s, start, end, reason, seq) -> {
            p.mirror.subMap(start, end).clear();
        });
        for (int i = 0; i < 3; i++) {
            Watch w = new Watch();
            long start = k.config().mmapTop() - (1 + rnd.nextInt(2048)) * 64 * PAGE;
            w.sub = as.subscribe(start, (1 + rnd.nextInt(256)) * PAGE, (s, st, en, reason, seq) -> {
                assertTrue(st >= s.start() && en <= s.end() && st < en, "callback range is clipped to the interval");
                assertEquals(s.sequence(), seq);
                w.invalidated = true;
            });
            p.watches.add(w);
        }
        return p;
    }

    private Proc anyProc() {
        return procs.get(rnd.nextInt(procs.size()));
    }

    private long anyPage(Proc p) {
        if (p.mapped.isEmpty()) {
            return -1;
        }
        long lo = p.mapped.first();
        long hi = p.mapped.last();
        Long v = p.mapped.ceiling(lo + rnd.nextLong((hi - lo) / PAGE + 1) * PAGE);
        return v == null ? hi : v;
    }

    private String step(int step) {
        Proc p = anyProc();
        int choice = rnd.nextInt(100);
        if (choice < 8 || p.mapped.isEmpty()) {
            return mmap(p);
        } else if (choice < 14) {
            return munmap(p);
        } else if (choice < 40) {
            return write(p);
        } else if (choice < 52) {
            return read(p);
        } else if (choice < 58) {
            return pin(p);
        } else if (choice < 63) {
            return unpin();
        } else if (choice < 67) {
            return mlock(p);
        } else if (choice < 70) {
            return munlock(p);
        } else if (choice < 73) {
            return dontneed(p);
        } else if (choice < 80) {
            ReclaimResult r = k.reclaim(1 + rnd.nextInt(64));
            return "reclaim " + r.reclaimed();
        } else if (choice < 86) {
            long va = anyPage(p);
            if (k.config().unmapBatch() > 1 && va >= 0 && rnd.nextBoolean(0.5)) {
                int pages = 1 + rnd.nextInt(64);
                return "migrate range " + Long.toHexString(va) + " " + pages + " moved " + k.migrateRange(p.as, va, pages).moved();
            }
            return "migrate " + Long.toHexString(va) + " " + k.migrate(p.as, va).error();
        } else if (choice < 90) {
            return collapse(p);
        } else if (choice < 93) {
            long va = anyPage(p);
            return "split " + Long.toHexString(va) + " " + k.splitHuge(p.as, va).error();
        } else if (choice < 97) {
            return fork(p);
        } else {
            return exit();
        }
    }

    private String mmap(Proc p) {
        long pages = rnd.nextBoolean(0.3) ? 512 + rnd.nextInt(1024) : 1 + rnd.nextInt(96);
        MapResult r = k.mmap(p.as, 0, pages * PAGE, Prot.READ_WRITE, MapFlags.NONE);
        if (rnd.nextBoolean(0.3)) {
            k.madvise(p.as, r.address(), pages * PAGE, Advice.HUGEPAGE);
        }
        for (long i = 0; i < pages; i++) {
            p.mapped.add(r.address() + i * PAGE);
        }
        return "mmap " + pages;
    }

    private String munmap(Proc p) {
        long va = anyPage(p);
        long pages = 1 + rnd.nextInt(rnd.nextBoolean(0.2) ? 1024 : 16);
        long end = va + pages * PAGE;
        boolean any = !p.mapped.subSet(va, end).isEmpty();
        k.munmap(p.as, va, pages * PAGE);
        forget(p, va, end);
        for (Watch w : p.watches) {
            if (any && overlapsMapped(w, va, end)) {
                assertTrue(w.invalidated, "munmap over a watched, mapped range must invalidate it");
            }
        }
        return "munmap " + Long.toHexString(va) + " " + pages;
    }

    private boolean overlapsMapped(Watch w, long start, long end) {
        return start < w.sub.end() && end > w.sub.start();
    }

    /** The model's side of removing pages (munmap or exit). */
    private void forget(Proc p, long start, long end) {
        p.mapped.subSet(start, end).clear();
        p.data.subMap(start, end).clear();
        p.locked.subSet(start, end).clear();
        for (int i = pins.size() - 1; i >= 0; i--) {
            Pin pin = pins.get(i);
            if (pin.proc == p && pin.va >= start && pin.va < end) {
                detached.add(pin);
                pins.remove(i);
            }
        }
    }

    private String collapse(Proc p) {
        long base = anyPage(p) & -HUGE;
        // khugepaged looks for populated blocks: give it some
        for (int i = 0; i < 3; i++) {
            long va = base + rnd.nextInt(Kernel.HUGE_PAGES) * PAGE;
            if (p.mapped.contains(va)) {
                writeAt(p, va);
            }
        }
        if (p.mapped.subSet(base, base + HUGE).size() == Kernel.HUGE_PAGES && rnd.nextBoolean(0.7)) {
            // madvised after its pages were faulted in small: what khugepaged then collapses
            k.madvise(p.as, base, HUGE, Advice.HUGEPAGE);
        }
        PageOpResult r = k.collapseHuge(p.as, base);
        if (r.done()) {
            for (Watch w : p.watches) {
                if (overlapsMapped(w, base, base + HUGE)) {
                    assertTrue(w.invalidated, "a collapse must invalidate the block");
                }
            }
        }
        return "collapse " + Long.toHexString(base) + " " + r.error();
    }

    private String write(Proc p) {
        return writeAt(p, anyPage(p));
    }

    private String writeAt(Proc p, long va) {
        byte[] expect = p.data.getOrDefault(va, new byte[(int) PAGE]).clone();
        try {
            if (rnd.nextBoolean(0.3)) {
                long tag = rnd.nextLong();
                k.writeTag(p.as, va, PAGE, tag, 0);
                ContentTag.fill(tag, 0, expect, 0, (int) PAGE);
            } else {
                int off = rnd.nextInt((int) PAGE);
                int len = 1 + rnd.nextInt((int) PAGE - off);
                byte[] src = new byte[len];
                for (int i = 0; i < len; i++) {
                    src[i] = (byte) rnd.nextInt(256);
                }
                k.write(p.as, va + off, src, 0, len);
                System.arraycopy(src, 0, expect, off, len);
            }
        } catch (OsException e) {
            assertEquals(Errno.ENOMEM, e.errno(), "a write to a mapped page can only fail for memory");
            return "write OOM";
        }
        p.data.put(va, expect);
        if (rnd.nextBoolean(0.5)) {
            // a device mirrors this translation now, as ODP does after a fault
            long pte = p.as.translate(va);
            p.mirror.put(va, Kernel.frameOf(pte, va));
        }
        return "write " + Long.toHexString(va);
    }

    private String read(Proc p) {
        long va = anyPage(p);
        byte[] got = new byte[(int) PAGE];
        try {
            k.read(p.as, va, got, 0, (int) PAGE);
        } catch (OsException e) {
            assertEquals(Errno.ENOMEM, e.errno());
            return "read OOM";
        }
        assertArrayEquals(p.data.getOrDefault(va, new byte[(int) PAGE]), got, "CPU read of " + Long.toHexString(va));
        return "read " + Long.toHexString(va);
    }

    private String pin(Proc p) {
        if (pins.size() >= 48) {
            return unpin();
        }
        long va = anyPage(p);
        int n = 1 + rnd.nextInt(6);
        PinResult r = k.getUserPages(p.as, va, n, true);
        for (int i = 0; i < r.pinned(); i++) {
            long at = va + i * PAGE;
            assertTrue(p.mapped.contains(at), "pinned an unmapped page");
            pins.add(new Pin(p, at, r.frames()[i]));
        }
        if (r.pinned() < n && r.error() == Errno.EFAULT) {
            assertTrue(!p.mapped.contains(va + r.pinned() * PAGE), "gup stopped at a mapped page");
        }
        return "pin " + r.pinned() + "/" + n;
    }

    private String unpin() {
        List<Pin> pool = rnd.nextBoolean(0.5) && !detached.isEmpty() ? detached : pins;
        if (pool.isEmpty()) {
            return "unpin none";
        }
        Pin pin = pool.remove(rnd.nextInt(pool.size()));
        k.putPage(pin.frame);
        for (Proc q : procs) {
            for (Watch w : q.watches) {
                assertTrue(!w.sub.readRetry(w.seq), "put_page changes no mapping");
            }
        }
        return "unpin " + pin.frame;
    }

    private String mlock(Proc p) {
        long va = anyPage(p);
        long pages = 1 + rnd.nextInt(24);
        long end = va + pages * PAGE;
        boolean covered = p.mapped.subSet(va, end).size() == pages;
        long newly = 0;
        for (long a = va; a < end; a += PAGE) {
            newly += p.locked.contains(a) ? 0 : 1;
        }
        boolean expectFail = !covered || p.locked.size() + newly > MEMLOCK_LIMIT;
        try {
            k.mlock(p.as, va, pages * PAGE);
            assertTrue(!expectFail, "mlock should have failed");
            for (long a = va; a < end; a += PAGE) {
                p.locked.add(a);
            }
            return "mlock " + pages;
        } catch (OsException e) {
            assertEquals(Errno.ENOMEM, e.errno());
            assertTrue(expectFail, "mlock failed unexpectedly: " + e.getMessage());
            for (Proc q : procs) {
                for (Watch w : q.watches) {
                    assertTrue(!w.sub.readRetry(w.seq), "a refused mlock changes no mapping");
                }
            }
            return "mlock ENOMEM";
        }
    }

    private String munlock(Proc p) {
        long va = anyPage(p);
        long pages = 1 + rnd.nextInt(24);
        long end = va + pages * PAGE;
        boolean covered = p.mapped.subSet(va, end).size() == pages;
        try {
            k.munlock(p.as, va, pages * PAGE);
            assertTrue(covered, "munlock of a hole should fail");
            p.locked.subSet(va, end).clear();
            return "munlock " + pages;
        } catch (OsException e) {
            assertEquals(Errno.ENOMEM, e.errno());
            assertTrue(!covered);
            return "munlock ENOMEM";
        }
    }

    private String dontneed(Proc p) {
        long va = anyPage(p);
        long pages = 1 + rnd.nextInt(16);
        long end = va + pages * PAGE;
        boolean covered = p.mapped.subSet(va, end).size() == pages;
        boolean locked = !p.locked.subSet(va, end).isEmpty();
        try {
            k.madvise(p.as, va, pages * PAGE, Advice.DONTNEED);
            assertTrue(covered && !locked);
        } catch (OsException e) {
            assertEquals(covered ? Errno.EINVAL : Errno.ENOMEM, e.errno());
            return "dontneed " + e.errno();
        }
        p.data.subMap(va, end).clear();
        for (int i = pins.size() - 1; i >= 0; i--) {
            Pin pin = pins.get(i);
            if (pin.proc == p && pin.va >= va && pin.va < end) {
                detached.add(pins.remove(i));
            }
        }
        for (Watch w : p.watches) {
            if (overlapsMapped(w, va, end)) {
                assertTrue(w.invalidated, "DONTNEED over a watched range must invalidate it");
            }
        }
        return "dontneed " + pages;
    }

    private String fork(Proc p) {
        if (procs.size() >= 4) {
            return "fork skipped";
        }
        ForkResult r;
        try {
            r = k.fork(p.as);
        } catch (OsException e) {
            assertEquals(Errno.ENOMEM, e.errno());
            return "fork ENOMEM";
        }
        Proc c = newProc(r.child());
        c.mapped.addAll(p.mapped);
        for (Map.Entry<Long, byte[]> e : p.data.entrySet()) {
            c.data.put(e.getKey(), e.getValue().clone());
        }
        procs.add(c);
        return "fork";
    }

    private String exit() {
        if (procs.size() < 2) {
            return "exit skipped";
        }
        Proc p = procs.remove(1 + rnd.nextInt(procs.size() - 1));
        k.exit(p.as);
        forget(p, 0, PageTable.USER_TOP);
        return "exit " + p.as.id();
    }

    // ------------------------------------------------------------------ invariants

    private void check(String op) {
        long capacity = k.memory().capacityFrames();
        int[] mapCount = new int[(int) capacity];
        Map<Long, Integer> slotRefs = new HashMap<>();
        Map<Long, Integer> pinCount = new HashMap<>();
        for (Pin pin : pins) {
            pinCount.merge(pin.frame, 1, Integer::sum);
        }
        for (Pin pin : detached) {
            pinCount.merge(pin.frame, 1, Integer::sum);
        }
        byte[] got = new byte[(int) PAGE];
        for (Proc p : procs) {
            long[] resident = {0};
            long[] swapped = {0};
            p.as.pageTable().forEach(0, PageTable.USER_TOP, (va, table, index, huge) -> {
                long pte = table[index];
                if ((pte & Pte.PRESENT) != 0) {
                    long f = Pte.frame(pte);
                    for (int i = 0; i < (huge ? Kernel.HUGE_PAGES : 1); i++) {
                        mapCount[(int) (f + i)]++;
                    }
                    resident[0] += huge ? Kernel.HUGE_PAGES : 1;
                    assertTrue(!huge || (va & (HUGE - 1)) == 0);
                } else if ((pte & Pte.SWAPPED) != 0) {
                    slotRefs.merge(Pte.frame(pte), 1, Integer::sum);
                    swapped[0]++;
                }
                long page = va;
                assertTrue(p.mapped.contains(page), "an entry outside the model's mappings at " + Long.toHexString(va));
            });
            assertEquals(resident[0], p.as.residentPages(), "resident pages of " + p.as.id());
            assertEquals(swapped[0], p.as.swapPages(), "swap pages of " + p.as.id());
            assertEquals(p.locked.size(), p.as.lockedPages(), "locked_vm of " + p.as.id());
            // every written page, and a sample of the others (reading thousands of zero pages
            // each step would only slow the test down)
            List<Long> toCheck = new ArrayList<>(p.data.keySet());
            for (int i = 0; i < 16 && !p.mapped.isEmpty(); i++) {
                toCheck.add(anyPage(p));
            }
            for (long va : toCheck) {
                k.peek(p.as, va, got, 0, (int) PAGE);
                byte[] expect = p.data.get(va);
                if (expect == null) {
                    for (byte b : got) {
                        if (b != 0) {
                            fail("page " + Long.toHexString(va) + " of process " + p.as.id() + " should be zero");
                        }
                    }
                } else {
                    assertArrayEquals(expect, got, "page " + Long.toHexString(va) + " of process " + p.as.id());
                }
            }
            for (Map.Entry<Long, Long> m : p.mirror.entrySet()) {
                long pte = p.as.translate(m.getKey());
                assertTrue((pte & Pte.PRESENT) != 0 && Kernel.frameOf(pte, m.getKey()) == m.getValue(),
                        "the mirror holds a stale translation for " + Long.toHexString(m.getKey())
                                + ": a mapping changed without a notifier");
            }
            for (Watch w : p.watches) {
                assertEquals(w.invalidated, w.sub.readRetry(w.seq),
                        "readRetry must be true iff an overlapping invalidation happened");
            }
        }
        FrameTable ft = k.memory().frames();
        long allocated = 0;
        for (long f = 0; f < capacity; f++) {
            boolean alloc = ft.has(f, FrameTable.ALLOCATED);
            allocated += alloc ? 1 : 0;
            assertEquals(mapCount[(int) f], ft.mapCount(f), "map count of frame " + f);
            int pinsHeld = pinCount.getOrDefault(f, 0);
            assertEquals(pinsHeld, ft.pinCount(f), "pin count of frame " + f);
            if (alloc) {
                assertTrue(mapCount[(int) f] > 0 || pinsHeld > 0, "frame " + f + " leaked: allocated, unmapped, unpinned");
            } else {
                assertEquals(0, pinsHeld, "pinned frame " + f + " was freed");
            }
        }
        assertEquals(k.memory().usedFrames(), allocated);
        assertEquals(capacity, k.memory().usedFrames() + k.memory().freeFrames());
        assertEquals(slotRefs.size(), k.swap().used(), "swap slots in use");
        for (Map.Entry<Long, Integer> e : slotRefs.entrySet()) {
            assertEquals(e.getValue().intValue(), k.swap().references(e.getKey()), "references of slot " + e.getKey());
        }
        for (Pin pin : pins) {
            long pte = pin.proc.as.translate(pin.va);
            assertTrue((pte & Pte.PRESENT) != 0 && Kernel.frameOf(pte, pin.va) == pin.frame,
                    "pinned page " + Long.toHexString(pin.va) + " moved off frame " + pin.frame);
        }
        assertEquals(0, k.memory().strayWrites());
    }
}
