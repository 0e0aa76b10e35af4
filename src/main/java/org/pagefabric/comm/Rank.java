package org.pagefabric.comm;

import java.util.function.LongSupplier;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.active.ActiveDomain;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.OutstandingRequests;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.FaultTrace;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One process of a job as an application sees it: the calls it makes (write, read, send,
 * receive, await) on its {@link Endpoint}, each asking the job's registration policy for the
 * keys first and charging the policy's work to the rank.
 */
public final class Rank {
    private static final int WRITE = 0;
    /** A write whose keys the application may give for either end; the policy never carries it. */
    private static final int WRITE_KEYED = 1;
    private static final int READ = 2;
    private static final int SEND = 3;
    private static final int RECEIVE = 4;
    /** What {@link #segmentKeyForRawQueues} answers when no region covers the segment. */
    public static final int NO_KEY = -1;
    private static final int DMA_BUF_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final Endpoint endpoint;
    private final RegistrationPolicy policy;
    private final ProcessMemory memory;
    /** What {@link #awaitSend} and {@link #awaitReceive} reaped last, refilled at each await. */
    private final CompletionEntry sent = new CompletionEntry();
    private final CompletionEntry received = new CompletionEntry();
    /** Hears each call when a trace is recorded; null (no cost but a test) otherwise. */
    private RankObserver observer;

    Rank(Endpoint endpoint, RegistrationPolicy policy) {
        this.endpoint = endpoint;
        this.policy = policy;
        this.memory = new ProcessMemory(endpoint.node().kernel(), endpoint.process(), endpoint::hooks);
    }

    /**
     * The endpoint this rank communicates through, for tests of the layers below: theirs is the
     * only use of its protection domain, queue pairs and segment region, so a rank does not repeat
     * them. A workload reaches the endpoint only through this class's calls (ArchitectureTest).
     */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** Rank number. */
    public int id() {
        return endpoint.id();
    }

    /** The node the rank runs on. */
    public Node node() {
        return endpoint.node();
    }

    /** The rank's address space. */
    public AddressSpace process() {
        return endpoint.process();
    }

    /** First address of the communication segment. */
    public long segment() {
        return endpoint.segment();
    }

    /** Bytes in the communication segment. */
    public long segmentLength() {
        return endpoint.segmentLength();
    }

    /**
     * The rank's memory calls (mmap, madvise, loads and stores, content checks): how a workload
     * reaches its process's memory without naming the node's kernel.
     */
    public ProcessMemory memory() {
        return memory;
    }

    /** The rank's C library memory calls with interception hooks (see {@link Endpoint#hooks}). */
    public AllocationHooks hooks() {
        return endpoint.hooks();
    }

    /** Time this rank spent in its registration policy so far, picoseconds. */
    public long policyTimePs() {
        return endpoint.policyTimePs();
    }

    /** Ranks in the job this rank belongs to. */
    public int jobSize() {
        return endpoint.jobSize();
    }

    /** The registration policy. */
    public RegistrationPolicy policy() {
        return policy;
    }

    /**
     * The policy's count of {@code metric} for operations this rank started, or
     * {@link RegistrationPolicy#NOT_COUNTED}.
     */
    public long count(Metric metric) {
        return policy.count(metric, endpoint);
    }

    /**
     * The network page-fault handling at this rank's node, for a policy that offers
     * {@link org.pagefabric.reg.Capability#FAULT_TRACE}; {@code null} otherwise.
     */
    public FaultTrace faultTrace() {
        return policy.faultTrace(endpoint);
    }

    /**
     * Frees a buffer whose ownership the application handed to the library, through the policy
     * (see {@link RegistrationPolicy#free}); returns the time it took, which the caller charges.
     */
    public long free(ProcessContext ctx, long va, long length, LongSupplier free) {
        return policy.free(ctx, endpoint, va, length, free);
    }

    /**
     * Registers {@code length} bytes from {@code offset} of the dma-buf {@code buf} in this rank's
     * protection domain at {@code iova} through {@code registrar}, for local writes and remote
     * reads and writes (as {@code ibv_reg_dmabuf_mr} with those access flags); the caller charges
     * the returned time. The registration is what {@link #write(ProcessContext, Rank,
     * DmaBufRegistrar.Registration, long, DmaBufRegistrar.Registration, long, long, long)} takes
     * for an end in it.
     */
    public DmaBufRegistrar.Registration registerDmaBuf(DmaBufRegistrar registrar, DmaBuf buf, long offset, long length,
                                                       long iova) {
        return registrar.register(endpoint, buf, offset, length, iova, DMA_BUF_ACCESS);
    }

