package org.pagefabric.comm.rma;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * Remote memory operations of light processes, carried as datagrams over the simulated network,
 * as 002 §5.2 emulates RMA at the scale of its evaluation (1024 processes, 32 per node, no queue
 * pairs): a put or a message is one datagram, an atomic or a get a request and a reply, and data
 * longer than a packet travels as several datagrams whose payload holds the real words. The
 * target NIC performs atomics in its atomic unit ({@code AtomicUnit}: a DMA read round trip to host memory
 * each; atomics on the same word one after another, on different words side by side), DMA-reads
 * what a get returns, and DMA-writes puts and messages into host memory. Links, switches and their contention are the cluster's own; this class adds only the
 * NIC-side steps, with costs from {@link DatagramCosts}.
 *
 * <p>Process {@code r} runs on node {@code r / processesPerNode}; datagrams are addressed to a
 * node and carry the target and source process. What the operations do to memory is the
 * application's ({@link Target}): the hashtable's volumes, the applications' counters, logs and
 * data. Puts are acknowledged when {@code acknowledgedPuts} says so, so that {@link #flush} can
 * wait for them; a flush also waits for acknowledged word transfers. Per-operation state lives in
 * primitive {@link Slots}, so the steady state allocates nothing.
 */
public final class DatagramRma extends Component {
    /** Remote compare-and-swap: a = compare, b = swap. */
    public static final int CAS = 1;
    /** Remote fetch-and-op SUM: a = addend. */
    public static final int FETCH_ADD = 2;
    /** Remote fetch-and-op REPLACE: a = new value. */
    public static final int SWAP = 3;
    /** {@link Target#replyDelay}: send the get's reply in the event that read the data. */
    public static final long REPLY_NOW = -1;
    /** {@link Target#replyDelay}: the application holds the reply and sends it with {@link #replyAfter}. */
    public static final long HOLD = -2;

    private static final int ATOMIC_REPLY = 4;
    private static final int PUT = 5;
    private static final int ACK = 6;
    private static final int MESSAGE = 7;
    private static final int GET = 8;
    private static final int GET_REPLY = 9;
    /** Opcode of a piece of a word transfer of kind k: {@code WORDS + k}. */
    private static final int WORDS = 16;

    private static final int EV_ATOMIC = 1;
    private static final int EV_PUT = 2;
    private static final int EV_MESSAGE = 3;
    private static final int EV_READ = 4;
    private static final int EV_REPLY = 5;
    private static final int EV_GET_DONE = 6;

    /** What the application does with what reaches a process's memory. */
    public interface Target {
        /** Runs atomic {@code op} on {@code target}'s word at {@code address}; returns the old word. */
        default long atomic(int target, int source, int op, long address, long a, long b) {
            throw new IllegalStateException("this application issues no atomics");
        }

        /** A put of {@code value} to {@code address} reached {@code target}'s memory. */
        default void putLanded(int target, int source, long address, long value) {
            throw new IllegalStateException("this application issues no puts");
        }

        /** A message carrying {@code a} and {@code b} reached {@code target}'s host memory. */
        default void messageLanded(int target, int source, long a, long b, int length) {
            throw new IllegalStateException("this application sends no messages");
        }

        /** The words of {@code region} of {@code target} that gets read. */
        default long[] memory(int target, int region) {
            throw new IllegalStateException("this application issues no gets");
        }

        /**
         * The target NIC has read what a get returns: the delay before the reply leaves, at least
         * 0, or {@link #REPLY_NOW} (the default), or {@link #HOLD}.
         */
        default long replyDelay(int target, int source, long address, int words, long seq) {
            return REPLY_NOW;
        }

        /**
         * A piece of a word transfer of {@code kind} ({@link #sendWords}) reached {@code target}:
         * {@code piece} words from {@code offset} of {@code total}, tagged {@code tag}.
         */
        default void wordsArrived(int kind, int target, int source, long tag, int offset, int total, Piece piece) {
            throw new IllegalStateException("this application transfers no words");
        }
    }

    /** The words of one arriving datagram, read from its payload; valid during the callback only. */
    public static final class Piece {
        private Packet packet;

        /** Words in the piece. */
        public int words() {
            return packet.length / 8;
        }

        /** Word {@code k} of the piece. */
        public long word(int k) {
            return DatagramRma.word(packet, k);
        }
    }

    /** A payload word: eight bytes, least significant first, read and written in one access. */
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Cluster cluster;
    private final DatagramCosts costs;
    private final Target target;
    private final int channel;
    private final int perNode;
    private final int payloadBytes;
    private final boolean acknowledgedPuts;
    private final int wordsPerDatagram;
    private final Completion[] done;
    private final long[][] getDest;
    private final int[] getDestIndex;
    private final int[] getLeft;
    private final AtomicUnit[] atomicUnits;
    private final long[] outstanding;
    private final boolean[] flushing;
    private final long[] issued;
    private final long[] nodeBytes;
    private final Counter atomics;
    private final Counter puts;
    private final Counter messages;
    private final Slots slots = new Slots();
    private final Piece piece = new Piece();
    private long bytes;
    private long datagrams;

    /**
     * Opens {@code channel} on every node of {@code cluster}.
     *
     * @param parent           the component this one belongs to, or {@code null}
     * @param name             the component's (local) name, which its statistics carry
     * @param processes        processes, each with its own completion state
     * @param processesPerNode processes per node
     * @param payloadBytes     bytes a put or a message of one word carries
     * @param acknowledgedPuts whether a put is acknowledged, so that {@link #flush} waits for it
     */
    public DatagramRma(Component parent, String name, Cluster cluster, DatagramCosts costs, Target target, int channel,
                       int processes, int processesPerNode, int payloadBytes, boolean acknowledgedPuts) {
        super(cluster.simulator(), parent, name);
        this.cluster = cluster;
        this.costs = costs;
        this.target = target;
        this.channel = channel;
        this.perNode = processesPerNode;
        this.payloadBytes = payloadBytes;
        this.acknowledgedPuts = acknowledgedPuts;
        this.wordsPerDatagram = cluster.node(0).endpoint().datagramCapacity() / 8;
        this.done = new Completion[processes];
        this.getDest = new long[processes][];
        this.getDestIndex = new int[processes];
        this.getLeft = new int[processes];
        this.atomicUnits = new AtomicUnit[cluster.size()];
        for (int n = 0; n < atomicUnits.length; n++) {
            atomicUnits[n] = new AtomicUnit();
        }
        this.outstanding = new long[processes];
        this.flushing = new boolean[processes];
        this.issued = new long[processes];
        this.nodeBytes = new long[cluster.size()];
        this.atomics = counter("atomics", "operations", "remote atomics (compare-and-swap, fetch-and-op) executed");
        this.puts = counter("puts", "operations", "remote puts placed");
        this.messages = counter("messages", "messages", "messages delivered");
        for (int n = 0; n < cluster.size(); n++) {
            cluster.node(n).endpoint().openDatagram(channel, this::arrive);
        }
    }

    /** The node process {@code rank} runs on. */
    public int nodeOf(int rank) {
        return rank / perNode;
    }

    /** The words one datagram carries. */
    public int wordsPerDatagram() {
        return wordsPerDatagram;
    }

    /**
     * A blocking remote atomic on {@code target}'s memory: {@link #CAS}, {@link #FETCH_ADD} or
     * {@link #SWAP}; returns the old word once the reply's completion is read.
     */
    public long atomic(ProcessContext ctx, int rank, int target, int op, long address, long a, long b) {
        Completion c = completion(rank);
        c.reset();
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, op, 16);
        p.address = address;
        p.offset = a;
        p.contentTag = b;
        issue(rank, p);
        long old = ctx.await(c);
        ctx.sleep(costs.completionPs());
        return old;
    }

    /** A non-blocking put of one word to {@code address} of {@code target}. */
    public void put(ProcessContext ctx, int rank, int target, long address, long value) {
        ctx.sleep(costs.postPs());
        if (acknowledgedPuts) {
            outstanding[rank]++;
        }
        Packet p = datagram(rank, target, PUT, payloadBytes);
        p.address = address;
        p.offset = value;
        issue(rank, p);
    }

    /** Waits until every acknowledged put and word transfer {@code rank} issued has reached its target. */
    public void flush(ProcessContext ctx, int rank) {
        if (outstanding[rank] == 0) {
            return;
        }
        Completion c = completion(rank);
        c.reset();
        flushing[rank] = true;
        ctx.await(c);
        flushing[rank] = false;
        ctx.sleep(costs.completionPs());
    }

    /** A message of one word ({@code a}) to {@code target}; the process goes on at once. */
    public void message(ProcessContext ctx, int rank, int target, long a) {
        message(ctx, rank, target, a, 0);
    }

    /**
     * A message carrying {@code a} and {@code b} to {@code target}: posted by the process (which
     * goes on at once), DMA-written into the target node's memory, then handed to
     * {@link Target#messageLanded}.
     */
    public void message(ProcessContext ctx, int rank, int target, long a, long b) {
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, MESSAGE, payloadBytes);
        p.address = a;
        p.offset = b;
        issue(rank, p);
    }

    /**
     * A blocking get of {@code words} words at {@code wordIndex} of {@code region} of process
     * {@code target} into {@code dest} from {@code destIndex}; {@code seq} names it to the target.
     */
    public void get(ProcessContext ctx, int rank, int target, int region, int wordIndex, int words, long[] dest,
                    int destIndex, long seq) {
        Completion c = completion(rank);
        c.reset();
        getDest[rank] = dest;
        getDestIndex[rank] = destIndex;
        getLeft[rank] = words;
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, GET, 16);
        p.address = (long) region << 56 | wordIndex;
        p.offset = words;
        p.contentTag = seq;
        issue(rank, p);
        ctx.await(c);
        getDest[rank] = null;
        ctx.sleep(costs.completionPs());
    }

    /**
     * Sends {@code words} words of {@code src} from {@code from} to {@code target} as a transfer
     * of {@code kind} tagged {@code tag}, in as many datagrams as it takes, each handed to
     * {@link Target#wordsArrived} as it arrives; non-blocking. An {@code acknowledged} transfer
     * is waited for by {@link #flush} until the target calls {@link #acknowledge}.
     */
    public void sendWords(ProcessContext ctx, int rank, int target, int kind, long tag, long[] src, int from, int words,
                          boolean acknowledged) {
        ctx.sleep(costs.postPs());
        if (acknowledged) {
            outstanding[rank]++;
        }
        issued[rank]++;
        for (int off = 0; off < words; off += wordsPerDatagram) {
            int n = Math.min(wordsPerDatagram, words - off);
            Packet p = datagram(rank, target, WORDS + kind, n * 8);
            p.address = tag;
            p.offset = off;
            p.contentTag = words;
            pack(p, src, from + off, n);
            addToMessage(p);
        }
        sendMessage(nodeOf(rank));
    }

    /** {@code target} acknowledges an acknowledged transfer from {@code source}. */
    public void acknowledge(int target, int source) {
        send(datagram(target, source, ACK, 0));
    }

    /** Sends the reply of a get {@link Target#replyDelay} held, {@code delay} from now. */
    public void replyAfter(long delay, int source, int target, long address, int words, long seq) {
        schedule(delay, EV_REPLY, slots.take(source, target, GET, address, words, seq));
    }

    /** Remote operations process {@code rank} has issued so far (atomics, puts, messages, gets, transfers). */
    public long issued(int rank) {
        return issued[rank];
    }

    /** Payload bytes of every datagram sent. */
    public long bytes() {
        return bytes;
    }

    /** Datagrams sent. */
    public long datagrams() {
        return datagrams;
    }

    /** Payload bytes sent plus received by node {@code n}'s NIC. */
    public long nodeBytes(int n) {
        return nodeBytes[n];
    }

    private Completion completion(int rank) {
        Completion c = done[rank];
        if (c == null) {
            c = done[rank] = new Completion(name() + ".rank" + rank);
        }
        return c;
    }

    private Packet datagram(int source, int target, int op, int length) {
        TransportEndpoint ep = cluster.node(nodeOf(source)).endpoint();
        Packet p = ep.newDatagram(nodeOf(target), channel);
        p.opcode = op;
        p.messageId = source;
        p.key = target;
        p.length = length;
        return p;
    }

    private void issue(int rank, Packet p) {
        issued[rank]++;
        send(p);
    }

    private void send(Packet p) {
        count(p);
        cluster.node(p.src).endpoint().sendDatagram(p);
    }

    /** Adds a datagram to the message its node is building: the datagrams of one transfer or reply leave together. */
    private void addToMessage(Packet p) {
        count(p);
        cluster.node(p.src).endpoint().addToMessage(p);
    }

    private void sendMessage(int node) {
        cluster.node(node).endpoint().sendMessage();
    }

    private void count(Packet p) {
        bytes += p.length;
        datagrams++;
        nodeBytes[p.src] += p.length;
        nodeBytes[p.dst] += p.length;
    }

    /** Writes {@code n} words from {@code src} at {@code from} into the payload, each little-endian. */
    static void pack(Packet p, long[] src, int from, int n) {
        byte[] b = p.bytes;
        for (int k = 0; k < n; k++) {
            WORD.set(b, 8 * k, src[from + k]);
        }
        p.hasBytes = true;
    }

    /** Word {@code k} of the payload, little-endian. */
    static long word(Packet p, int k) {
        return (long) WORD.get(p.bytes, 8 * k);
    }

    private SinkVerdict arrive(Packet p) {
        int op = p.opcode;
        int source = (int) p.messageId;
        int to = p.key;
        switch (op) {
            // Replies and acknowledgements travel back: their target is the process that issued the operation.
            case ATOMIC_REPLY -> completion(to).complete(p.offset);
            case ACK -> {
                if (--outstanding[to] == 0 && flushing[to]) {
                    completion(to).complete(0);
                }
            }
            case GET_REPLY -> {
                long[] dest = getDest[to];
                int n = p.length / 8;
                int at = getDestIndex[to] + (int) p.offset;
                for (int k = 0; k < n; k++) {
                    dest[at + k] = word(p, k);
                }
                getLeft[to] -= n;
                if (getLeft[to] == 0) {
                    schedule(costs.dmaWritePs(), EV_GET_DONE, to);
                }
            }
            case CAS, FETCH_ADD, SWAP -> {
                long doneAt = atomicUnits[nodeOf(to)].admit(sim.now(), to, p.address, costs.atomicPs());
                sim.scheduleAt(doneAt, Band.HARDWARE, this, EV_ATOMIC,
                        slots.take(source, to, op, p.address, p.offset, p.contentTag));
            }
            case PUT -> schedule(costs.dmaWritePs(), EV_PUT, slots.take(source, to, op, p.address, p.offset, p.length));
            case MESSAGE -> schedule(costs.dmaWritePs(), EV_MESSAGE,
                    slots.take(source, to, op, p.address, p.offset, p.length));
            // A get's reply: the NIC fetches the request and DMA-reads host memory (as its atomic unit does).
            case GET -> schedule(costs.atomicPs(), EV_READ, slots.take(source, to, op, p.address, p.offset,
                    p.contentTag));
            default -> {
                if (op < WORDS) {
                    throw new IllegalStateException(name() + ": unknown datagram opcode " + op);
                }
                piece.packet = p;
                target.wordsArrived(op - WORDS, to, source, p.address, (int) p.offset, (int) p.contentTag, piece);
                piece.packet = null;
            }
        }
        return SinkVerdict.ACCEPT;
    }

    @Override
    public void handle(int type, long arg) {
        if (type == EV_GET_DONE) {
            completion((int) arg).complete(0);
            return;
        }
        int s = (int) arg;
        int source = slots.source(s);
        int to = slots.target(s);
        long x = slots.x(s);
        long y = slots.y(s);
        long z = slots.z(s);
        switch (type) {
            case EV_ATOMIC -> {
                long old = target.atomic(to, source, slots.op(s), x, y, z);
                atomics.increment();
                Packet p = datagram(to, source, ATOMIC_REPLY, 8);
                p.offset = old;
                send(p);
            }
            case EV_PUT -> {
                target.putLanded(to, source, x, y);
                puts.increment();
                if (acknowledgedPuts) {
                    acknowledge(to, source);
                }
            }
            case EV_MESSAGE -> {
                messages.increment();
                target.messageLanded(to, source, x, y, (int) z);
            }
            case EV_READ -> {
                long delay = target.replyDelay(to, source, x, (int) y, z);
                if (delay >= 0) {
                    // the slot stays taken for the reply
                    schedule(delay, EV_REPLY, s);
                    return;
                }
                if (delay == REPLY_NOW) {
                    reply(source, to, x, (int) y);
                }
            }
            case EV_REPLY -> reply(source, to, x, (int) y);
            default -> throw new IllegalStateException(name() + ": unknown event " + type);
        }
        slots.release(s);
    }

    /** Sends the reply of a get: the words read, in datagrams, back to the process that asked. */
    private void reply(int source, int from, long address, int words) {
        long[] mem = target.memory(from, (int) (address >>> 56));
        int at = (int) (address & ((1L << 56) - 1));
        for (int off = 0; off < words; off += wordsPerDatagram) {
            int n = Math.min(wordsPerDatagram, words - off);
            Packet p = datagram(from, source, GET_REPLY, n * 8);
            p.offset = off;
            pack(p, mem, at + off, n);
            addToMessage(p);
        }
        sendMessage(nodeOf(from));
    }
}
