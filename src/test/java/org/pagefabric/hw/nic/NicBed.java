package org.pagefabric.hw.nic;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.FullMesh;
import org.pagefabric.hw.net.LinkParams;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.Network;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.hw.net.RetransmissionMode;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;

/**
 * Two nodes whose NICs have a translation cache, and whose "processes" keep their own page
 * table (page to frame) so that on-demand regions can be paged in by a test driver.
 */
final class NicBed {
    static final int PAGE = PhysicalMemory.PAGE_SIZE;
    static final long BASE = 0x7000_0000L;
    static final NicCosts COSTS = new NicCosts(200 * Time.NS, 100 * Time.NS, 300 * Time.NS, 100 * Time.NS,
            400 * Time.NS);
    /** Generous RNR retries: a responder fault takes tens of microseconds to resolve. */
    static final TransportConfig RC = new TransportConfig(RetransmissionMode.GO_BACK_N, 4096, 4096, 16, 0,
            20 * Time.US, 16, 5 * Time.US, 1000, true, false, 0);

    final Simulator sim;
    final Network net;
    final Host a;
    final Host b;

    NicBed(long seed, TranslationCacheConfig cache) {
        this(seed, cache, KeyTable.DEFAULT_TAG_BITS);
    }

    /** Two hosts whose NICs' keys carry {@code keyTagBits} random tag bits. */
    NicBed(long seed, TranslationCacheConfig cache, int keyTagBits) {
        sim = new Simulator(seed);
        net = new Network(sim, "net", new PacketPool(256, 4096),
                new NetCosts(new LinkParams(500 * Time.NS, 12_500_000_000L), 100 * Time.NS, 64), FullMesh.twoNodes());
        a = new Host(sim, net, 0, cache, keyTagBits);
        b = new Host(sim, net, 1, cache, keyTagBits);
    }

    NicBed() {
        this(11, new TranslationCacheConfig(64, 4, ReplacementPolicy.LRU));
    }

    /** Connects a fresh RC QP on each host; returns {a's, b's}. */
    QueuePair[] connect() {
        QueuePair x = a.nic.createQp(a.pd, QpType.RC, a.cq, a.cq);
        QueuePair y = b.nic.createQp(b.pd, QpType.RC, b.cq, b.cq);
        Nic.connect(x, y, RC);
        return new QueuePair[] {x, y};
    }

    /** Runs {@code action} at {@code delay} from now. */
    void at(long delay, Runnable action) {
        sim.schedule(delay, (type, arg) -> action.run(), 0, 0);
    }

    static byte[] pattern(int len, long seed) {
        byte[] d = new byte[len];
        RandomStream r = new RandomStream(seed);
        for (int i = 0; i < len; i++) {
            d[i] = (byte) r.nextInt(256);
        }
        return d;
    }

    static final class Host extends Component {
        final PhysicalMemory memory = new PhysicalMemory(256L << 20);
        final TransportEndpoint endpoint;
        final Nic nic;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        /** The process's own page table: virtual page number to frame, allocated on first touch. */
        final TreeMap<Long, Long> pages = new TreeMap<>();
        final List<WorkCompletion> completions = new ArrayList<>();

        Host(Simulator sim, Network net, int node, TranslationCacheConfig cache, int keyTagBits) {
            super(sim, "node" + node);
            endpoint = new TransportEndpoint(net, node, this);
            nic = new Nic(sim, this, "nic", node, COSTS, memory, endpoint, cache, keyTagBits);
            pd = nic.allocatePd("rank" + node);
            cq = new CompletionQueue(name() + ".cq", 1024);
        }

        @Override
        public void handle(int type, long arg) {
            throw new IllegalStateException();
        }

        long frameOf(long va) {
            return pages.computeIfAbsent(va >>> 12, p -> memory.allocate(0));
        }