    /**
     * When {@code peer}'s last explicit retransmission request (PART's ERR) on the connection
     * between the two reached this rank's sender, or -1 if none has.
     */
    public long lastRetransmissionRequestPs(Rank peer) {
        return endpoint.qp(peer.id()).lastRetransmissionRequestPs();
    }

    /**
     * A further Active Access domain of this rank's process on {@code aa} (see
     * {@link ActiveAccess#newDomain}): its own IUID and access log; with {@code blockWrites} device
     * writes to its active pages reach only its log.
     */
    public ActiveDomain newActiveDomain(ActiveAccess aa, boolean blockWrites) {
        return aa.newDomain(endpoint, blockWrites);
    }

    /**
     * The IOMMU on the DMA path of this rank's NIC, or {@code null} when the NIC reaches memory
     * without one (its own translation table, or an IOMMU the profile leaves off the NIC's path).
     */
    public Iommu dmaIommu() {
        return endpoint.node().nic().iommuPath() == null ? null : endpoint.node().iommu();
    }

    /** The id under which an IOMMU translates for this rank's protection domain (its PASID). */
    public int pasid() {
        return endpoint.pd().id();
    }

    /** The name of this rank's NIC: the prefix of the NIC's statistics. */
    public String nicName() {
        return endpoint.node().nic().name();
    }

    /**
     * A local key for the whole segment that work requests of the rank's own raw queues
     * ({@link #openDatagramQueue}) can name: with an IOMMU on the NIC's DMA path, a region of the
     * same pages translated through the process page table (the process bound to the IOMMU under
     * its {@link #pasid()} first); otherwise the region the policy registered over the segment up
     * front, or {@link #NO_KEY} when it registers none.
     */
    public int segmentKeyForRawQueues() {
        Node node = endpoint.node();
        if (node.nic().iommuPath() != null) {
            if (node.iommu().bank(pasid()) == null) {
                SharedVirtualAddressing.bind(node.iommu(), pasid(), endpoint.process());
            }
            return node.nic().registerVirtual(endpoint.pd(), endpoint.segment(), endpoint.segmentLength(),
                    AccessFlags.LOCAL_WRITE).lkey();
        }
        MemoryRegion mr = endpoint.segmentRegion();
        return mr == null ? NO_KEY : mr.lkey();
    }

    /**
     * Opens an unreliable-datagram queue pair of the rank's own (see {@link DatagramQueue}), for
     * sending or for receiving datagrams of at most {@code payload} bytes, its completion queue
     * {@code depth} entries deep.
     */
    public DatagramQueue openDatagramQueue(String label, int depth, int payload, boolean sending) {
        return new DatagramQueue(this, label, depth, payload, sending);
    }

    /** Makes {@code o} hear every call this rank makes from now on; {@code null} stops it. */
    public void observe(RankObserver o) {
        this.observer = o;
    }

    /**
     * Posts an RDMA write of {@code length} bytes from segment offset {@code from} to offset
     * {@code to} of {@code target}'s segment; the policy's work is charged first.
     */
    public void write(ProcessContext ctx, Rank target, long from, long to, long length, long wrId) {
        long localVa = endpoint.segment() + from;
        long remoteVa = target.endpoint.segment() + to;
        if (observer != null) {
            observer.write(this, ctx.now(), target, localVa, remoteVa, length, wrId);
        }
        post(ctx, WRITE, target.endpoint, localVa, null, remoteVa, null, length, wrId);
    }

