package org.pagefabric.endpoint;

import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;

/**
 * One process's endpoint on its node: its address space, a communication segment, a protection
 * domain, completion queues and one connected queue pair per peer, and the work requests
 * outstanding on it. The registration policy and the communication calls are layered above.
 */
public final class Endpoint {

    private final int id;
    private final Node node;
    private final AddressSpace process;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final QueuePair[] qps;
    private final long segment;
    private final long segmentLength;
    private MemoryRegion segmentRegion;
    private long policyTimePs;
    private long registrationPs;
    private AllocationHooks hooks;
    private final OutstandingRequests sends = new OutstandingRequests();
    private final OutstandingRequests receives = new OutstandingRequests();

    Endpoint(int id, Node node, AddressSpace process, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
         int ranks, long segment, long segmentLength) {
        this.id = id;
        this.node = node;
        this.process = process;
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.qps = new QueuePair[ranks];
        this.segment = segment;
        this.segmentLength = segmentLength;
    }

    /** Rank number. */
    public int id() {
        return id;
    }

    /** The node the rank runs on. */
    public Node node() {
        return node;
    }

    /** The rank's address space. */
    public AddressSpace process() {
        return process;
    }

    /** The rank's protection domain. */
    public ProtectionDomain pd() {
        return pd;
    }

    /** First address of the communication segment. */
    public long segment() {
        return segment;
    }

    /** Bytes in the communication segment. */
    public long segmentLength() {
        return segmentLength;
    }

    /**
     * The rank's C library memory calls with interception hooks, created on first use: one per
     * process, so that a dynamically linked allocator calls through the same hooks a
     * registration cache listens to (as UCX's UCM patches the process's one libc).
     */
    public AllocationHooks hooks() {
        if (hooks == null) {
            hooks = new AllocationHooks(node.kernel(), process);
        }
        return hooks;
    }

    /** The region covering the whole segment, for policies that register it once. */
    public MemoryRegion segmentRegion() {
        return segmentRegion;
    }

    /** Records the region a policy registered over the whole segment. */
    public void setSegmentRegion(MemoryRegion mr) {
        this.segmentRegion = mr;
    }

    /** Time this rank spent in its registration policy so far, picoseconds. */
    public long policyTimePs() {
        return policyTimePs;
    }

    /** The send completion queue. */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /** The receive completion queue. */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /** Ranks in the job this rank belongs to. */
    public int jobSize() {
        return qps.length;
    }

    /** The queue pair connected to {@code peer}. */
    public QueuePair qp(int peer) {
        return qps[peer];
    }

    void setQp(int peer, QueuePair qp) {
        qps[peer] = qp;
    }

    /**
     * Time this rank's own core spent in the registration path of its operations once set up:
     * from handing an operation to the policy to posting it (costs charged and any wait for a
     * handshake), and in the policy's completion work, picoseconds.
     */
    public long registrationPs() {
        return registrationPs;
    }

    /** Adds {@code ps} to {@link #registrationPs()}. */
    public void chargeRegistration(long ps) {
        registrationPs += ps;
    }

    /** Adds {@code ps} to the time this rank spent in its registration policy. */
    public void chargePolicy(long ps) {
        policyTimePs += ps;
    }

    /**
     * Records a send-queue operation as outstanding until it is taken from {@link #sends()}.
     *
     * @param target the peer, or {@code null} for a purely local operation
     * @throws IllegalArgumentException if {@code wrId} is already outstanding
     */
    public void trackSend(long wrId, Endpoint target, long localVa, long remoteVa, long length) {
        if (!sends.add(wrId, target, localVa, remoteVa, length)) {
            throw new IllegalArgumentException("work request id " + wrId + " is already outstanding on rank " + id);
        }
    }

    /**
     * Records a posted receive until it is taken from {@link #receives()}.
     *
     * @throws IllegalArgumentException if {@code wrId} is already posted
     */
    public void trackReceive(long wrId, Endpoint source, long va, long length) {
        if (!receives.add(wrId, source, va, 0, length)) {
            throw new IllegalArgumentException("receive id " + wrId + " is already posted on rank " + id);
        }
    }

    /** The send-queue operations outstanding on this endpoint; reaping one is {@link OutstandingRequests#take}. */
    public OutstandingRequests sends() {
        return sends;
    }

    /** The receives posted on this endpoint; reaping one is {@link OutstandingRequests#take}. */
    public OutstandingRequests receives() {
        return receives;
    }

    /**
     * Delivers the send completion of an operation a registration policy carries itself: it
     * joins the send completion queue like one from the NIC, at the current time.
     *
     * @param wrId   the operation's work request id
     * @param opcode what the operation was, as the workload asked for it
     * @param status its outcome
     * @param bytes  bytes it moved
     * @param nowPs  the current virtual time
     */
    public void completeSend(long wrId, Opcode opcode, CompletionStatus status, long bytes, long nowPs) {
        int op = sends.find(wrId);
        if (op == OutstandingRequests.NONE) {
            throw new IllegalArgumentException("work request id " + wrId + " is not outstanding on rank " + id);
        }
        int qpn = qpnTo(sends.peer(op));
        if (!sendCq.push(new WorkCompletion(wrId, opcode, status, bytes, qpn, nowPs, 0))) {
            throw new IllegalStateException("send completion queue of rank " + id + " overran");
        }
    }

    /**
     * Delivers the receive completion of a message a registration policy carried itself, as the
     * NIC would, at the current time.
     *
     * @param wrId   the receive's work request id
     * @param status its outcome
     * @param bytes  bytes received
     * @param nowPs  the current virtual time
     */
    public void completeReceive(long wrId, CompletionStatus status, long bytes, long nowPs) {
        int op = receives.find(wrId);
        if (op == OutstandingRequests.NONE) {
            throw new IllegalArgumentException("receive id " + wrId + " is not posted on rank " + id);
        }
        int qpn = qpnTo(receives.peer(op));
        if (!recvCq.push(new WorkCompletion(wrId, Opcode.RECV, status, bytes, qpn, nowPs, 0))) {
            throw new IllegalStateException("receive completion queue of rank " + id + " overran");
        }
    }

    /** The number of this endpoint's queue pair to {@code peer}, or 0 for a local operation. */
    private int qpnTo(Endpoint peer) {
        return peer == null ? 0 : qps[peer.id].qpn();
    }
}
