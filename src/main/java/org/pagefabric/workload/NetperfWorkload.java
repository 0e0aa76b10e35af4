package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.stack.HostStack;
import org.pagefabric.hw.stack.StackCosts;
import org.pagefabric.hw.stack.TcpSocket;
import org.pagefabric.hw.stack.UdpSocket;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * netperf's TCP_STREAM and UDP_STREAM (seed 002 §5.1, Fig. 6b): rank 0 sends {@code messages}
 * messages of {@code size_B} bytes through a socket of the host stack ({@code hw.stack}) to
 * rank 1, which receives them. Every message carries its own bytes of one content stream and
 * the receiver checks each received byte against its position in it (TCP: the byte stream in
 * order; UDP: each datagram by its IP identification), so a lost, reordered or corrupted byte
 * fails {@code verified}.
 *
 * <p>Bandwidth is the bytes delivered to the receiving application over the time from the
 * first send to the last delivery. The NIC reaches the stack's buffers directly or through the
 * IOMMU, as the profile's {@code nic.iommu} says (the figure's no-iommu and e-iommu).
 */
public final class NetperfWorkload extends AbstractWorkload {
    /** Content stream of the messages. */
    private static final long TAG = 0x6e657470L;
    /**
     * After the UDP sender's last frame has left its NIC, how long before the receiver is told
     * no more datagrams come: far longer than a frame's flight over the link; it only ends the
     * test, the bandwidth ends at the last delivery.
     */
    private static final long UDP_DRAIN_PS = Time.MS;
    private static final String PROTOCOL = "protocol";
    private static final String MESSAGES = "messages";
    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsBeforeVerified(List.of("dropped_datagrams", "ring_drops", "messages_received",
                "fast_retransmits", "iommu_translations", "iotlb_misses"));
    }

    /** The workload with its declared metadata. */
    public NetperfWorkload() {
        super(WorkloadDescriptor.of("netperf", "netperf TCP_STREAM / UDP_STREAM between two nodes through the host"
                + " TCP/IP stack: bandwidth")
                .parameters(StandardParameters.size(16384),
                        WorkloadParameter.integer(MESSAGES, 1000, "", "messages the sender sends", 1, 100_000_000),
                        WorkloadParameter.choice(PROTOCOL, "transport: tcp (TCP_STREAM) or udp (UDP_STREAM)",
                                "tcp", "udp"))
                .higherIsBetter("bandwidth_MBps").metrics(METRICS)
                // the stack carries its own frames as datagrams
                .ownTraffic()
                .segment(p -> (StandardParameters.size(p) + Kernel.PAGE_SIZE - 1) / Kernel.PAGE_SIZE * Kernel.PAGE_SIZE)
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        long messages = params.longValue(MESSAGES);
        boolean tcp = params.is(PROTOCOL, "tcp");
        StackCosts costs = StackCosts.of(job.cluster().profile());
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        HostStack sa = new HostStack(a.node(), costs);
        HostStack sb = new HostStack(b.node(), costs);
        ProcessMemory ma = a.memory();
        ProcessMemory mb = b.memory();
        AddressSpace ua = a.process();
        AddressSpace ub = b.process();
        long[] times = new long[2]; // first send, last delivery
        long[] delivered = new long[2]; // bytes, datagrams
        boolean[] ok = {true};
        if (tcp) {
            TcpSocket[] s = HostStack.connectTcp(sa, sb);
            long total = size * messages;
            new SimProcess(job.simulator(), a.node(), "netperf", ctx -> {
                times[0] = ctx.now();
                for (long i = 0; i < messages; i++) {
                    ma.writeTag(a.segment(), size, TAG, i * size);
                    s[0].send(ctx, ua, a.segment(), size);
                }
            }).start();
            new SimProcess(job.simulator(), b.node(), "netserver", ctx -> {
                while (delivered[0] < total) {
                    long n = s[1].recv(ctx, ub, b.segment(), Math.min(size, total - delivered[0]));
                    ok[0] &= mb.verifyTag(b.segment(), n, TAG, delivered[0]);
                    delivered[0] += n;
                    times[1] = ctx.now();
                }
                delivered[1] = messages;
            }).start();
        } else {
            if (size > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("size_B: a UDP datagram holds at most " + Integer.MAX_VALUE + " B");
            }
            UdpSocket[] s = HostStack.connectUdp(sa, sb);
            new SimProcess(job.simulator(), a.node(), "netperf", ctx -> {
                times[0] = ctx.now();
                for (long i = 0; i < messages; i++) {
                    ma.writeTag(a.segment(), size, TAG, i * size);
                    s[0].send(ctx, ua, a.segment(), (int) size);
                }
                sa.awaitTransmitted(ctx);
                ctx.sleep(UDP_DRAIN_PS);
                s[1].close();
            }).start();
            new SimProcess(job.simulator(), b.node(), "netserver", ctx -> {
                long previous = -1;
                long n;
                while ((n = s[1].recv(ctx, ub, b.segment(), size)) >= 0) {
                    long id = s[1].lastId();
                    ok[0] &= n == size && id > previous && id < messages
                            && mb.verifyTag(b.segment(), size, TAG, id * size);
                    previous = id;
                    delivered[0] += n;
                    delivered[1]++;
                    times[1] = ctx.now();
                }
            }).start();
        }
        return new Run() {
            @Override
            public double bytesPerSecond() {
                long span = times[1] - times[0];
                return span <= 0 ? 0 : delivered[0] / (span / (double) Time.S);
            }

            @Override
            public boolean verified() {
                return ok[0] && (!tcp || delivered[0] == size * messages);
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("dropped_datagrams", sb.udpDropped());
                m.put("ring_drops", counter(job, b.nicName() + ".ud_dropped_no_receive"));
                m.put("messages_received", delivered[1]);
                m.put("fast_retransmits", sa.fastRetransmits() + sb.fastRetransmits());
                long translations = 0;
                long misses = 0;
                for (Rank r : List.of(a, b)) {
                    Iommu iommu = r.dmaIommu();
                    if (iommu != null) {
                        translations += iommu.translations();
                        misses += iommu.misses();
                    }
                }
                m.put("iommu_translations", translations);
                m.put("iotlb_misses", misses);
                return m;
            }
        };
    }

    private static long counter(Job job, String name) {
        return job.simulator().statistics().get(name) instanceof Counter c ? c.value() : 0;
    }
}
