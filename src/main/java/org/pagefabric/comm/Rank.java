package org.pagefabric.comm;

import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.OutstandingRequests;
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
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One process of a job as an application sees it: the calls it makes (write, read, send,
 * receive, await) on its {@link Endpoint}, each asking the job's registration policy for the
 * keys first and charging the policy's work to the rank.
 */
public final class Rank {

    private final Endpoint endpoint;
    private final RegistrationPolicy policy;
    /** Hears each call when a trace is recorded; null (no cost but a test) otherwise. */
    private RankObserver observer;

    Rank(Endpoint endpoint, RegistrationPolicy policy) {
        this.endpoint = endpoint;
        this.policy = policy;
    }

    /** The endpoint this rank communicates through. */
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

    /** The rank's protection domain. */
    public ProtectionDomain pd() {
        return endpoint.pd();
    }

    /** First address of the communication segment. */
    public long segment() {
        return endpoint.segment();
    }

    /** Bytes in the communication segment. */
    public long segmentLength() {
        return endpoint.segmentLength();
    }

    /** The rank's C library memory calls with interception hooks (see {@link Endpoint#hooks}). */
    public AllocationHooks hooks() {
        return endpoint.hooks();
    }

    /** The region covering the whole segment, for policies that register it once. */
    public MemoryRegion segmentRegion() {
        return endpoint.segmentRegion();
    }

    /** Time this rank spent in its registration policy so far, picoseconds. */
    public long policyTimePs() {
        return endpoint.policyTimePs();
    }

    /** Ranks in the job this rank belongs to. */
    public int jobSize() {
        return endpoint.jobSize();
    }

    /** The queue pair connected to {@code peer}. */
    public QueuePair qp(int peer) {
        return endpoint.qp(peer);
    }

    /** The registration policy. */
    public RegistrationPolicy policy() {
        return policy;
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
        if (observer != null) {
            observer.write(this, ctx.now(), target, endpoint.segment() + from, target.segment() + to, length, wrId);
        }
        Endpoint t = target.endpoint;
        long localVa = endpoint.segment() + from;
        long remoteVa = t.segment() + to;
        endpoint.trackSend(wrId, t, localVa, remoteVa, length);
        long start = ctx.now();
        if (policy.put(ctx, endpoint, t, localVa, remoteVa, length, wrId)) {
            endpoint.chargePolicy(ctx.now() - start);
            endpoint.chargeRegistration(ctx.now() - start);
            posted(start, ctx.now(), wrId);
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, endpoint, localVa, length);
        RegistrationPolicy.Access remote = policy.remote(ctx, endpoint, t, remoteVa, length);
        spend(ctx, local.costPs() + remote.costPs());
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        endpoint.qp(t.id()).postSend(WorkRequest.write(wrId, localVa, length, local.key(), remoteVa, remote.key()));
    }

    /**
     * Posts an RDMA write whose ends may lie in regions the application registered itself (a
     * dma-buf region from {@link org.pagefabric.reg.DmaBufRegistrar}): {@code local} and
     * {@code remote} name their keys, and {@code from} and {@code to} are addresses in them (the
     * region's iova); an end given as {@code null} is an offset into the segment, whose key the
     * policy gives as in {@link #write}.
     */
    public void write(ProcessContext ctx, Rank target, MemoryRegion local, long from, MemoryRegion remote, long to,
                      long length, long wrId) {
        Endpoint t = target.endpoint;
        long localVa = local == null ? endpoint.segment() + from : from;
        long remoteVa = remote == null ? t.segment() + to : to;
        if (observer != null) {
            observer.write(this, ctx.now(), target, localVa, remoteVa, length, wrId);
        }
        endpoint.trackSend(wrId, t, localVa, remoteVa, length);
        long start = ctx.now();
        long cost = 0;
        int lkey;
        int rkey;
        if (local == null) {
            RegistrationPolicy.Access a = policy.local(ctx, endpoint, localVa, length);
            lkey = a.key();
            cost += a.costPs();
        } else {
            lkey = local.lkey();
        }
        if (remote == null) {
            RegistrationPolicy.Access a = policy.remote(ctx, endpoint, t, remoteVa, length);
            rkey = a.key();
            cost += a.costPs();
        } else {
            rkey = remote.rkey();
        }
        spend(ctx, cost);
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        endpoint.qp(t.id()).postSend(WorkRequest.write(wrId, localVa, length, lkey, remoteVa, rkey));
    }