    /**
     * Posts an RDMA write whose ends may lie in regions the application registered itself (a
     * dma-buf region from {@link #registerDmaBuf}): {@code local} and {@code remote} name their
     * keys, and {@code from} and {@code to} are addresses in them (the region's iova); an end
     * given as {@code null} is an offset into the segment, whose key the policy gives as in
     * {@link #write(ProcessContext, Rank, long, long, long, long)}. The policy is not asked to
     * carry the write itself.
     */
    public void write(ProcessContext ctx, Rank target, DmaBufRegistrar.Registration local, long from,
                      DmaBufRegistrar.Registration remote, long to, long length, long wrId) {
        long localVa = local == null ? endpoint.segment() + from : from;
        long remoteVa = remote == null ? target.endpoint.segment() + to : to;
        if (observer != null) {
            observer.write(this, ctx.now(), target, localVa, remoteVa, length, wrId);
        }
        post(ctx, WRITE_KEYED, target.endpoint, localVa, local == null ? null : local.region(), remoteVa,
                remote == null ? null : remote.region(), length, wrId);
    }

    /** Posts an RDMA read of {@code length} bytes from {@code target}'s offset {@code from} to local offset {@code to}. */
    public void read(ProcessContext ctx, Rank target, long from, long to, long length, long wrId) {
        long localVa = endpoint.segment() + to;
        long remoteVa = target.endpoint.segment() + from;
        if (observer != null) {
            observer.read(this, ctx.now(), target, localVa, remoteVa, length, wrId);
        }
        post(ctx, READ, target.endpoint, localVa, null, remoteVa, null, length, wrId);
    }

    /** Posts a send of {@code length} bytes from segment offset {@code from} to {@code target}. */
    public void send(ProcessContext ctx, Rank target, long from, long length, long wrId) {
        send(ctx, target, from, length, wrId, 0);
    }

    /**
     * Posts a send with match bits, for a policy whose messaging stack matches them (MX's match
     * info); to any other it is a plain send (see {@link RegistrationPolicy#send}).
     */
    public void send(ProcessContext ctx, Rank target, long from, long length, long wrId, long matchBits) {
        long localVa = endpoint.segment() + from;
        if (observer != null) {
            observer.send(this, ctx.now(), target, localVa, length, wrId);
        }
        post(ctx, SEND, target.endpoint, localVa, null, 0, null, length, wrId, matchBits);
    }

    /** Posts a receive of up to {@code length} bytes at segment offset {@code to}, from {@code source}. */
    public void receive(ProcessContext ctx, Rank source, long to, long length, long wrId) {
        receive(ctx, source, to, length, wrId, 0);
    }

    /** Posts a receive for messages sent with {@code matchBits} (see {@link #send(ProcessContext, Rank, long, long, long, long)}). */
    public void receive(ProcessContext ctx, Rank source, long to, long length, long wrId, long matchBits) {
        long va = endpoint.segment() + to;
        if (observer != null) {
            observer.receive(this, ctx.now(), source, va, length, wrId);
        }
        post(ctx, RECEIVE, source.endpoint, va, null, 0, null, length, wrId, matchBits);
    }

    /**
     * Registers {@code length} bytes at {@code va} of this rank's address space because the
     * application asks for it (as a trace's {@code register} record does): the policy prepares
     * the range as for an operation on it and hears at once that the operation is over. All of it
     * is the rank's registration time, as the same work before a put is.
     */
    public void register(ProcessContext ctx, long va, long length) {
        long start = ctx.now();
        long cost = policy.local(ctx, endpoint, va, length).costPs();
        endpoint.chargePolicy(cost);
        ctx.sleep(cost);
        policy.completed(ctx, endpoint, endpoint, va, 0, length);
        endpoint.chargeRegistration(ctx.now() - start);
    }

    /**
     * The one way an operation reaches the NIC: it is tracked as outstanding, the policy may carry
     * it itself or gives the keys of the ends it was not given, its work is charged to the rank,
     * the observer hears that it was posted, and the work request goes to the queue pair to
     * {@code peer}.
     *
     * @param op          {@link #WRITE}, {@link #WRITE_KEYED}, {@link #READ}, {@link #SEND} or {@link #RECEIVE}
     * @param localRegion the region whose lkey the local end uses, or {@code null} to ask the policy
     * @param remoteVa    the remote end (writes and reads), else 0
     */
    private void post(ProcessContext ctx, int op, Endpoint peer, long localVa, MemoryRegion localRegion,
                      long remoteVa, MemoryRegion remoteRegion, long length, long wrId) {
        post(ctx, op, peer, localVa, localRegion, remoteVa, remoteRegion, length, wrId, 0);
    }