        /** A pinned region over {@code pages} pages at {@code va}: every page mapped now. */
        MemoryRegion pinned(long va, int count, int access) {
            long[] frames = new long[count];
            for (int i = 0; i < count; i++) {
                frames[i] = frameOf(va + (long) i * PAGE);
            }
            return nic.registerPinned(pd, va, (long) count * PAGE, access, frames);
        }

        /** An on-demand region over {@code pages} pages at {@code va}: nothing mapped in the NIC. */
        MemoryRegion onDemand(long va, int count, int access) {
            return nic.registerOnDemand(pd, va, (long) count * PAGE, access, false);
        }

        /** What the driver does: maps the pages of {@code [va, va + len)} from the process page table. */
        void mapRange(MemoryRegion mr, long va, long len) {
            long first = va >>> 12;
            long last = (va + len - 1) >>> 12;
            long[] frames = new long[(int) (last - first + 1)];
            for (int i = 0; i < frames.length; i++) {
                frames[i] = frameOf((first + i) << 12);
            }
            nic.mapPages(mr, first << 12, frames);
        }

        /** The CPU's store through the process page table. */
        void store(long va, byte[] data) {
            for (int done = 0; done < data.length; ) {
                long addr = va + done;
                int in = (int) (addr % PAGE);
                int n = Math.min(data.length - done, PAGE - in);
                memory.write(frameOf(addr), in, data, done, n);
                done += n;
            }
        }

        /** The CPU's load through the process page table. */
        byte[] load(long va, int len) {
            byte[] out = new byte[len];
            for (int done = 0; done < len; ) {
                long addr = va + done;
                int in = (int) (addr % PAGE);
                int n = Math.min(len - done, PAGE - in);
                memory.read(frameOf(addr), in, out, done, n);
                done += n;
            }
            return out;
        }

        /** Entry of the NIC's translation for {@code va} in {@code mr}. */
        static long entry(MemoryRegion mr, long va) {
            return mr.table().get((va >>> 12) - mr.firstPage());
        }

        static boolean mapped(MemoryRegion mr, long va) {
            return Pte.has(entry(mr, va), Pte.PRESENT);
        }

        List<WorkCompletion> drain() {
            for (WorkCompletion wc; (wc = cq.poll()) != null; ) {
                completions.add(wc);
            }
            return completions;
        }
    }

    /**
     * A test driver: resolves each fault after a delay chosen per fault by mapping the fault's
     * range from the process page table and resuming; serves prefetches the same way.
     */
    static final class DelayedDriver implements PageFaultHandler {
        private final NicBed bed;
        final Host host;
        final ToLongFunction<PageFault> delay;
        final List<PageFault> faults = new ArrayList<>();
        final List<long[]> resolved = new ArrayList<>();
        /** Greatest number of faults one QP had outstanding when a fault was delivered. */
        int maxOutstandingPerQp;

        DelayedDriver(NicBed bed, Host host, ToLongFunction<PageFault> delay) {
            this.bed = bed;
            this.host = host;
            this.delay = delay;
            host.nic.setPageFaultHandler(this);
        }

        @Override
        public void pageFault(Nic nic, PageFault fault) {
            faults.add(fault);
            int outstanding = 0;
            for (PageFaultKind k : PageFaultKind.values()) {
                outstanding += fault.qp().fault(k) != null ? 1 : 0;
            }
            maxOutstandingPerQp = Math.max(maxOutstandingPerQp, outstanding);
            bed.at(delay.applyAsLong(fault), () -> {
                host.mapRange(fault.region(), fault.address(), fault.length());
                resolved.add(new long[] {fault.id(), bed.sim.now()});
                nic.resume(fault);
            });
        }

        @Override
        public boolean prefetch(Nic nic, MemoryRegion region, long address, long length, int flags, Completion done) {
            bed.at(delay.applyAsLong(null), () -> {
                host.mapRange(region, address, length);
                if (done != null) {
                    done.complete();
                }
            });
            return true;
        }
    }
}
