package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.FullMesh;
import org.pagefabric.hw.net.LinkFaults;
import org.pagefabric.hw.net.LinkParams;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.Network;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.hw.net.RetransmissionMode;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/** Two NICs over the reliable transport, with hand-pinned buffers: bytes really move. */
class NicEndToEndTest {
    static final int PAGE = PhysicalMemory.PAGE_SIZE;
    static final long BASE = 0x7000_0000L;

    static final class Host extends Component {
        final PhysicalMemory memory = new PhysicalMemory(256L << 20);
        final TransportEndpoint endpoint;
        final Nic nic;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        QueuePair qp;

        Host(Simulator sim, Network net, int node) {
            super(sim, "node" + node);
            endpoint = new TransportEndpoint(net, node, this);
            nic = new Nic(sim, this, "nic", node, new NicCosts(200 * Time.NS, 100 * Time.NS, 300 * Time.NS,
                    100 * Time.NS, 400 * Time.NS), memory, endpoint);
            pd = nic.allocatePd("rank" + node);
            cq = new CompletionQueue(name() + ".cq", 1024);
        }

        @Override
        public void handle(int type, long arg) {
            throw new IllegalStateException();
        }

        /** Allocates frames for {@code pages} pages at {@code va} and registers them. */
        MemoryRegion buffer(long va, int pages, int access) {
            long[] frames = new long[pages];
            for (int i = 0; i < pages; i++) {
                frames[i] = memory.allocate(0);
            }
            return nic.registerPinned(pd, va, (long) pages * PAGE, access, frames);
        }

        void store(MemoryRegion mr, long va, byte[] data) {
            for (int done = 0; done < data.length; ) {
                long a = va + done;
                int in = (int) (a % PAGE);
                int n = Math.min(data.length - done, PAGE - in);
                memory.write(org.pagefabric.hw.os.Pte.frame(mr.table().get(a / PAGE - mr.firstPage())), in, data, done, n);
                done += n;
            }
        }

        byte[] load(MemoryRegion mr, long va, int len) {
            byte[] out = new byte[len];
            for (int done = 0; done < len; ) {
                long a = va + done;
                int in = (int) (a % PAGE);
                int n = Math.min(len - done, PAGE - in);
                memory.read(org.pagefabric.hw.os.Pte.frame(mr.table().get(a / PAGE - mr.firstPage())), in, out, done, n);
                done += n;
            }
            return out;
        }

        List<WorkCompletion> drain() {
            List<WorkCompletion> out = new ArrayList<>();
            for (WorkCompletion wc; (wc = cq.poll()) != null; ) {
                out.add(wc);
            }
            return out;
        }
    }

    final Simulator sim = new Simulator(11);
    final Network net = new Network(sim, "net", new PacketPool(256, 4096),
            new NetCosts(new LinkParams(500 * Time.NS, 12_500_000_000L), 100 * Time.NS, 64), FullMesh.twoNodes());
    final Host a = new Host(sim, net, 0);
    final Host b = new Host(sim, net, 1);
    static final TransportConfig RC = new TransportConfig(RetransmissionMode.GO_BACK_N, 4096, 4096, 16, 0,
            20 * Time.US, 16, 5 * Time.US, 7, true, false, 0);

    NicEndToEndTest() {
        a.qp = a.nic.createQp(a.pd, QpType.RC, a.cq, a.cq);
        b.qp = b.nic.createQp(b.pd, QpType.RC, b.cq, b.cq);
        Nic.connect(a.qp, b.qp, RC);
    }

