package org.pagefabric.reg;

import java.util.function.LongSupplier;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.node.Node;
import org.pagefabric.sim.process.ProcessContext;

/**
 * How a rank makes its memory reachable by the NIC: the contract every registration policy
 * (pin everything, pin-down cache, Firehose, Open-MX, ODP, PART, Active Access) implements, so
 * that the same workload runs under each and the results compare.
 *
 * <p>A policy is asked, for every buffer an operation touches, for the key to use and the time
 * its own work took (pinning, cache lookups, handshakes); the caller charges that time to the
 * rank before posting the operation.
 */
public interface RegistrationPolicy {
    /** The name used on the command line and in results, e.g. {@code pin-all}. */
    String name();

    /**
     * Prepares a rank once, before it communicates: whatever the policy registers up front.
     *
     * @return the time the preparation took, in picoseconds
     */
    long setUp(Endpoint rank);

    /**
     * Called once every rank is set up, before the workload starts: a policy that talks to its
     * peers (rendezvous, Firehose moves) starts its message handlers here.
     */
    default void start(JobLayout job) {
    }

    /**
     * The local key for {@code [va, va + length)} of {@code rank}. The policy may spend time in
     * {@code ctx} (pinning, waiting for a peer); the returned cost is charged on top.
     */
    Access local(ProcessContext ctx, Endpoint rank, long va, long length);

