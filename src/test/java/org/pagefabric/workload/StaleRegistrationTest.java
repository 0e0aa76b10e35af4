package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.mem.ContentDigest;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Simulator;

/**
 * The hazard every registration cache must avoid, on the whole machine: a buffer is pinned and
 * registered, the application unmaps it and maps new memory at the same address, and a remote
 * write through the old registration lands in the old frame. The application never sees the
 * data, and the check of the transfer reports it, instead of a faster, wrong result.
 */
class StaleRegistrationTest {
    private static final int PAGES = 4;
    private static final long LEN = PAGES * Kernel.PAGE_SIZE;

    @Test
    void aWriteThroughAStaleRegistrationLandsInTheOldFrameAndIsDetected() {
        Simulator sim = new Simulator(5);
        Cluster c = Cluster.build(sim, ProfileRegistry.load("default"), 2);
        Kernel k0 = c.node(0).kernel();
        Kernel k1 = c.node(1).kernel();
        AddressSpace src = k0.createProcess(Long.MAX_VALUE, true);
        AddressSpace dst = k1.createProcess(Long.MAX_VALUE, true);
        long s = k0.mmap(src, 0, LEN, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long d = k1.mmap(dst, 0, LEN, Prot.READ_WRITE, MapFlags.POPULATE).address();
        k0.writeTag(src, s, LEN, 0xABCDL, 0);

        Nic n0 = c.node(0).nic();
        Nic n1 = c.node(1).nic();
        ProtectionDomain pd0 = n0.allocatePd("src");
        ProtectionDomain pd1 = n1.allocatePd("dst");
        MemoryRegion mrSrc = n0.registerPinned(pd0, s, LEN, 0, pin(k0, src, s));
        MemoryRegion mrDst = n1.registerPinned(pd1, d, LEN, AccessFlags.REMOTE_WRITE, pin(k1, dst, d));

        // The application frees its buffer and gets new memory at the same address; nothing
        // tells the (hypothetical) registration cache, so the old region stays registered.
        k1.munmap(dst, d, LEN);
        long again = k1.mmap(dst, d, LEN, Prot.READ_WRITE, MapFlags.FIXED | MapFlags.POPULATE).address();
        assertEquals(d, again);

        CompletionQueue cq0 = new CompletionQueue("cq0", 16);
        CompletionQueue cq1 = new CompletionQueue("cq1", 16);
        QueuePair q0 = n0.createQp(pd0, QpType.RC, cq0, cq0);
        QueuePair q1 = n1.createQp(pd1, QpType.RC, cq1, cq1);
        Nic.connect(q0, q1, c.transport());
        q0.postSend(WorkRequest.write(1, s, LEN, mrSrc.lkey(), d, mrDst.rkey()));
        sim.run();

        assertEquals(CompletionStatus.SUCCESS, cq0.poll().status(), "the NIC sees nothing wrong");
        long sent = k0.digest(src, s, LEN);
        long seen = k1.digest(dst, d, LEN);
        assertNotEquals(sent, seen, "the application's buffer did not receive the data");
        // ...because it went to the frames the old registration still names (pinned, so not freed).
        ContentDigest old = new ContentDigest();
        for (int i = 0; i < PAGES; i++) {
            long frame = Pte.frame(mrDst.table().get(i));
            assertTrue(k1.memory().isAllocated(frame), "a pinned frame outlives the unmap");
            k1.memory().digest(frame, 0, (int) Kernel.PAGE_SIZE, old);
        }
        assertEquals(sent, old.value(), "the data landed in the old frames");
    }

    private static long[] pin(Kernel k, AddressSpace as, long va) {
        PinResult r = k.getUserPages(as, va, PAGES, true);
        assertTrue(r.complete());
        return r.frames();
    }
}
