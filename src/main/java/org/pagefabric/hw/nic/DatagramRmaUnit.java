package org.pagefabric.hw.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.collect.Slots;
import org.pagefabric.sim.stat.Counter;

/**
 * The NICs' side of remote memory operations carried as datagrams, as 002 §5.2 emulates RMA at
 * the scale of its evaluation (no queue pairs): a put or a message is one datagram, an atomic or
 * a get a request and a reply, and data longer than a packet travels as several datagrams whose
 * payload holds the real words. The target NIC performs atomics in its {@link AtomicUnit} (a DMA
 * read round trip to host memory each; atomics on the same word one after another, on different
 * words side by side), DMA-reads what a get returns, and DMA-writes puts and messages into host
 * memory. Links, switches and their contention are the network's own; this class adds only these
 * NIC-side steps.
 *
 * <p>Process {@code r} runs on node {@code r / processesPerNode}; datagrams are addressed to a
 * node and carry the target and source process. What the operations do to memory, and what the
 * issuing host hears back, is its {@link Host}'s. Per-operation state lives in primitive
 * {@link Slots}, so the steady state allocates nothing.
 */
public final class DatagramRmaUnit extends Component {
    /** Remote compare-and-swap: a = compare, b = swap. */
    public static final int CAS = 1;
    /** Remote fetch-and-op SUM: a = addend. */
    public static final int FETCH_ADD = 2;
    /** Remote fetch-and-op REPLACE: a = new value. */
    public static final int SWAP = 3;
    /** {@link Host#replyDelay}: send the get's reply in the event that read the data. */
    public static final long REPLY_NOW = -1;
    /** {@link Host#replyDelay}: the host holds the reply and sends it with {@link #replyAfter}. */
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

    /** What the hosts do with what reaches a process's memory, and what the issuing process hears. */
    public interface Host {
        /** Runs atomic {@code op} on {@code target}'s word at {@code address}; returns the old word. */
        long atomic(int target, int source, int op, long address, long a, long b);

        /** A put of {@code value} to {@code address} reached {@code target}'s memory. */
        void putLanded(int target, int source, long address, long value);

        /** A message carrying {@code a} and {@code b} reached {@code target}'s host memory. */
        void messageLanded(int target, int source, long a, long b, int length);

        /** The words of {@code region} of {@code target} that gets read. */
        long[] memory(int target, int region);

        /**
         * The target NIC has read what a get returns: the delay before the reply leaves, at least
         * 0, or {@link #REPLY_NOW}, or {@link #HOLD}.
         */
        long replyDelay(int target, int source, long address, int words, long seq);

        /**
         * A piece of a word transfer of {@code kind} reached {@code target}: {@code piece} words
         * from {@code offset} of {@code total}, tagged {@code tag}.
         */
        void wordsArrived(int kind, int target, int source, long tag, int offset, int total, Piece piece);

        /** The reply of process {@code rank}'s atomic arrived, carrying the old word. */
        void replied(int rank, long value);

        /** A put or word transfer of process {@code rank} was acknowledged by its target. */
        void acknowledged(int rank);

