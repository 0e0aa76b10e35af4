package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserAllocatorTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private static final long THRESHOLD = 128 * 1024;

    private record Event(String kind, MemoryHookListener.Call call, long start, long length) {
    }

    private static UserAllocator.Config config(boolean trim, boolean interior, UserAllocator.Linkage linkage) {
        return new UserAllocator.Config(THRESHOLD, trim, THRESHOLD / 2, 0, interior, linkage);
    }

    private static List<Event> listen(AllocationHooks hooks) {
        List<Event> events = new ArrayList<>();
        hooks.addListener(new MemoryHookListener() {
            @Override
            public void unmapped(Call call, long start, long length) {
                events.add(new Event("unmapped", call, start, length));
            }

            @Override
            public void mapped(Call call, long start, long length) {
                events.add(new Event("mapped", call, start, length));
            }
        });
        return events;
    }

    @Test
    void smallBlocksComeFromTheHeapAndTheirFreeStaysInUserSpace() {
        Kernel k = TestKernels.kernel(4096, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        AllocationHooks hooks = new AllocationHooks(k, as);
        List<Event> events = listen(hooks);
        UserAllocator m = new UserAllocator(k, as, config(false, false, UserAllocator.Linkage.DYNAMIC), hooks);
        UserAllocator.Allocation a = m.malloc(100);
        UserAllocator.Allocation b = m.malloc(100);
        assertEquals(as.brkStart(), a.address());
        assertEquals(a.address() + 112, b.address(), "16-byte granules");
        assertTrue(a.costPs() > 0, "the first malloc grew the heap with brk");
        assertEquals(0, b.costPs());
        assertEquals(List.of(new Event("mapped", MemoryHookListener.Call.BRK, as.brkStart(), PAGE)), events);
        k.write(as, a.address(), new byte[] {1, 2, 3}, 0, 3);
        long frame = Pte.frame(as.translate(a.address()));
        assertEquals(0, m.free(a.address()));
        assertEquals(frame, Pte.frame(as.translate(a.address())), "the page stays mapped: a cached registration stays valid");
        assertEquals(a.address(), m.malloc(50).address(), "first fit reuses the hole");
        assertThrows(IllegalArgumentException.class, () -> m.free(a.address() + 8));
    }

    @Test
    void largeBlocksAreMmappedAndFreeUnmapsThemThroughTheHooks() {
        Kernel k = TestKernels.kernel(4096, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        AllocationHooks hooks = new AllocationHooks(k, as);
        List<Event> events = listen(hooks);
        UserAllocator m = new UserAllocator(k, as, config(false, false, UserAllocator.Linkage.DYNAMIC), hooks);
        long big = m.malloc(THRESHOLD).address();
        assertTrue(m.isMmapped(big));
        List<InvalidationReason> kernelSaw = new ArrayList<>();
        as.subscribe(big, THRESHOLD, (s, st, en, r, seq) -> kernelSaw.add(r));
        m.free(big);
        assertEquals(new Event("unmapped", MemoryHookListener.Call.MUNMAP, big, THRESHOLD), events.get(events.size() - 1));
        assertEquals(List.of(InvalidationReason.UNMAP), kernelSaw);
        assertNotEquals(0, hooks.delivered());
    }

    @Test
    void staticLinkingAndCustomAllocatorsBypassTheHooksButNotTheKernel() {
        for (UserAllocator.Linkage linkage : List.of(UserAllocator.Linkage.STATIC, UserAllocator.Linkage.CUSTOM)) {
            Kernel k = TestKernels.kernel(4096, 0, ThpMode.NEVER);
            AddressSpace as = k.createProcess(0, false);
            AllocationHooks hooks = new AllocationHooks(k, as);
            List<Event> events = listen(hooks);
            UserAllocator m = new UserAllocator(k, as, config(true, true, linkage), hooks);
            long big = m.malloc(2 * THRESHOLD).address();
            List<InvalidationReason> kernelSaw = new ArrayList<>();
            as.subscribe(big, 2 * THRESHOLD, (s, st, en, r, seq) -> kernelSaw.add(r));
            UserfaultFd uffd = as.openUserfaultFd();
            uffd.register(big, 2 * THRESHOLD);
            m.free(big);
            assertEquals(List.of(), events, linkage + ": no hook event");
            assertEquals(0, hooks.delivered());
            assertEquals(List.of(InvalidationReason.UNMAP), kernelSaw, linkage + ": the MMU notifier still fires");
            assertEquals(1, uffd.pending(), linkage + ": userfaultfd still hears the unmap");
            assertFalse(as.vmas().stream().anyMatch(v -> v.contains(big)));
        }
    }

    @Test
    void trimmingGivesTheHeapTopBackAndInteriorReleaseDropsFreePages() {
        Kernel k = TestKernels.kernel(4096, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        AllocationHooks hooks = new AllocationHooks(k, as);
        List<Event> events = listen(hooks);
        UserAllocator m = new UserAllocator(k, as, config(true, true, UserAllocator.Linkage.DYNAMIC), hooks);
        long first = m.malloc(16).address();
        long hole = m.malloc(64 * 1024).address();
        long keep = m.malloc(16).address();
        long top = m.malloc(100 * 1024).address();
        long brkBefore = as.brk();
        k.write(as, hole + 8 * PAGE, new byte[] {5}, 0, 1);
        m.free(hole);
        Event dontneed = events.get(events.size() - 1);
        assertEquals(MemoryHookListener.Call.MADVISE, dontneed.call());
        assertEquals(0, as.translate(hole + 8 * PAGE), "interior free pages went back to the kernel");
        m.free(top);
        assertTrue(as.brk() < brkBefore, "the top was trimmed");
        assertEquals(MemoryHookListener.Call.BRK, events.get(events.size() - 1).call());
        assertTrue(as.vmas().stream().anyMatch(v -> v.contains(keep)));
        assertTrue(as.vmas().stream().anyMatch(v -> v.contains(first)));
        UserAllocator noTrim = new UserAllocator(k, k.createProcess(0, false), config(false, false,
                UserAllocator.Linkage.CUSTOM), null);
        long x = noTrim.malloc(100 * 1024).address();
        assertEquals(0, noTrim.free(x), "without trimming nothing reaches the kernel");
    }
}
