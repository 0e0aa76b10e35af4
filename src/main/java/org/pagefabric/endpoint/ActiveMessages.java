package org.pagefabric.endpoint;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import org.agrona.collections.Long2ObjectHashMap;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/**
 * Active messages between the ranks of a job, as GASNet and the seeds' runtimes use them for
 * handshakes (rendezvous, Firehose move requests): a small request runs a handler at the target,
 * whose value comes back in a reply.
 *
 * <p>They really travel: every pair of ranks has its own RC queue pair, every rank a small
 * pinned message region with receive buffers posted, and a server process that takes incoming
 * requests, runs their handler (which may spend time) and sends the reply. A request costs what
 * the network, the NICs and the handler cost, plus the messaging library's host software at each
 * end of each message ({@code am.message_overhead}: the sender builds the message and hands it
 * over, the receiver's server takes it and dispatches it), which is what separates the NIC's
 * latency from the request/reply time a runtime sees (004 §4.3: "the messaging overhead for the
 * Active Message and other GM/GASNet overheads"). The receive side is the server's time, so
 * messages arriving together are dispatched one after another.
 */
public final class ActiveMessages {
    /** Bytes of one message: handler, request id, reply flag and four arguments. */
    public static final int MESSAGE_BYTES = 64;
    private static final int RECEIVES_PER_PEER = 16;
    private static final int SEND_SLOTS = 256;
    private static final int REQUEST = 0;
    private static final int REPLY = 1;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Code that runs at the target of a request. */
    @FunctionalInterface
    public interface Handler {
        /**
         * Handles a request in the target's active-message server process.
         *
         * @return the value sent back in the reply
         */
        long handle(ProcessContext ctx, Endpoint target, Endpoint source, long a0, long a1, long a2, long a3);
    }

    /**
     * Suffix of the count of received active messages that name no handler, which a run that
     * ends with processes waiting reports as its reason.
     */
    public static final String GARBLED = ".garbledMessages";

    private final JobLayout job;
    /** Host software time per message at each end, picoseconds. */
    private final long overheadPs;
    private final Handler[] handlers = new Handler[64];
    private final Port[] endpoints;

    /** One rank's side: its message region, queue pairs, completion queue and pending requests. */
    private final class Port {
        final Endpoint rank;
        final long base;
        final MemoryRegion region;
        final CompletionQueue cq;
        final QueuePair[] qps;
        /** Requests awaiting their reply, by request id. */
        final Long2ObjectHashMap<Completion> pending = new Long2ObjectHashMap<>();
        /** Reply completions not in use: a request takes one and gives it back when the reply came. */
        final ArrayDeque<Completion> idle = new ArrayDeque<>();
        final byte[] buf = new byte[MESSAGE_BYTES];
        /** The message the server is handling; the server is the only process that reads it. */
        final byte[] received = new byte[MESSAGE_BYTES];
        long nextRequest = 1;
        long nextSend;
        long sendsPosted;
        long sendsDone;

        Port(Endpoint rank, int ranks) {
            this.rank = rank;
            Kernel k = rank.node().kernel();
            long bytes = (long) (SEND_SLOTS + RECEIVES_PER_PEER * ranks) * MESSAGE_BYTES;
            long length = Math.ceilDiv(bytes, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
            base = k.mmap(rank.process(), 0, length, Prot.READ_WRITE, MapFlags.POPULATE).address();
            int pages = (int) (length / Kernel.PAGE_SIZE);
            if (job.cluster().profile().flag(NicParameters.REGISTER_DONTFORK)) {
                // the messaging layer registers its buffers through ibv_reg_mr like the application's
                rank.process().dontforkRanges().dontfork(base, length);
            }
            PinResult pin = k.getUserPages(rank.process(), base, pages, true);
            if (!pin.complete()) {
                throw new SimulationException("rank " + rank.id() + ": cannot pin the active-message region");
            }
            region = rank.node().nic().registerPinned(rank.pd(), base, length, AccessFlags.LOCAL_WRITE, pin.frames());
            cq = new CompletionQueue(rank.node().name() + "." + label + ".cq", 1 << 14);
            qps = new QueuePair[ranks];
        }

        long receiveBuffer(int peer, int i) {
            return base + (long) (SEND_SLOTS + peer * RECEIVES_PER_PEER + i) * MESSAGE_BYTES;
        }
    }

    private final String label;

    private ActiveMessages(JobLayout job, String label) {
        this.job = job;
        this.label = label;
        this.overheadPs = job.cluster().profile().time(ActiveMessageParameters.MESSAGE_OVERHEAD);
        int n = job.endpoints().size();
        endpoints = new Port[n];
        for (int i = 0; i < n; i++) {
            endpoints[i] = new Port(job.endpoint(i), n);
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Port a = endpoints[i];
                Port b = endpoints[j];
                a.qps[j] = a.rank.node().nic().createQp(a.rank.pd(), QpType.RC, a.cq, a.cq);
                b.qps[i] = b.rank.node().nic().createQp(b.rank.pd(), QpType.RC, b.cq, b.cq);
                Nic.connect(a.qps[j], b.qps[i], job.cluster().transport());
            }
        }
        for (Port e : endpoints) {
            for (int peer = 0; peer < n; peer++) {
                if (e.qps[peer] != null) {
                    for (int i = 0; i < RECEIVES_PER_PEER; i++) {
                        postReceive(e, peer, i);
                    }
                }
            }
            new SimProcess(job.simulator(), e.rank.node(), "rank" + e.rank.id() + "-" + label, ctx -> serve(ctx, e)).daemon().start();
        }
    }