    /** The remote key of {@code [va, va + length)} at {@code target}, as {@code initiator} knows it. */
    Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length);

    /**
     * Carries out a one-sided put ({@link org.pagefabric.comm.Rank#write}) itself, for a policy whose data does not
     * go in one RDMA write from the user's buffer to the target's (bounce buffers: a copy into a
     * pinned buffer, a transfer between pinned buffers, a copy out at the target).
     *
     * <p>Returns {@code false}, as the default does, to let the rank post the write itself with
     * the keys of {@link #local} and {@link #remote}. Returning {@code true} means the policy
     * took the operation: it must deliver exactly one send completion for {@code wrId} through
     * {@link Endpoint#completeSend} once the data is at its destination; the rank then reaps it and
     * calls {@link #completed} as for any other operation. The time the caller spends in this
     * method is the rank's policy time.
     *
     * @param localVa  the source buffer of {@code initiator}
     * @param remoteVa the destination buffer of {@code target}
     * @return whether the policy carries the put
     */
    default boolean put(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length,
                        long wrId) {
        return false;
    }

    /**
     * Carries out a two-sided send ({@link org.pagefabric.comm.Rank#send}) itself, like {@link #put}: {@code false},
     * the default, lets the rank post it with the key of {@link #local}; {@code true} means the
     * policy delivers the message into a receive the target posted (one that the policy took
     * through {@link #receive}) and reports the send's completion through
     * {@link Endpoint#completeSend}, the receive's through {@link Endpoint#completeReceive}.
     */
    default boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId) {
        return false;
    }

    /**
     * Takes a receive ({@link org.pagefabric.comm.Rank#receive}) itself: {@code false}, the default, lets the rank
     * post it to its NIC with the key of {@link #local}; {@code true} means the policy holds it
     * for the messages it carries by {@link #send}.
     */
    default boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId) {
        return false;
    }

    /**
     * {@link #send} with match bits, as a messaging stack with matching of its own (MX's match
     * info) carries them: the message goes to the oldest receive from the initiator posted with
     * the same bits. A policy whose sends go to the NIC's receive queue, in posting order, ignores
     * them, as the default does.
     */
    default boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId,
                         long matchBits) {
        return send(ctx, initiator, target, localVa, length, wrId);
    }

    /** {@link #receive} for messages sent with {@code matchBits} (see the matching {@code send}). */
    default boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId,
                            long matchBits) {
        return receive(ctx, rank, source, va, length, wrId);
    }

    /**
     * An operation that used those keys completed (its completion was reaped): a policy that
     * unpins after each transfer, or releases a reference, does it here. Called for every
     * send-queue operation and every receive.
     *
     * @param target   the peer (the source, for a receive), or {@code null} for a purely local operation
     * @param localVa  the local buffer
     * @param remoteVa the remote buffer (0 for two-sided operations)
     * @param length   the length asked of {@link #local} (a receive's posted length)
     */
    default void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length) {
    }

    /**
     * The library frees a buffer whose ownership the application handed to it (a buffer freed on
     * the transfer's completion, {@code MPI_Free_mem}): {@code free} makes the allocator's call
     * and returns its time. The default just calls it; a policy with a lock of its own may take
     * it around the call.
     *
     * @return the time it took, picoseconds (the caller charges it)
     */
    default long free(ProcessContext ctx, Endpoint rank, long va, long length, LongSupplier free) {
        return free.getAsLong();
    }

    /** Pinned bytes this policy holds on {@code rank}'s node now. */
    long pinnedBytes(Endpoint rank);

    /** What {@link #count} answers for a metric the policy does not publish. */
    long NOT_COUNTED = -1;

    /**
     * The policy's count of {@code metric} (a {@link Metric.Kind#COUNT}) over the whole job so
     * far, or {@link #NOT_COUNTED}: how a workload reads what a policy publishes, by a typed key.
     */
    default long count(Metric metric) {
        return NOT_COUNTED;
    }

    /** The policy's count of {@code metric} for operations {@code rank} started, or {@link #NOT_COUNTED}. */
    default long count(Metric metric, Endpoint rank) {
        return NOT_COUNTED;
    }

    /**
     * The policy's mean of {@code metric} (a {@link Metric.Kind#MEAN}) over the whole job so far,
     * in microseconds; {@link Double#NaN} if the policy does not publish it or has no sample yet.
     */
    default double mean(Metric metric) {
        return Double.NaN;
    }

    /**
     * Restarts the job-wide count or mean of {@code metric} from zero, so that what a workload
     * reads of it afterwards describes its timed part only, not the warm-up before it; nothing if
     * the policy does not publish it. Counts per rank and the policy's state are left alone.
     */
    default void reset(Metric metric) {
    }

    /**
     * Whether the policy relies on the memory it reaches being resident before each transfer (as
     * 000 Table I's Transfer-Only and Touch-Pres do): a workload that makes pages non-present
     * leaves this policy's destination pages alone.
     */
    default boolean expectsResidentPages() {
        return false;
    }

    /**
     * Placement of the policy's processes and receive interrupts on cores, for a policy whose
     * descriptor offers {@link Capability#INTERRUPT_PLACEMENT}; {@code null} otherwise.
     */
    default InterruptPlacement interruptPlacement() {
        return null;
    }

    /**
     * The on-demand-paging driver of {@code node} the policy registers memory with, attached to
     * the node's NIC on first use, for a policy whose descriptor offers
     * {@link Capability#ON_DEMAND_PAGING}; {@code null} otherwise.
     */
    default OnDemandPaging onDemandPaging(Node node) {
        return null;
    }

    /**
     * How the policy registers dma-bufs on {@code node} ({@code ibv_reg_dmabuf_mr}), for a policy
     * whose descriptor offers {@link Capability#DMA_BUF}; {@code null} otherwise.
     */
    default DmaBufRegistrar dmaBuf(Node node) {
        return null;
    }

    /**
     * The network page-fault handling at {@code rank}'s node, for a policy whose descriptor offers
     * {@link Capability#FAULT_TRACE}; {@code null} otherwise or before the rank is set up.
     */
    default FaultTrace faultTrace(Endpoint rank) {
        return null;
    }

    /**
     * The Active Access (access logs and their handlers) the policy gives the ranks it set up,
     * for a policy whose descriptor offers {@link Capability#ACCESS_LOG}; {@code null} otherwise.
     */
    default ActiveAccess activeAccess() {
        return null;
    }

    /**
     * A key and the time spent obtaining it.
     *
     * @param key    the memory key to put in the work request
     * @param costPs time the policy's work took, in picoseconds
     */
    record Access(int key, long costPs) {
    }
}
