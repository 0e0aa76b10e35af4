package org.pagefabric.reg.openmx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import org.pagefabric.config.Bandwidth;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.InterruptPlacement;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PerRank;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The Open-MX stack (seed 003) as a registration policy: two-sided MX messages over the node's
 * Ethernet attachment, eager up to {@code openmx.eager_max} through statically pinned rings,
 * larger ones by rendezvous and pull, with the driver pinning user regions as the
 * {@link PinMode} says. See the package documentation for the model and its limits.
 *
 * <p>Receives match sends by their match information, which is the work request id both sides
 * give ({@link org.pagefabric.comm.Rank#send} and {@link org.pagefabric.comm.Rank#receive} with the same id), in posting order per peer.
 * One-sided operations do not exist in MX: puts and gets are refused.
 */
public final class OpenMxPolicy implements RegistrationPolicy, InterruptPlacement {
    /** First transport channel of the Open-MX connections (the NIC's queue pairs use small numbers). */
    static final int CHANNEL_BASE = 1024;

    private final PinMode mode;
    private final long eagerMax;
    private final int eagerSlots;
    private final int cacheEntries;
    private final int pinChunkPages;
    private final int retryLimit;
    private final long sendPerPacketPs;
    private final long recvPerPacketPs;
    private final long recvCoalescingPs;
    private final long unpinBasePs;
    private final long pinBasePs;
    private final Bandwidth copyRate;
    private final PerRank<Driver> drivers = new PerRank<>();
    /** Core of each process that called in (lookups only, never iterated). */
    private final IdentityHashMap<SimProcess, Integer> placement = new IdentityHashMap<>();
    /** Core the NIC's receive interrupt is routed to: core 0, Linux's default, unless a workload binds it elsewhere. */
    private int interruptCore;
    /** Whether each message's bottom halves are steered to the core of its process instead. */
    private boolean steered;
    /** The receive path of each core, per node id. */
    private ReceivePoll[][] polls = new ReceivePoll[0][];
    private Simulator sim;
    private TransportConfig transport;
    private Counter overlapMisses;
    private Counter received;
    private Counter pins;
    private Counter unpins;
    private Counter unpinnedReplyReads;
    private Counter invalidations;
    private Counter pressureUnpins;
    private Counter hits;
    private Counter misses;
    private LatencyHistogram handshakes;

    /** The policy of {@code mode} with costs from {@code profile}. */
    public OpenMxPolicy(Profile profile, PinMode mode) {
        this.mode = mode;
        this.eagerMax = profile.size(OpenMxParameters.EAGER_MAX);
        this.eagerSlots = profile.intCount(OpenMxParameters.EAGER_SLOTS);
        this.cacheEntries = profile.intCount(OpenMxParameters.REGION_CACHE_ENTRIES);
        this.pinChunkPages = Math.max(1, profile.intCount(OpenMxParameters.PIN_CHUNK_PAGES));
        this.retryLimit = profile.intCount(OpenMxParameters.RETRY_LIMIT);
        this.sendPerPacketPs = profile.time(OpenMxParameters.SEND_PER_PACKET);
        this.recvPerPacketPs = profile.time(OpenMxParameters.RECV_PER_PACKET);
        this.recvCoalescingPs = profile.time(OpenMxParameters.RECV_COALESCING);
        this.unpinBasePs = profile.time(OsParameters.UNPIN_BASE);
        this.pinBasePs = profile.time(OsParameters.PIN_BASE);
        this.copyRate = profile.bandwidth(OpenMxParameters.RECV_COPY_BANDWIDTH);
    }

    @Override
    public String name() {
        return mode.policyName();
    }

    private static final Statistic PINNED_PAGES = new Statistic("<policy>.pinnedPages", "pages", "pages the driver pinned");
    private static final Statistic UNPINNED_PAGES = new Statistic("<policy>.unpinnedPages", "pages",
            "pages the driver unpinned");
    private static final Statistic OVERLAP_MISSES = new Statistic("<policy>.overlapMisses", "packets",
            "pull replies dropped because their target page was not pinned yet (Overlap-Miss, 003 §4.3)");
    private static final Statistic UNPINNED_REPLY_READS = new Statistic("<policy>.unpinnedReplyReads", "packets",
            "pull replies sent without data because their source pages were unpinned under them");
    private static final Statistic PACKETS_RECEIVED = new Statistic("<policy>.packetsReceived", "packets",
            "Open-MX packets the receiving bottom halves accepted");
    private static final Statistic INVALIDATIONS = new Statistic("<policy>.invalidations", "regions",
            "cached regions unpinned by an MMU-notifier invalidation");
    private static final Statistic PRESSURE_UNPINS = new Statistic("<policy>.pressureUnpins", "regions",
            "idle cached regions unpinned because pinning failed for lack of memory");
    private static final Statistic HANDSHAKE_RTT = new Statistic("<policy>.handshakeRtt", "ps",
            "rendezvous handshake: from the RNDV leaving the sender's driver to the PULL acted on there (003 §3.3)");
    private static final Statistic HITS = new Statistic("<policy>.hits", "lookups",
            "region cache lookups that found the region declared");
    private static final Statistic MISSES = new Statistic("<policy>.misses", "lookups",
            "region cache lookups that declared a new region");

    /** What a policy of {@code mode} counts, as its descriptor lists it. */
    static List<Statistic> statistics(PinMode mode) {
        List<Statistic> all = new ArrayList<>(List.of(PINNED_PAGES, UNPINNED_PAGES, OVERLAP_MISSES,
                UNPINNED_REPLY_READS, PACKETS_RECEIVED, INVALIDATIONS, PRESSURE_UNPINS, HANDSHAKE_RTT));
        if (mode == PinMode.CACHE) {
            all.add(HITS);
            all.add(MISSES);
        }
        return all;
    }

    /** How this policy pins. */
    public PinMode mode() {
        return mode;
    }

    /** Builds the rank's driver and pins its eager rings. */
    @Override
    public long setUp(Endpoint rank) {
        if (sim == null) {
            sim = rank.node().simulator();
            String n = name();
            var stats = sim.statistics();
            overlapMisses = OVERLAP_MISSES.counterOf(stats, n);
            unpinnedReplyReads = UNPINNED_REPLY_READS.counterOf(stats, n);
            received = PACKETS_RECEIVED.counterOf(stats, n);
            pins = PINNED_PAGES.counterOf(stats, n);
            unpins = UNPINNED_PAGES.counterOf(stats, n);
            invalidations = INVALIDATIONS.counterOf(stats, n);
            pressureUnpins = PRESSURE_UNPINS.counterOf(stats, n);
            handshakes = HANDSHAKE_RTT.latencyOf(stats, n);
            if (mode == PinMode.CACHE) {
                hits = HITS.counterOf(stats, n);
                misses = MISSES.counterOf(stats, n);
            }
        }
        Driver d = new Driver(this, rank, rank.jobSize());
        drivers.put(rank, d);
        return d.setUp();
    }

    /** Opens every pair of ranks' Open-MX connections. */
    @Override
    public void start(JobLayout job) {
        TransportConfig t = job.cluster().transport();
        // Open-MX resends dropped packets itself, as often as its library allows, on any fabric
        this.transport = new TransportConfig(t.mode(), t.blockBytes(), t.mtuBytes(), t.windowBlocks(), t.ackEveryPackets(),
                t.retransmitTimeoutPs(), retryLimit, t.rnrBackoffPs(), t.rnrRetryLimit(), t.nackCorrupt(), t.nackOnGap(),
                t.faultWaitTimeoutPs(), t.reissuePs(), t.errRetryLimit());
        int n = job.endpoints().size();
        // Ranks sharing a node share its endpoint: each takes its own block of n channels there.
        int[] local = new int[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                if (job.endpoint(j).node() == job.endpoint(i).node()) {
                    local[i]++;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            Driver d = driver(job.endpoint(i));
            d.defaultCore = (interruptCore + 1 + local[i]) % job.endpoint(i).node().cpu().coreCount();
            for (int j = 0; j < n; j++) {
                if (i != j) {
                    driver(job.endpoint(i)).connect(driver(job.endpoint(j)), job.endpoint(i).node().endpoint(),
                            CHANNEL_BASE + j + n * local[i], CHANNEL_BASE + i + n * local[j]);
                }
            }
        }
    }

    @Override
    public boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId) {
        return send(ctx, initiator, target, localVa, length, wrId, 0);
    }

    @Override
    public boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId) {
        return receive(ctx, rank, source, va, length, wrId, 0);
    }

    /** MX matches a message to the oldest receive from its sender posted with the same match info. */
    @Override
    public boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId,
                        long matchBits) {
        driver(initiator).send(ctx, driver(target), localVa, length, wrId, matchBits);
        return true;
    }

    @Override
    public boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId,
                           long matchBits) {
        driver(rank).receive(ctx, driver(source), va, length, wrId, matchBits);
        return true;
    }

    /** Refused: MX has no one-sided operations. */
    @Override
    public boolean put(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length,
                       long wrId) {
        throw refusal();
    }

    /** Refused: MX has no one-sided operations and no memory keys. */
    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        throw refusal();
    }

    /** Refused: MX has no one-sided operations and no memory keys. */
    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        throw refusal();
    }

    private PolicyRefusal refusal() {
        return new PolicyRefusal(name() + " is Open-MX: two-sided sends and receives only (MX has no RDMA put or get)");
    }

    /** Pages pinned on the rank's node by its driver: eager rings and user regions. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        Driver d = drivers.get(rank);
        return d == null ? 0 : d.pinnedPages * Kernel.PAGE_SIZE;
    }

    /** Pinned bytes of the rank's user regions only (eager rings excluded). */
    public long regionPinnedBytes(Endpoint rank) {
        Driver d = drivers.get(rank);
        return d == null ? 0 : (d.pinnedPages - d.ringPages()) * Kernel.PAGE_SIZE;
    }

    /** Unpins and undeclares every region the rank's driver holds, as closing the endpoint does. */
    public void closeEndpoint(Endpoint rank) {
        driver(rank).closeRegions();
    }

    // ------------------------------------------------------------------ placement (workloads)

    /** Where a workload places processes and bottom halves: this policy itself. */
    @Override
    public InterruptPlacement interruptPlacement() {
        return this;
    }

    /**
     * Says that {@code ctx}'s process runs on {@code core} of its node. A process of a rank that
     * no workload placed runs on the core after the interrupt's, one core per rank of the node
     * (rank order), as a lone busy process keeps off the core its NIC's interrupts load.
     */
    @Override
    public void place(ProcessContext ctx, int core) {
        placement.put(ctx.process(), core);
    }

    /** Routes every receive bottom half to {@code core} (003 §4.3: interrupts bound to a single core; core 0 by default). */
    @Override
    public void bindInterrupts(int core) {
        if (core < 0) {
            throw new IllegalArgumentException("interrupt core " + core + " is negative");
        }
        this.steered = false;
        this.interruptCore = core;
    }

    /** Steers each message's bottom halves to the core of the process it belongs to (interrupts spread over the cores). */
    @Override
    public void spreadInterrupts() {
        this.steered = true;
        this.interruptCore = 0;
    }

    int coreOf(ProcessContext ctx, Driver d) {
        Integer c = placement.get(ctx.process());
        return c == null ? d.defaultCore : c;
    }

    /** The Open-MX receive path of {@code core} of {@code node}, where its bottom halves run. */
    ReceivePoll poll(Node node, Core core) {
        int n = node.id();
        if (n >= polls.length) {
            polls = Arrays.copyOf(polls, n + 1);
        }
        if (polls[n] == null) {
            polls[n] = new ReceivePoll[node.cpu().coreCount()];
        }
        ReceivePoll p = polls[n][core.index()];
        if (p == null) {
            p = new ReceivePoll(node.cpu(), core, recvCoalescingPs);
            polls[n][core.index()] = p;
        }
        return p;
    }

    Core coreFor(Driver d, Message m) {
        int c = steered ? m.core : interruptCore;
        return d.rank.node().cpu().core(c % d.rank.node().cpu().coreCount());
    }

    // ------------------------------------------------------------------ counters

    /** Pull replies dropped by an Overlap-Miss so far. */
    public long overlapMisses() {
        return overlapMisses == null ? 0 : overlapMisses.value();
    }

    /** Open-MX packets the bottom halves accepted so far. */
    public long packetsReceived() {
        return received == null ? 0 : received.value();
    }

    /** Pages the drivers pinned so far (every pin counted, repins included). */
    public long pinnedPagesTotal() {
        return pins == null ? 0 : pins.value();
    }

    /** Pages the drivers unpinned so far. */
    public long unpinnedPagesTotal() {
        return unpins == null ? 0 : unpins.value();
    }

    /** Cached regions unpinned by MMU-notifier invalidations so far. */
    public long invalidations() {
        return invalidations == null ? 0 : invalidations.value();
    }

    /**
     * The rendezvous handshakes so far: from the RNDV leaving the sender's driver to the
     * receiver's PULL acted on there (the network round trip before the data moves, plus the
     * receiver's matching and, unless pinning is overlapped, its pinning; 003 §3.3).
     */
    public LatencyHistogram handshakeRtt() {
        return handshakes;
    }

    void handshake(long ps) {
        handshakes.record(ps);
    }

    void overlapMiss() {
        overlapMisses.increment();
    }

    void unpinnedReplyRead() {
        unpinnedReplyReads.increment();
    }

    void received() {
        received.increment();
    }

    void pinned(long pages) {
        pins.add(pages);
    }

    void unpinned(long pages) {
        unpins.add(pages);
    }

    void invalidated() {
        invalidations.increment();
    }

    void pressureUnpin() {
        pressureUnpins.increment();
    }

    void cacheLookup(boolean hit) {
        (hit ? hits : misses).increment();
    }

    // ------------------------------------------------------------------ costs

    long eagerMax() {
        return eagerMax;
    }

    int eagerSlots() {
        return eagerSlots;
    }

    int cacheEntries() {
        return cacheEntries;
    }

    int pinChunkPages() {
        return pinChunkPages;
    }

    long sendPerPacketPs() {
        return sendPerPacketPs;
    }

    long recvPerPacketPs() {
        return recvPerPacketPs;
    }

    long unpinBasePs() {
        return unpinBasePs;
    }

    long pinBasePs() {
        return pinBasePs;
    }

    long copyPs(long bytes) {
        return bytes == 0 ? 0 : copyRate.transferTimePs(bytes);
    }

    TransportConfig transport() {
        return transport;
    }

    Simulator simulator() {
        return sim;
    }

    long now() {
        return sim.now();
    }

    private Driver driver(Endpoint rank) {
        Driver d = drivers.get(rank);
        if (d == null) {
            throw new IllegalStateException("rank " + rank.id() + " was not set up by " + name());
        }
        return d;
    }

    /**
     * Overlap-Misses and packets received over the job, and the region cache's hits and misses
     * for the policy that caches regions.
     */
    @Override
    public long count(Metric metric) {
        Counter c = sim == null ? null : counter(metric);
        return c == null ? NOT_COUNTED : c.value();
    }

    /** The rendezvous handshake's round trip ({@link #handshakeRtt}), in microseconds. */
    @Override
    public double mean(Metric metric) {
        if (metric != Metric.HANDSHAKE_RTT || handshakes == null || handshakes.count() == 0) {
            return Double.NaN;
        }
        return Time.toMicros(Math.round(handshakes.mean()));
    }

    @Override
    public void reset(Metric metric) {
        if (sim == null) {
            return;
        }
        Counter c = counter(metric);
        if (c != null) {
            c.reset();
        } else if (metric == Metric.HANDSHAKE_RTT) {
            handshakes.reset();
        }
    }

    private Counter counter(Metric metric) {
        return switch (metric) {
            case HITS -> hits;
            case MISSES -> misses;
            case OVERLAP_MISSES -> overlapMisses;
            case PACKETS_RECEIVED -> received;
            default -> null;
        };
    }
}