    /**
     * The job's registration-policy active messages, set up for every rank with their servers
     * started on the first call; later calls share them, so that a policy composed of others
     * (copy below a size, register above) runs its parts' handlers side by side, each under the
     * handler ids its package reserves.
     */
    public static ActiveMessages attach(JobLayout job) {
        if (job.policyMessages == null) {
            job.policyMessages = new ActiveMessages(job, "am");
        }
        return job.policyMessages;
    }

    /**
     * Sets up a second, independent set of active messages (its own queue pairs, regions and
     * servers) beside a policy's, for a workload's own protocol (a barrier).
     *
     * @param label names its components, e.g. {@code barrier}; unique per job
     */
    public static ActiveMessages attach(JobLayout job, String label) {
        return new ActiveMessages(job, label);
    }

    /** Installs the handler for {@code id} (0..63). */
    public void register(int id, Handler handler) {
        if (id < 0 || id >= handlers.length) {
            throw new IllegalArgumentException("handler id " + id + " is not in 0.." + (handlers.length - 1));
        }
        if (handlers[id] != null) {
            throw new IllegalStateException("handler id " + id + " is taken");
        }
        handlers[id] = handler;
    }

    /**
     * Sends a request from {@code source} to {@code target}, runs handler {@code id} there, and
     * waits for the reply; returns the handler's value.
     */
    public long request(ProcessContext ctx, Endpoint source, Endpoint target, int id, long a0, long a1, long a2, long a3) {
        if (handlers[id] == null) {
            throw new IllegalArgumentException("no handler " + id);
        }
        Port e = endpoints[source.id()];
        long req = e.nextRequest++;
        Completion reply = e.idle.pollFirst();
        if (reply == null) {
            reply = new Completion("rank" + e.rank.id() + "." + label + ".reply");
        }
        e.pending.put(req, reply);
        send(ctx, e, target.id(), REQUEST, id, req, a0, a1, a2, a3);
        long value = ctx.await(reply);
        reply.reset();
        e.idle.addFirst(reply);
        return value;
    }

    private void send(ProcessContext ctx, Port e, int peer, int kind, int handler, long req, long a0, long a1, long a2,
                      long a3) {
        // The library's time comes first: the message is built and posted in one step after it,
        // so processes sharing this endpoint never interleave inside the send slot.
        if (overheadPs > 0) {
            ctx.sleep(overheadPs);
        }
        if (e.sendsPosted - e.sendsDone >= SEND_SLOTS) {
            throw new SimulationException("rank " + e.rank.id() + ": more than " + SEND_SLOTS
                    + " active messages in flight");
        }
        long slot = e.base + (e.nextSend++ % SEND_SLOTS) * MESSAGE_BYTES;
        byte[] m = e.buf;
        LONG.set(m, 0, ((long) kind << 32) | handler);
        LONG.set(m, 8, req);
        LONG.set(m, 16, a0);
        LONG.set(m, 24, a1);
        LONG.set(m, 32, a2);
        LONG.set(m, 40, a3);
        e.rank.node().kernel().write(e.rank.process(), slot, m, 0, MESSAGE_BYTES);
        e.sendsPosted++;
        e.qps[peer].postSend(WorkRequest.send(req, slot, MESSAGE_BYTES, e.region.lkey()));
    }

    private void postReceive(Port e, int peer, int i) {
        long id = ((long) peer << 32) | i;
        e.qps[peer].postRecv(WorkRequest.recv(id, e.receiveBuffer(peer, i), MESSAGE_BYTES, e.region.lkey()));
    }

    /** The server: takes completions of this rank's active-message queue pairs forever. */
    private void serve(ProcessContext ctx, Port e) {
        while (true) {
            WorkCompletion wc;
            while ((wc = e.cq.poll()) == null) {
                ctx.await(e.cq.notEmpty());
            }
            if (wc.status() != CompletionStatus.SUCCESS) {
                throw new SimulationException("rank " + e.rank.id() + ": active message failed: " + wc.status());
            }
            if (wc.opcode() != Opcode.RECV) {
                e.sendsDone++;
                continue;
            }
            int peer = (int) (wc.wrId() >>> 32);
            int i = (int) wc.wrId();
            byte[] m = e.received;
            e.rank.node().kernel().read(e.rank.process(), e.receiveBuffer(peer, i), m, 0, MESSAGE_BYTES);
            postReceive(e, peer, i);
            if (overheadPs > 0) {
                ctx.sleep(overheadPs);
            }
            long head = (long) LONG.get(m, 0);
            long req = (long) LONG.get(m, 8);
            if ((int) (head >>> 32) == REPLY) {
                Completion c = e.pending.remove(req);
                if (c != null) {
                    c.complete((long) LONG.get(m, 16));
                }
                continue;
            }
            Handler h = (int) head >= 0 && (int) head < handlers.length ? handlers[(int) head] : null;
            if (h == null) {
                // The NIC sent bytes the sender's CPU did not write (its message buffer's registration
                // is stale): dropped unanswered, so the requester waits, and the run ends stuck with
                // this count as its reason. Declared on first use: runs without one publish nothing new.
                job.simulator().statistics().counter(e.rank.node().name() + "." + label + GARBLED, "messages",
                        "active messages naming no handler: the sender's buffer held other bytes than it wrote")
                        .increment();
                continue;
            }
            long value = h.handle(ctx, e.rank, job.endpoint(peer), (long) LONG.get(m, 16), (long) LONG.get(m, 24),
                    (long) LONG.get(m, 32), (long) LONG.get(m, 40));
            send(ctx, e, peer, REPLY, (int) head, req, value, 0, 0, 0);
        }
    }
}
