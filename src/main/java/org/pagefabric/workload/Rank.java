package org.pagefabric.workload;

import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.CompletionStatus;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One process of a job: its address space on its node, a communication segment, a protection
 * domain, completion queues and one connected queue pair per peer. Workloads drive it from a
 * process body; the registration policy decides the keys.
 */
public final class Rank {
    /** Page size of the memory model. */
    public static final int PAGE = 4096;

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
    private RegistrationPolicy policy;
    private long policyTimePs;
    private AllocationHooks hooks;

    Rank(int id, Node node, AddressSpace process, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
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

    CompletionQueue sendCq() {
        return sendCq;
    }

    CompletionQueue recvCq() {
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

    void attach(RegistrationPolicy policy) {
        this.policy = policy;
    }

    void chargePolicy(long ps) {
        policyTimePs += ps;
    }

    /**
     * Posts an RDMA write of {@code length} bytes from segment offset {@code from} to offset
     * {@code to} of {@code target}'s segment; the policy's work is charged first.
     */
    public void write(ProcessContext ctx, Rank target, long from, long to, long length, long wrId) {
        track(wrId, target, segment + from, target.segment + to, length);
        long start = ctx.now();
        if (policy.put(ctx, this, target, segment + from, target.segment + to, length, wrId)) {
            policyTimePs += ctx.now() - start;
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, this, segment + from, length);
        RegistrationPolicy.Access remote = policy.remote(ctx, this, target, target.segment + to, length);
        spend(ctx, local.costPs() + remote.costPs());
        qps[target.id].postSend(WorkRequest.write(wrId, segment + from, length, local.key(), target.segment + to,
                remote.key()));
    }

    /** Posts an RDMA read of {@code length} bytes from {@code target}'s offset {@code from} to local offset {@code to}. */
    public void read(ProcessContext ctx, Rank target, long from, long to, long length, long wrId) {
        track(wrId, target, segment + to, target.segment + from, length);
        RegistrationPolicy.Access local = policy.local(ctx, this, segment + to, length);
        RegistrationPolicy.Access remote = policy.remote(ctx, this, target, target.segment + from, length);
        spend(ctx, local.costPs() + remote.costPs());
        qps[target.id].postSend(WorkRequest.read(wrId, segment + to, length, local.key(), target.segment + from,
                remote.key()));
    }

    /** Posts a send of {@code length} bytes from segment offset {@code from} to {@code target}. */
    public void send(ProcessContext ctx, Rank target, long from, long length, long wrId) {
        track(wrId, target, segment + from, 0, length);
        long start = ctx.now();
        if (policy.send(ctx, this, target, segment + from, length, wrId)) {
            policyTimePs += ctx.now() - start;
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, this, segment + from, length);
        spend(ctx, local.costPs());
        qps[target.id].postSend(WorkRequest.send(wrId, segment + from, length, local.key()));
    }

    /** The registration policy. */
    public RegistrationPolicy policy() {
        return policy;
    }

    /** Posts a receive of up to {@code length} bytes at segment offset {@code to}, from {@code source}. */
    public void receive(ProcessContext ctx, Rank source, long to, long length, long wrId) {
        if (receives.put(wrId, new Outstanding(source, segment + to, 0, length)) != null) {
            throw new IllegalArgumentException("receive id " + wrId + " is already posted on rank " + id);
        }
        long start = ctx.now();
        if (policy.receive(ctx, this, source, segment + to, length, wrId)) {
            policyTimePs += ctx.now() - start;
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, this, segment + to, length);
        spend(ctx, local.costPs());
        qps[source.id].postRecv(WorkRequest.recv(wrId, segment + to, length, local.key()));
    }

    /** Waits for the next send-queue completion; the policy hears that its operation completed. */
    public WorkCompletion awaitSend(ProcessContext ctx) {
        WorkCompletion wc = await(ctx, sendCq);
        Outstanding op = outstanding.remove(wc.wrId());
        if (op != null) {
            policy.completed(ctx, this, op.target(), op.localVa(), op.remoteVa(), op.length());
        }
        return wc;
    }

    /** A posted send-queue operation, until its completion is reaped. */
    private record Outstanding(Rank target, long localVa, long remoteVa, long length) {
    }

    private final java.util.Map<Long, Outstanding> outstanding = new java.util.HashMap<>();
    private final java.util.Map<Long, Outstanding> receives = new java.util.HashMap<>();

    /**
     * Delivers the send completion of an operation a policy carries itself (see
     * {@link RegistrationPolicy#put}): it joins the send completion queue like one from the
     * NIC, at the current time.
     *
     * @param wrId   the operation's work request id
     * @param opcode what the operation was, as the workload asked for it
     * @param status its outcome
     * @param bytes  bytes it moved
     * @param nowPs  the current virtual time
     */
    public void completeSend(long wrId, Opcode opcode, CompletionStatus status, long bytes, long nowPs) {
        Outstanding op = outstanding.get(wrId);
        if (op == null) {
            throw new IllegalArgumentException("work request id " + wrId + " is not outstanding on rank " + id);
        }
        int qpn = op.target() == null ? 0 : qps[op.target().id].qpn();
        if (!sendCq.push(new WorkCompletion(wrId, opcode, status, bytes, qpn, nowPs, 0))) {
            throw new IllegalStateException("send completion queue of rank " + id + " overran");
        }
    }

    private void track(long wrId, Rank target, long localVa, long remoteVa, long length) {
        if (outstanding.put(wrId, new Outstanding(target, localVa, remoteVa, length)) != null) {
            throw new IllegalArgumentException("work request id " + wrId + " is already outstanding on rank " + id);
        }
    }

    /**
     * Delivers the receive completion of a message a policy carried itself (see
     * {@link RegistrationPolicy#send}), as the NIC would, at the current time.
     *
     * @param wrId   the receive's work request id
     * @param status its outcome
     * @param bytes  bytes received
     * @param nowPs  the current virtual time
     */
    public void completeReceive(long wrId, CompletionStatus status, long bytes, long nowPs) {
        Outstanding op = receives.get(wrId);
        if (op == null) {
            throw new IllegalArgumentException("receive id " + wrId + " is not posted on rank " + id);
        }
        int qpn = op.target() == null ? 0 : qps[op.target().id].qpn();
        if (!recvCq.push(new WorkCompletion(wrId, Opcode.RECV, status, bytes, qpn, nowPs, 0))) {
            throw new IllegalStateException("receive completion queue of rank " + id + " overran");
        }
    }

    /** Waits for the next receive completion. */
    public WorkCompletion awaitReceive(ProcessContext ctx) {
        WorkCompletion wc = await(ctx, recvCq);
        Outstanding op = receives.remove(wc.wrId());
        if (op != null) {
            policy.completed(ctx, this, op.target(), op.localVa(), 0, op.length());
        }
        return wc;
    }

    private static WorkCompletion await(ProcessContext ctx, CompletionQueue cq) {
        WorkCompletion wc;
        while ((wc = cq.poll()) == null) {
            ctx.await(cq.notEmpty());
        }
        return wc;
    }

    private void spend(ProcessContext ctx, long ps) {
        if (ps > 0) {
            policyTimePs += ps;
            ctx.sleep(ps);
        }
    }
}