    /** Posts an RDMA read of {@code length} bytes from {@code target}'s offset {@code from} to local offset {@code to}. */
    public void read(ProcessContext ctx, Rank target, long from, long to, long length, long wrId) {
        if (observer != null) {
            observer.read(this, ctx.now(), target, endpoint.segment() + to, target.segment() + from, length, wrId);
        }
        Endpoint t = target.endpoint;
        long localVa = endpoint.segment() + to;
        long remoteVa = t.segment() + from;
        endpoint.trackSend(wrId, t, localVa, remoteVa, length);
        long start = ctx.now();
        RegistrationPolicy.Access local = policy.local(ctx, endpoint, localVa, length);
        RegistrationPolicy.Access remote = policy.remote(ctx, endpoint, t, remoteVa, length);
        spend(ctx, local.costPs() + remote.costPs());
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        endpoint.qp(t.id()).postSend(WorkRequest.read(wrId, localVa, length, local.key(), remoteVa, remote.key()));
    }

    /** Posts a send of {@code length} bytes from segment offset {@code from} to {@code target}. */
    public void send(ProcessContext ctx, Rank target, long from, long length, long wrId) {
        if (observer != null) {
            observer.send(this, ctx.now(), target, endpoint.segment() + from, length, wrId);
        }
        Endpoint t = target.endpoint;
        long localVa = endpoint.segment() + from;
        endpoint.trackSend(wrId, t, localVa, 0, length);
        long start = ctx.now();
        if (policy.send(ctx, endpoint, t, localVa, length, wrId)) {
            endpoint.chargePolicy(ctx.now() - start);
            endpoint.chargeRegistration(ctx.now() - start);
            posted(start, ctx.now(), wrId);
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, endpoint, localVa, length);
        spend(ctx, local.costPs());
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        endpoint.qp(t.id()).postSend(WorkRequest.send(wrId, localVa, length, local.key()));
    }

    /** Posts a receive of up to {@code length} bytes at segment offset {@code to}, from {@code source}. */
    public void receive(ProcessContext ctx, Rank source, long to, long length, long wrId) {
        if (observer != null) {
            observer.receive(this, ctx.now(), source, endpoint.segment() + to, length, wrId);
        }
        Endpoint s = source.endpoint;
        long va = endpoint.segment() + to;
        endpoint.trackReceive(wrId, s, va, length);
        long start = ctx.now();
        if (policy.receive(ctx, endpoint, s, va, length, wrId)) {
            endpoint.chargePolicy(ctx.now() - start);
            endpoint.chargeRegistration(ctx.now() - start);
            posted(start, ctx.now(), wrId);
            return;
        }
        RegistrationPolicy.Access local = policy.local(ctx, endpoint, va, length);
        spend(ctx, local.costPs());
        endpoint.chargeRegistration(ctx.now() - start);
        posted(start, ctx.now(), wrId);
        endpoint.qp(s.id()).postRecv(WorkRequest.recv(wrId, va, length, local.key()));
    }

    /** Waits for the next send-queue completion; the policy hears that its operation completed. */
    public WorkCompletion awaitSend(ProcessContext ctx) {
        long waitFrom = ctx.now();
        if (observer != null) {
            observer.awaiting(this, waitFrom, true);
        }
        WorkCompletion wc = await(ctx, endpoint.sendCq());
        if (observer != null) {
            observer.reaped(this, waitFrom, ctx.now(), wc);
        }
        OutstandingRequests sends = endpoint.sends();
        int op = sends.take(wc.wrId());
        if (op != OutstandingRequests.NONE) {
            long start = ctx.now();
            policy.completed(ctx, endpoint, sends.peer(op), sends.localVa(op), sends.remoteVa(op), sends.length(op));
            endpoint.chargeRegistration(ctx.now() - start);
        }
        return wc;
    }

    /** Waits for the next receive completion. */
    public WorkCompletion awaitReceive(ProcessContext ctx) {
        long waitFrom = ctx.now();
        if (observer != null) {
            observer.awaiting(this, waitFrom, false);
        }
        WorkCompletion wc = await(ctx, endpoint.recvCq());
        if (observer != null) {
            observer.reaped(this, waitFrom, ctx.now(), wc);
        }
        OutstandingRequests receives = endpoint.receives();
        int op = receives.take(wc.wrId());
        if (op != OutstandingRequests.NONE) {
            long start = ctx.now();
            policy.completed(ctx, endpoint, receives.peer(op), receives.localVa(op), 0, receives.length(op));
            endpoint.chargeRegistration(ctx.now() - start);
        }
        return wc;
    }

    /** See {@link Endpoint#completeSend}. */
    public void completeSend(long wrId, Opcode opcode, CompletionStatus status, long bytes, long nowPs) {
        endpoint.completeSend(wrId, opcode, status, bytes, nowPs);
    }

    /** See {@link Endpoint#completeReceive}. */
    public void completeReceive(long wrId, CompletionStatus status, long bytes, long nowPs) {
        endpoint.completeReceive(wrId, status, bytes, nowPs);
    }

    private static WorkCompletion await(ProcessContext ctx, CompletionQueue cq) {
        WorkCompletion wc;
        while ((wc = cq.poll()) == null) {
            ctx.await(cq.notEmpty());
        }
        return wc;
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