    static byte[] pattern(int len, long seed) {
        byte[] d = new byte[len];
        RandomStream r = new RandomStream(seed);
        for (int i = 0; i < len; i++) {
            d[i] = (byte) r.nextInt(256);
        }
        return d;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 4095, 4096, 4097, 65536, 1 << 20})
    void rdmaWriteMovesTheBytes(int size) {
        int pages = size / PAGE + 2;
        MemoryRegion src = a.buffer(BASE, pages, AccessFlags.LOCAL_WRITE);
        MemoryRegion dst = b.buffer(BASE + (1L << 30), pages, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        byte[] data = pattern(size, size);
        a.store(src, BASE + 100, data);
        a.qp.postSend(WorkRequest.write(1, BASE + 100, size, src.lkey(), BASE + (1L << 30) + 300, dst.rkey()));
        sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(1, wcs.size());
        assertEquals(CompletionStatus.SUCCESS, wcs.get(0).status());
        assertEquals(size, wcs.get(0).bytes());
        assertArrayEquals(data, b.load(dst, BASE + (1L << 30) + 300, size));
        assertTrue(b.drain().isEmpty(), "no completion at the responder of a write");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void writesSurvivePacketLoss(long seed) {
        Simulator s = new Simulator(seed);
        Network n = new Network(s, "net", new PacketPool(256, 4096),
                new NetCosts(new LinkParams(500 * Time.NS, 12_500_000_000L), 100 * Time.NS, 64), FullMesh.twoNodes());
        n.setFaults(new LinkFaults(0.1, 0.02));
        Host x = new Host(s, n, 0);
        Host y = new Host(s, n, 1);
        x.qp = x.nic.createQp(x.pd, QpType.RC, x.cq, x.cq);
        y.qp = y.nic.createQp(y.pd, QpType.RC, y.cq, y.cq);
        Nic.connect(x.qp, y.qp, RC);
        MemoryRegion src = x.buffer(BASE, 64, 0);
        MemoryRegion dst = y.buffer(BASE, 64, AccessFlags.REMOTE_WRITE);
        byte[] data = pattern(64 * PAGE, seed);
        x.store(src, BASE, data);
        for (int i = 0; i < 4; i++) {
            x.qp.postSend(WorkRequest.write(i, BASE + i * 16 * PAGE, 16 * PAGE, src.lkey(), BASE + i * 16 * PAGE, dst.rkey()));
        }
        s.run();
        List<WorkCompletion> wcs = x.drain();
        assertEquals(4, wcs.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(i, wcs.get(i).wrId());
            assertEquals(CompletionStatus.SUCCESS, wcs.get(i).status());
        }
        assertArrayEquals(data, y.load(dst, BASE, data.length));
    }

    @Test
    void rdmaReadFetchesRemoteBytes() {
        MemoryRegion local = a.buffer(BASE, 20, AccessFlags.LOCAL_WRITE);
        MemoryRegion remote = b.buffer(BASE, 20, AccessFlags.REMOTE_READ);
        byte[] data = pattern(70_000, 5);
        b.store(remote, BASE + 10, data);
        a.qp.postSend(WorkRequest.read(7, BASE + 5, data.length, local.lkey(), BASE + 10, remote.rkey()));
        sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(1, wcs.size());
        assertEquals(CompletionStatus.SUCCESS, wcs.get(0).status());
        assertEquals(Opcode.RDMA_READ, wcs.get(0).opcode());
        assertArrayEquals(data, a.load(local, BASE + 5, data.length));
    }

    @Test
    void sendConsumesAReceiveAndWaitsForOneWhenNonePosted() {
        MemoryRegion src = a.buffer(BASE, 2, 0);
        MemoryRegion dst = b.buffer(BASE, 2, AccessFlags.LOCAL_WRITE);
        byte[] data = pattern(5000, 9);
        a.store(src, BASE, data);
        a.qp.postSend(WorkRequest.send(1, BASE, data.length, src.lkey()));
        // No receive yet: the responder answers RNR and the requester backs off and retries.
        sim.schedule(12 * Time.US, (type, arg) -> b.qp.postRecv(WorkRequest.recv(42, BASE, 8192, dst.lkey())), 0, 0);
        sim.run();
        WorkCompletion sent = a.drain().get(0);
        assertEquals(CompletionStatus.SUCCESS, sent.status());
        List<WorkCompletion> got = b.drain();
        assertEquals(1, got.size());
        assertEquals(42, got.get(0).wrId());
        assertEquals(Opcode.RECV, got.get(0).opcode());
        assertEquals(5000, got.get(0).bytes());
        assertArrayEquals(data, b.load(dst, BASE, data.length));
        assertTrue(sim.statistics().get("node0.send0.nacks.receiver_not_ready") != null);
    }

    @Test
    void atomicsReturnTheOldValueAndUpdateMemory() {
        MemoryRegion local = a.buffer(BASE, 1, AccessFlags.LOCAL_WRITE);
        MemoryRegion remote = b.buffer(BASE, 1, AccessFlags.REMOTE_ATOMIC);
        a.qp.postSend(WorkRequest.fetchAndAdd(1, BASE, local.lkey(), BASE + 64, remote.rkey(), 5));
        a.qp.postSend(WorkRequest.fetchAndAdd(2, BASE + 8, local.lkey(), BASE + 64, remote.rkey(), 7));
        a.qp.postSend(WorkRequest.compareAndSwap(3, BASE + 16, local.lkey(), BASE + 64, remote.rkey(), 12, 100));
        a.qp.postSend(WorkRequest.compareAndSwap(4, BASE + 24, local.lkey(), BASE + 64, remote.rkey(), 12, 200));
        sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(List.of(0L, 5L, 12L, 100L), wcs.stream().map(WorkCompletion::value).toList());
        byte[] word = b.load(remote, BASE + 64, 8);
        assertEquals(100, java.nio.ByteBuffer.wrap(word).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
    }

    @Test
    void completionsKeepPostingOrder() {
        MemoryRegion local = a.buffer(BASE, 40, AccessFlags.LOCAL_WRITE);
        MemoryRegion remote = b.buffer(BASE, 40, AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE);
        a.qp.postSend(WorkRequest.read(1, BASE, 32 * PAGE, local.lkey(), BASE, remote.rkey()));
        a.qp.postSend(WorkRequest.write(2, BASE + 32 * PAGE, 8, local.lkey(), BASE + 32 * PAGE, remote.rkey()));
        sim.run();
        assertEquals(List.of(1L, 2L), a.drain().stream().map(WorkCompletion::wrId).toList());
    }

    enum Forgery { BAD_KEY, OUT_OF_BOUNDS, NO_RIGHTS, OTHER_DOMAIN }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(Forgery.class)
    void refusedAccessesWriteNothingAndAreCounted(Forgery f) {
        MemoryRegion src = a.buffer(BASE, 2, 0);
        int access = f == Forgery.NO_RIGHTS ? AccessFlags.REMOTE_READ : AccessFlags.REMOTE_WRITE;
        MemoryRegion dst = b.buffer(BASE, 2, access);
        if (f == Forgery.OTHER_DOMAIN) {
            ProtectionDomain other = b.nic.allocatePd("other");
            long[] frames = {b.memory.allocate(0)};
            dst = b.nic.registerPinned(other, BASE + (1L << 20), PAGE, AccessFlags.REMOTE_WRITE, frames);
        }
        a.store(src, BASE, pattern(2 * PAGE, 3));
        int rkey = f == Forgery.BAD_KEY ? dst.rkey() ^ 0x55 : dst.rkey();
        long target = f == Forgery.OUT_OF_BOUNDS ? BASE + PAGE : dst.address();
        long len = f == Forgery.OUT_OF_BOUNDS ? 2 * PAGE : 64;
        a.qp.postSend(WorkRequest.write(1, BASE, len, src.lkey(), target, rkey));
        a.qp.postSend(WorkRequest.write(2, BASE, 8, src.lkey(), dst.address(), dst.rkey()));
        sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, wcs.get(0).status());
        assertEquals(CompletionStatus.FLUSHED, wcs.get(1).status(), "the QP is in error after an access error");
        assertTrue(a.qp.inError());
        assertTrue(b.nic.refusedTotal() > 0);
        assertNotNull(dst);
        assertArrayEquals(new byte[64], b.load(dst, dst.address(), 64), "nothing written");
        assertEquals(0, sim.statistics().get("node1.nic.dma_write_bytes").values().get(0).value());
    }

    @Test
    void aBadLocalKeyFailsLocallyAndFlushesTheRest() {
        MemoryRegion src = a.buffer(BASE, 1, 0);
        MemoryRegion dst = b.buffer(BASE, 1, AccessFlags.REMOTE_WRITE);
        a.qp.postSend(WorkRequest.write(1, BASE, 8, src.lkey() + 1, BASE, dst.rkey()));
        a.qp.postSend(WorkRequest.write(2, BASE, 8, src.lkey(), BASE, dst.rkey()));
        sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, wcs.get(0).status());
        assertEquals(CompletionStatus.FLUSHED, wcs.get(1).status());
        assertEquals(1, a.nic.refused(AccessCheck.BAD_KEY));
    }
}
