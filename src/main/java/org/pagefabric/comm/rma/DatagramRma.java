package org.pagefabric.comm.rma;

import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.nic.DatagramRmaUnit;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * Remote memory operations of light processes, carried as datagrams over the simulated network,
 * as 002 §5.2 emulates RMA at the scale of its evaluation (1024 processes, 32 per node, no queue
 * pairs): what a process calls. A call costs the host's post ({@link DatagramCosts#postPs}); a
 * blocking one waits for its reply and costs the completion's read; the NICs' steps in between
 * (atomic unit, DMA reads and writes, the datagrams themselves) are {@link DatagramRmaUnit}'s.
 *
 * <p>Process {@code r} runs on node {@code r / processesPerNode}. What the operations do to
 * memory is the application's ({@link Target}): the hashtable's volumes, the applications'
 * counters, logs and data. Puts are acknowledged when {@code acknowledgedPuts} says so, so that
 * {@link #flush} can wait for them; a flush also waits for acknowledged word transfers. The steady
 * state allocates nothing.
 */
public final class DatagramRma {
    /** Remote compare-and-swap: a = compare, b = swap. */
    public static final int CAS = DatagramRmaUnit.CAS;
    /** Remote fetch-and-op SUM: a = addend. */
    public static final int FETCH_ADD = DatagramRmaUnit.FETCH_ADD;
    /** Remote fetch-and-op REPLACE: a = new value. */
    public static final int SWAP = DatagramRmaUnit.SWAP;
    /** {@link Target#replyDelay}: send the get's reply in the event that read the data. */
    public static final long REPLY_NOW = DatagramRmaUnit.REPLY_NOW;
    /** {@link Target#replyDelay}: the application holds the reply and sends it with {@link #replyAfter}. */
    public static final long HOLD = DatagramRmaUnit.HOLD;

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

    /** The words of one arriving datagram; valid during the callback only. */
    public static final class Piece {
        private DatagramRmaUnit.Piece words;

        /** Words in the piece. */
        public int words() {
            return words.words();
        }

        /** Word {@code k} of the piece. */
        public long word(int k) {
            return words.word(k);
        }
    }

    private final DatagramCosts costs;
    private final Target target;
    private final boolean acknowledgedPuts;
    private final DatagramRmaUnit nics;
    private final Completion[] done;
    private final long[] outstanding;
    private final boolean[] flushing;
    private final long[] issued;
    private final Piece piece = new Piece();

    /**
     * Opens {@code channel} on every node of {@code cluster}.
     *
     * @param parent           the component the NICs' side belongs to, or {@code null}
     * @param name             the (local) name of the NICs' side, which its statistics carry
     * @param processes        processes, each with its own completion state
     * @param processesPerNode processes per node
     * @param payloadBytes     bytes a put or a message of one word carries
     * @param acknowledgedPuts whether a put is acknowledged, so that {@link #flush} waits for it
     */
    public DatagramRma(Component parent, String name, Cluster cluster, DatagramCosts costs, Target target, int channel,
                       int processes, int processesPerNode, int payloadBytes, boolean acknowledgedPuts) {
        this.costs = costs;
        this.target = target;
        this.acknowledgedPuts = acknowledgedPuts;
        TransportEndpoint[] nodes = new TransportEndpoint[cluster.size()];
        for (int n = 0; n < nodes.length; n++) {
            nodes[n] = cluster.node(n).endpoint();
        }
        this.done = new Completion[processes];
        this.outstanding = new long[processes];
        this.flushing = new boolean[processes];
        this.issued = new long[processes];
        this.nics = new DatagramRmaUnit(cluster.simulator(), parent, name, nodes, new Host(), channel, processes,
                processesPerNode, payloadBytes, acknowledgedPuts, costs.atomicPs(), costs.dmaWritePs());
    }

    /** The node process {@code rank} runs on. */
    public int nodeOf(int rank) {
        return nics.nodeOf(rank);
    }

    /** The words one datagram carries. */
    public int wordsPerDatagram() {
        return nics.wordsPerDatagram();
    }

    /**
     * A blocking remote atomic on {@code target}'s memory: {@link #CAS}, {@link #FETCH_ADD} or
     * {@link #SWAP}; returns the old word once the reply's completion is read.
     */
    public long atomic(ProcessContext ctx, int rank, int target, int op, long address, long a, long b) {
        Completion c = completion(rank);
        c.reset();
        ctx.sleep(costs.postPs());
        issued[rank]++;
        nics.atomic(rank, target, op, address, a, b);
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
        issued[rank]++;
        nics.put(rank, target, address, value);
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
        issued[rank]++;
        nics.message(rank, target, a, b);
    }

    /**
     * A blocking get of {@code words} words at {@code wordIndex} of {@code region} of process
     * {@code target} into {@code dest} from {@code destIndex}; {@code seq} names it to the target.
     */
    public void get(ProcessContext ctx, int rank, int target, int region, int wordIndex, int words, long[] dest,
                    int destIndex, long seq) {
        Completion c = completion(rank);
        c.reset();
        nics.receiveInto(rank, dest, destIndex, words);
        ctx.sleep(costs.postPs());
        issued[rank]++;
        nics.get(rank, target, region, wordIndex, words, seq);
        ctx.await(c);
        nics.releaseGet(rank);
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
        nics.sendWords(rank, target, kind, tag, src, from, words);
    }

    /** {@code target} acknowledges an acknowledged transfer from {@code source}. */
    public void acknowledge(int target, int source) {
        nics.acknowledge(target, source);
    }

    /** Sends the reply of a get {@link Target#replyDelay} held, {@code delay} from now. */
    public void replyAfter(long delay, int source, int target, long address, int words, long seq) {
        nics.replyAfter(delay, source, target, address, words, seq);
    }

    /** Remote operations process {@code rank} has issued so far (atomics, puts, messages, gets, transfers). */
    public long issued(int rank) {
        return issued[rank];
    }

    /** Payload bytes of every datagram sent. */
    public long bytes() {
        return nics.bytes();
    }

    /** Datagrams sent. */
    public long datagrams() {
        return nics.datagrams();
    }

    /** Payload bytes sent plus received by node {@code n}'s NIC. */
    public long nodeBytes(int n) {
        return nics.nodeBytes(n);
    }

    private Completion completion(int rank) {
        Completion c = done[rank];
        if (c == null) {
            c = done[rank] = new Completion(nics.name() + ".rank" + rank);
        }
        return c;
    }

    /** The hosts' side of what the NICs deliver: the application's memory and the issuers' completions. */
    private final class Host implements DatagramRmaUnit.Host {
        @Override
        public long atomic(int to, int source, int op, long address, long a, long b) {
            return target.atomic(to, source, op, address, a, b);
        }

        @Override
        public void putLanded(int to, int source, long address, long value) {
            target.putLanded(to, source, address, value);
        }

        @Override
        public void messageLanded(int to, int source, long a, long b, int length) {
            target.messageLanded(to, source, a, b, length);
        }

        @Override
        public long[] memory(int to, int region) {
            return target.memory(to, region);
        }

        @Override
        public long replyDelay(int to, int source, long address, int words, long seq) {
            return target.replyDelay(to, source, address, words, seq);
        }

        @Override
        public void wordsArrived(int kind, int to, int source, long tag, int offset, int total,
                                 DatagramRmaUnit.Piece words) {
            piece.words = words;
            target.wordsArrived(kind, to, source, tag, offset, total, piece);
        }

        @Override
        public void replied(int rank, long value) {
            completion(rank).complete(value);
        }

        @Override
        public void acknowledged(int rank) {
            if (--outstanding[rank] == 0 && flushing[rank]) {
                completion(rank).complete(0);
            }
        }

        @Override
        public void fetched(int rank) {
            completion(rank).complete(0);
        }
    }
}
