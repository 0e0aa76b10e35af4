package org.pagefabric.hw.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.NicCosts;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;

/**
 * An RDMA write between two nodes of a cluster built from each bundled profile: the bytes land,
 * and the time lies between what the profile's components force and a small multiple of it.
 * Buffers are pinned frames registered by hand, as a pin-everything policy would.
 */
class ClusterRdmaWriteTest {
    private static final int PAGE = PhysicalMemory.PAGE_SIZE;
    private static final long SRC = 0x7000_0000L;
    private static final long DST = 0x9000_0000L;
    private static final int BYTES = 64 * 1024;

    static List<String> bundled() {
        return ProfileRegistry.bundledNames();
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void aWriteMovesTheBytesInAPlausibleTime(String name) {
        Profile profile = ProfileRegistry.load(name);
        Simulator sim = new Simulator(7);
        Cluster c = Cluster.build(sim, profile, 2);
        Side a = new Side(c.node(0));
        Side b = new Side(c.node(1));
        Nic.connect(a.qp, b.qp, c.transport());
        int pages = BYTES / PAGE;
        MemoryRegion src = a.register(SRC, pages, AccessFlags.LOCAL_WRITE);
        MemoryRegion dst = b.register(DST, pages, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        byte[] data = new byte[BYTES];
        RandomStream r = new RandomStream(name.hashCode());
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) r.nextInt(256);
        }
        a.store(src, SRC, data);

        a.qp.postSend(WorkRequest.write(1, SRC, BYTES, src.lkey(), DST, dst.rkey()));
        sim.run();

        WorkCompletion wc = a.cq.poll();
        assertEquals(CompletionStatus.SUCCESS, wc.status(), name);
        assertEquals(BYTES, wc.bytes());
        assertArrayEquals(data, b.load(dst, DST, BYTES), name);

        long floor = floorPs(c);
        long took = wc.timePs();
        System.out.printf("%-20s 64 KiB RDMA write completes at %,12d ps (floor %,12d ps, x%.2f)%n",
                name, took, floor, (double) took / floor);
        assertTrue(took >= floor, name + ": " + took + " ps is faster than the profile's components allow ("
                + floor + " ps)");
        assertTrue(took <= 4 * floor, name + ": " + took + " ps is far above the " + floor + " ps the components add up to");
    }

    /**
     * What no schedule can beat: the NIC starting on the request and reading the first bytes,
     * every payload byte serialised once on the slowest of network link and bus, the path's
     * latency, and the completion written after the acknowledgement came back.
     */
    private static long floorPs(Cluster c) {
        NicCosts nic = CostsFromProfile.nic(c.profile());
        NetCosts net = c.network().costs();
        long packets = (BYTES + c.transport().mtuBytes() - 1) / c.transport().mtuBytes();
        long wire = net.link().serializationPs(BYTES + packets * net.headerBytes());
        long bus = c.node(0).pcie().serializationPs(BYTES);
        long oneWay = c.network().topology().route(0, 1).propagationPs(net.switchHopLatencyPs());
        return nic.doorbellPs() + nic.wqeProcessingPs() + nic.dmaReadStartPs() + Math.max(wire, bus)
                + 2 * oneWay + nic.completionPs();
    }

    /** One node's verbs objects and hand-pinned buffers. */
    private static final class Side {
        final Node node;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;

        Side(Node node) {
            this.node = node;
            pd = node.nic().allocatePd("rank" + node.id());
            cq = new CompletionQueue(node.name() + ".cq", 64);
            qp = node.nic().createQp(pd, QpType.RC, cq, cq);
        }

        MemoryRegion register(long va, int pages, int access) {
            long[] frames = new long[pages];
            for (int i = 0; i < pages; i++) {
                frames[i] = node.memory().allocate(0);
            }
            return node.nic().registerPinned(pd, va, (long) pages * PAGE, access, frames);
        }

        void store(MemoryRegion mr, long va, byte[] bytes) {
            for (int done = 0; done < bytes.length; done += PAGE) {
                node.memory().write(frame(mr, va + done), 0, bytes, done, PAGE);
            }
        }

        byte[] load(MemoryRegion mr, long va, int len) {
            byte[] out = new byte[len];
            for (int done = 0; done < len; done += PAGE) {
                node.memory().read(frame(mr, va + done), 0, out, done, PAGE);
            }
            return out;
        }

        private static long frame(MemoryRegion mr, long va) {
            return Pte.frame(mr.table().get(va / PAGE - mr.firstPage()));
        }
    }
}
