package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The communication pattern of one MPI application as steps per rank (003 §4.4, Table 2): the
 * Intel MPI Benchmarks' collectives and point-to-point patterns with the algorithms Open MPI's
 * tuned collectives use between a few processes (ring, binomial tree, recursive doubling,
 * pairwise exchange), and NAS IS's per-iteration exchange. In each step a rank posts its
 * receives, then its sends, waits for all of them, then computes (a reduction over the bytes it
 * received, at memory bandwidth). A step's receives name where their data comes from (the
 * origin rank's send buffer), so every delivery can be checked end to end.
 */
public final class MpiApp {
    /** Where an operation's bytes live in a rank's segment: the send buffer. */
    public static final int SEND_BUFFER = 0;
    /** Where an operation's bytes live in a rank's segment: the receive buffer. */
    public static final int RECV_BUFFER = 1;

    /**
     * One send or receive.
     *
     * @param send         a send (else a receive)
     * @param peer         the other rank
     * @param buffer       {@link #SEND_BUFFER} or {@link #RECV_BUFFER}: where the bytes are here
     * @param offset       offset in that buffer
     * @param length       bytes
     * @param origin       receives: the rank whose send buffer the bytes come from
     * @param originOffset receives: the offset in the origin's send buffer
     */
    public record Op(boolean send, int peer, int buffer, long offset, long length, int origin, long originOffset) {
    }

    /**
     * One step of a rank: its operations, then {@code reduceBytes} of reduction and
     * {@code computeBytes} of other memory-bound work.
     */
    public record Step(List<Op> ops, long reduceBytes, long computeBytes) {
    }

    private MpiApp() {
    }

    /** A send of {@code length} bytes at {@code offset} of {@code buffer} to {@code peer}. */
    public static Op send(int peer, int buffer, long offset, long length) {
        return new Op(true, peer, buffer, offset, length, -1, 0);
    }

    /** A receive into the receive buffer, with where its bytes come from. */
    public static Op recv(int peer, long offset, long length, int origin, long originOffset) {
        return new Op(false, peer, RECV_BUFFER, offset, length, origin, originOffset);
    }

    /** IMB SendRecv: each rank sends to its right neighbour and receives from its left (a ring). */
    static List<Step> sendRecv(int r, int p, long m) {
        int left = (r - 1 + p) % p;
        int right = (r + 1) % p;
        return List.of(new Step(List.of(recv(left, 0, m, left, 0), send(right, SEND_BUFFER, 0, m)), 0, 0));
    }

    /** IMB Exchange: each rank sends to both neighbours and receives from both. */
    static List<Step> exchange(int r, int p, long m) {
        int left = (r - 1 + p) % p;
        int right = (r + 1) % p;
        return List.of(new Step(List.of(recv(left, 0, m, left, 0), recv(right, m, m, right, 0),
                send(left, SEND_BUFFER, 0, m), send(right, SEND_BUFFER, 0, m)), 0, 0));
    }

    /** IMB Bcast: a binomial tree from rank 0; inner ranks forward what they received. */
    public static List<Step> bcast(int r, int p, long m) {
        List<Step> steps = new ArrayList<>();
        for (int mask = 1; mask < p; mask <<= 1) {
            if (r < mask && r + mask < p) {
                steps.add(new Step(List.of(send(r + mask, r == 0 ? SEND_BUFFER : RECV_BUFFER, 0, m)), 0, 0));
            } else if (r >= mask && r < 2 * mask) {
                steps.add(new Step(List.of(recv(r - mask, 0, m, 0, 0)), 0, 0));
            }
        }
        return steps;
    }

    /** IMB Reduce: a binomial tree to rank 0; each receive is combined into the rank's buffer. */
    public static List<Step> reduce(int r, int p, long m) {
        List<Step> steps = new ArrayList<>();
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((r & mask) != 0) {
                steps.add(new Step(List.of(send(r - mask, SEND_BUFFER, 0, m)), 0, 0));
                break;
            }
            if (r + mask < p) {
                steps.add(new Step(List.of(recv(r + mask, 0, m, r + mask, 0)), m, 0));
            }
        }
        return steps;
    }

    /** IMB Allreduce: recursive doubling for a power-of-two count, otherwise reduce then bcast. */
    public static List<Step> allreduce(int r, int p, long m) {
        if (Integer.bitCount(p) != 1) {
            List<Step> steps = new ArrayList<>(reduce(r, p, m));
            steps.addAll(bcast(r, p, m));
            return steps;
        }
        List<Step> steps = new ArrayList<>();
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            steps.add(new Step(List.of(recv(partner, 0, m, partner, 0), send(partner, SEND_BUFFER, 0, m)), m, 0));
        }
        return steps;
    }

    /** IMB Reduce_scatter: pairwise exchange of the m/p blocks; each rank reduces the p-1 it receives. */
    public static List<Step> reduceScatter(int r, int p, long m) {
        long block = Math.max(1, m / p);
        List<Step> steps = new ArrayList<>();
        for (int k = 1; k < p; k++) {
            int to = (r + k) % p;
            int from = (r - k + p) % p;
            steps.add(new Step(List.of(recv(from, 0, block, from, r * block), send(to, SEND_BUFFER, to * block, block)),
                    block, 0));
        }
        return steps;
    }

    /** IMB Allgatherv: a ring; in step k each rank passes on the block it got in step k-1. */
    public static List<Step> allgatherv(int r, int p, long m) {
        int left = (r - 1 + p) % p;
        int right = (r + 1) % p;
        List<Step> steps = new ArrayList<>();
        for (int k = 0; k < p - 1; k++) {
            int out = (r - k + p) % p;
            int in = (r - k - 1 + p) % p;
            Op send = k == 0 ? send(right, SEND_BUFFER, 0, m) : send(right, RECV_BUFFER, out * m, m);
            steps.add(new Step(List.of(recv(left, in * m, m, in, 0), send), 0, 0));
        }
        return steps;
    }

    /** All-to-all by pairwise exchange: in step k, rank r sends its block for r+k and receives from r-k. */
    public static List<Step> alltoall(int r, int p, long block) {
        List<Step> steps = new ArrayList<>();
        for (int k = 1; k < p; k++) {
            int to = (r + k) % p;
            int from = (r - k + p) % p;
            steps.add(new Step(List.of(recv(from, from * block, block, from, r * block),
                    send(to, SEND_BUFFER, to * block, block)), 0, 0));
        }
        return steps;
    }

    /**
     * One iteration of NAS IS (NPB 3 is.f/is.c): count the local keys into buckets, allreduce the
     * bucket sizes, exchange the send counts (all-to-all), redistribute the keys (all-to-all-v,
     * here even blocks), then rank the received keys.
     *
     * @param keysPerRank  keys each rank holds
     * @param keyBytes     bytes per key
     * @param bucketsBytes bytes of the bucket-size array
     */
    static List<Step> isIteration(int r, int p, long keysPerRank, int keyBytes, long bucketsBytes) {
        long keys = keysPerRank * keyBytes;
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(List.of(), 0, keys));
        steps.addAll(allreduce(r, p, bucketsBytes));
        steps.addAll(alltoall(r, p, Integer.BYTES));
        steps.addAll(alltoall(r, p, keys / p));
        steps.add(new Step(List.of(), 0, keys));
        return steps;
    }
}