        /** The last words of process {@code rank}'s get are in its memory. */
        void fetched(int rank);
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
            return DatagramRmaUnit.word(packet, k);
        }
    }

    /** A payload word: eight bytes, least significant first, read and written in one access. */
    private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final TransportEndpoint[] nodes;
    private final Host host;
    private final int channel;
    private final int perNode;
    private final int payloadBytes;
    private final boolean acknowledgedPuts;
    private final long atomicPs;
    private final long dmaWritePs;
    private final int wordsPerDatagram;
    private final long[][] getDest;
    private final int[] getDestIndex;
    private final int[] getLeft;
    private final AtomicUnit[] atomicUnits;
    private final long[] nodeBytes;
    private final Counter atomics;
    private final Counter puts;
    private final Counter messages;
    private final Slots slots = new Slots();
    private final Piece piece = new Piece();
    private long bytes;
    private long datagrams;

    /**
     * Opens {@code channel} on the transport endpoint of every node.
     *
     * @param sim              the simulator
     * @param parent           the component this one belongs to, or {@code null}
     * @param name             the component's (local) name, which its statistics carry
     * @param nodes            each node's transport endpoint, by node number
     * @param host             what the hosts do with what arrives
     * @param channel          the datagram channel the unit opens on every node
     * @param processes        processes, each with its own get in flight at most
     * @param processesPerNode processes per node
     * @param payloadBytes     bytes a put or a message of one word carries
     * @param acknowledgedPuts whether the target acknowledges each put
     * @param atomicPs         the atomic unit busy with one operation; a get's read of host memory costs the same
     * @param dmaWritePs       a DMA write landing in host memory
     */
    public DatagramRmaUnit(Simulator sim, Component parent, String name, TransportEndpoint[] nodes, Host host,
                           int channel, int processes, int processesPerNode, int payloadBytes, boolean acknowledgedPuts,
                           long atomicPs, long dmaWritePs) {
        super(sim, parent, name);
        this.nodes = nodes;
        this.host = host;
        this.channel = channel;
        this.perNode = processesPerNode;
        this.payloadBytes = payloadBytes;
        this.acknowledgedPuts = acknowledgedPuts;
        this.atomicPs = atomicPs;
        this.dmaWritePs = dmaWritePs;
        this.wordsPerDatagram = nodes[0].datagramCapacity() / 8;
        this.getDest = new long[processes][];
        this.getDestIndex = new int[processes];
        this.getLeft = new int[processes];
        this.atomicUnits = new AtomicUnit[nodes.length];
        for (int n = 0; n < atomicUnits.length; n++) {
            atomicUnits[n] = new AtomicUnit();
        }
        this.nodeBytes = new long[nodes.length];
        this.atomics = counter("atomics", "operations", "remote atomics (compare-and-swap, fetch-and-op) executed");
        this.puts = counter("puts", "operations", "remote puts placed");
        this.messages = counter("messages", "messages", "messages delivered");
        for (TransportEndpoint e : nodes) {
            e.openDatagram(channel, this::arrive);
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

    /** Sends atomic {@code op} of {@code rank} on {@code target}'s word at {@code address}. */
    public void atomic(int rank, int target, int op, long address, long a, long b) {
        Packet p = datagram(rank, target, op, 16);
        p.address = address;
        p.offset = a;
        p.contentTag = b;
        send(p);
    }

    /** Sends a put of one word to {@code address} of {@code target}. */
    public void put(int rank, int target, long address, long value) {
        Packet p = datagram(rank, target, PUT, payloadBytes);
        p.address = address;
        p.offset = value;
        send(p);
    }

    /** Sends a message carrying {@code a} and {@code b} to {@code target}. */
    public void message(int rank, int target, long a, long b) {
        Packet p = datagram(rank, target, MESSAGE, payloadBytes);
        p.address = a;
        p.offset = b;
        send(p);
    }

    /** Where the words of {@code rank}'s next get land: {@code words} words into {@code dest} from {@code destIndex}. */
    public void receiveInto(int rank, long[] dest, int destIndex, int words) {
        getDest[rank] = dest;
        getDestIndex[rank] = destIndex;
        getLeft[rank] = words;
    }

    /** {@code rank}'s get is over: its destination is no longer the NIC's to write. */
    public void releaseGet(int rank) {
        getDest[rank] = null;
    }

    /** Sends a get of {@code words} words at {@code wordIndex} of {@code region} of {@code target}. */
    public void get(int rank, int target, int region, int wordIndex, int words, long seq) {
        Packet p = datagram(rank, target, GET, 16);
        p.address = (long) region << 56 | wordIndex;
        p.offset = words;
        p.contentTag = seq;
        send(p);
    }

    /**
     * Sends {@code words} words of {@code src} from {@code from} to {@code target} as a transfer of
     * {@code kind} tagged {@code tag}, in as many datagrams as it takes, which leave together.
     */
    public void sendWords(int rank, int target, int kind, long tag, long[] src, int from, int words) {
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

    /** {@code target} acknowledges a put or transfer from {@code source}. */
    public void acknowledge(int target, int source) {
        send(datagram(target, source, ACK, 0));
    }

    /** Sends the reply of a get {@link Host#replyDelay} held, {@code delay} from now. */
    public void replyAfter(long delay, int source, int target, long address, int words, long seq) {
        schedule(delay, EV_REPLY, slots.take(source, target, GET, address, words, seq));
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

    private Packet datagram(int source, int target, int op, int length) {
        Packet p = nodes[nodeOf(source)].newDatagram(nodeOf(target), channel);
        p.opcode = op;
        p.messageId = source;
        p.key = target;
        p.length = length;
        return p;
    }

    private void send(Packet p) {
        count(p);
        nodes[p.src].sendDatagram(p);
    }

    /** Adds a datagram to the message its node is building: the datagrams of one transfer or reply leave together. */
    private void addToMessage(Packet p) {
        count(p);
        nodes[p.src].addToMessage(p);
    }

    private void sendMessage(int node) {
        nodes[node].sendMessage();
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
            case ATOMIC_REPLY -> host.replied(to, p.offset);
            case ACK -> host.acknowledged(to);
            case GET_REPLY -> {
                long[] dest = getDest[to];
                int n = p.length / 8;
                int at = getDestIndex[to] + (int) p.offset;
                for (int k = 0; k < n; k++) {
                    dest[at + k] = word(p, k);
                }
                getLeft[to] -= n;
                if (getLeft[to] == 0) {
                    schedule(dmaWritePs, EV_GET_DONE, to);
                }
            }
            case CAS, FETCH_ADD, SWAP -> {
                long doneAt = atomicUnits[nodeOf(to)].admit(sim.now(), to, p.address, atomicPs);
                sim.scheduleAt(doneAt, Band.HARDWARE, this, EV_ATOMIC,
                        slots.take(source, to, op, p.address, p.offset, p.contentTag));
            }
            case PUT -> schedule(dmaWritePs, EV_PUT, slots.take(source, to, op, p.address, p.offset, p.length));
            case MESSAGE -> schedule(dmaWritePs, EV_MESSAGE, slots.take(source, to, op, p.address, p.offset, p.length));
            // A get's reply: the NIC fetches the request and DMA-reads host memory (as its atomic unit does).
            case GET -> schedule(atomicPs, EV_READ, slots.take(source, to, op, p.address, p.offset, p.contentTag));
            default -> {
                if (op < WORDS) {
                    throw new IllegalStateException(name() + ": unknown datagram opcode " + op);
                }
                piece.packet = p;
                host.wordsArrived(op - WORDS, to, source, p.address, (int) p.offset, (int) p.contentTag, piece);
                piece.packet = null;
            }
        }
        return SinkVerdict.ACCEPT;
    }

    @Override
    public void handle(int type, long arg) {
        if (type == EV_GET_DONE) {
            host.fetched((int) arg);
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
                long old = host.atomic(to, source, slots.op(s), x, y, z);
                atomics.increment();
                Packet p = datagram(to, source, ATOMIC_REPLY, 8);
                p.offset = old;
                send(p);
            }
            case EV_PUT -> {
                host.putLanded(to, source, x, y);
                puts.increment();
                if (acknowledgedPuts) {
                    acknowledge(to, source);
                }
            }
            case EV_MESSAGE -> {
                messages.increment();
                host.messageLanded(to, source, x, y, (int) z);
            }
            case EV_READ -> {
                long delay = host.replyDelay(to, source, x, (int) y, z);
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
        long[] mem = host.memory(from, (int) (address >>> 56));
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