    private void post(ProcessContext ctx, int op, Endpoint peer, long localVa, MemoryRegion localRegion,
                      long remoteVa, MemoryRegion remoteRegion, long length, long wrId, long matchBits) {
        if (op == RECEIVE) {
            endpoint.trackReceive(wrId, peer, localVa, length);
        } else {
            endpoint.trackSend(wrId, peer, localVa, remoteVa, length);
        }
        long start = ctx.now();
        boolean carried = switch (op) {
            case WRITE -> policy.put(ctx, endpoint, peer, localVa, remoteVa, length, wrId);
            case SEND -> policy.send(ctx, endpoint, peer, localVa, length, wrId, matchBits);
            case RECEIVE -> policy.receive(ctx, endpoint, peer, localVa, length, wrId, matchBits);
            default -> false;
        };
        if (carried) {
            endpoint.chargePolicy(ctx.now() - start);
            endpoint.chargeRegistration(ctx.now() - start);
            posted(start, ctx.now(), wrId);
            return;
        }
        long cost = 0;
        int lkey;
        if (localRegion == null) {
            RegistrationPolicy.Access a = policy.local(ctx, endpoint, localVa, length);
            lkey = a.key();
            cost += a.costPs();
        } else {
            lkey = localRegion.lkey();
        }
        int rkey = 0;
        if (op == WRITE || op == WRITE_KEYED || op == READ) {
            if (remoteRegion == null) {
                RegistrationPolicy.Access a = policy.remote(ctx, endpoint, peer, remoteVa, length);
                rkey = a.key();
                cost += a.costPs();
            } else {
                rkey = remoteRegion.rkey();
            }
        }
        spend(ctx, cost);
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        QueuePair qp = endpoint.qp(peer.id());
        switch (op) {
            case READ -> qp.postSend(WorkRequest.read(wrId, localVa, length, lkey, remoteVa, rkey));
            case SEND -> qp.postSend(WorkRequest.send(wrId, localVa, length, lkey));
            case RECEIVE -> qp.postRecv(WorkRequest.recv(wrId, localVa, length, lkey));
            default -> qp.postSend(WorkRequest.write(wrId, localVa, length, lkey, remoteVa, rkey));
        }
    }

    /** Waits for the next send-queue completion; the policy hears that its operation completed. */
    public CompletionEntry awaitSend(ProcessContext ctx) {
        return reap(ctx, endpoint.sendCq(), endpoint.sends(), true, sent);
    }

    /** Waits for the next receive completion. */
    public CompletionEntry awaitReceive(ProcessContext ctx) {
        return reap(ctx, endpoint.recvCq(), endpoint.receives(), false, received);
    }

    private CompletionEntry reap(ProcessContext ctx, CompletionQueue cq, OutstandingRequests outstanding,
                                 boolean sendQueue, CompletionEntry view) {
        long waitFrom = ctx.now();
        if (observer != null) {
            observer.awaiting(this, waitFrom, sendQueue);
        }
        WorkCompletion wc;
        while ((wc = cq.poll()) == null) {
            ctx.await(cq.notEmpty());
        }
        view.show(wc);
        if (observer != null) {
            observer.reaped(this, waitFrom, ctx.now(), view);
        }
        int op = outstanding.take(wc.wrId());
        if (op != OutstandingRequests.NONE) {
            long start = ctx.now();
            policy.completed(ctx, endpoint, outstanding.peer(op), outstanding.localVa(op),
                    sendQueue ? outstanding.remoteVa(op) : 0, outstanding.length(op));
            endpoint.chargeRegistration(ctx.now() - start);
        }
        return view;
    }

    /** The application computes for {@code ps} picoseconds (a timeline shows it). */
    public void compute(ProcessContext ctx, long ps) {
        long start = ctx.now();
        ctx.sleep(ps);
        if (observer != null) {
            observer.computed(this, start, ctx.now());
        }
    }

    private void posted(long startPs, long endPs, long wrId) {
        if (observer != null) {
            observer.posted(this, startPs, endPs, wrId);
        }
    }

    private void spend(ProcessContext ctx, long ps) {
        if (ps > 0) {
            endpoint.chargePolicy(ps);
            ctx.sleep(ps);
        }
    }
}
