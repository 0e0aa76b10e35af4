package org.pagefabric.comm.rma;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * The datagram emulation of RMA on its own: one atomic at a time per word, atomics on different
 * words of one node side by side, acknowledged
 * puts that a flush waits for, gets whose replies span datagrams or wait for the target, and
 * word transfers delivered piece by piece.
 */
class DatagramRmaTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");

    /** Process p on node p (one per node); memory of 64 words per process. */
    private static final class Memory implements DatagramRma.Target {
        final long[][] words = new long[3][64];
        final List<String> landed = new ArrayList<>();
        final List<Integer> pieces = new ArrayList<>();
        long hold = DatagramRma.REPLY_NOW;
        DatagramRma rma;
        Simulator sim;

        @Override
        public long atomic(int target, int source, int op, long address, long a, long b) {
            long old = words[target][(int) address];
            words[target][(int) address] = op == DatagramRma.FETCH_ADD ? old + a : old == a ? b : old;
            return old;
        }

        @Override
        public void putLanded(int target, int source, long address, long value) {
            words[target][(int) address] = value;
            landed.add("put " + source + "->" + target + " at " + sim.now());
        }

        @Override
        public long[] memory(int target, int region) {
            return words[target];
        }

        @Override
        public long replyDelay(int target, int source, long address, int n, long seq) {
            return hold;
        }

        @Override
        public void wordsArrived(int kind, int target, int source, long tag, int offset, int total,
                                 DatagramRma.Piece piece) {
            pieces.add(offset);
            for (int k = 0; k < piece.words(); k++) {
                words[target][offset + k] = piece.word(k);
            }
            if (offset + piece.words() == total && kind == 1) {
                rma.acknowledge(target, source);
            }
        }
    }

    private static DatagramRma fabric(Simulator sim, Memory m, boolean ackedPuts) {
        Cluster cluster = Cluster.build(sim, PROFILE, 3);
        m.sim = sim;
        m.rma = new DatagramRma(null, "rma", cluster, RmaCosts.of(PROFILE).datagram(), m, 9, 3, 1, 8, ackedPuts);
        return m.rma;
    }

    @Test
    void atomicsOnOneWordRunOneAtATime() {
        Simulator sim = new Simulator(1);
        Memory m = new Memory();
        DatagramRma rma = fabric(sim, m, false);
        long[] old = new long[2];
        long[] doneAt = new long[2];
        for (int p = 0; p < 2; p++) {
            int rank = p;
            new SimProcess(sim, "p" + p, ctx -> {
                old[rank] = rma.atomic(ctx, rank, 2, DatagramRma.FETCH_ADD, 5, 10, 0);
                doneAt[rank] = ctx.now();
            }).start();
        }
        sim.run();
        assertEquals(20, m.words[2][5]);
        assertEquals(10, Math.abs(old[0] - old[1]), "each saw the other's add or none");
        assertTrue(Math.abs(doneAt[0] - doneAt[1]) >= RmaCosts.of(PROFILE).atomicPs(),
                "the target's atomic unit serves one word's atomics one at a time");
        assertEquals(1, rma.issued(0));
    }

    @Test
    void atomicsOnDifferentWordsOfOneNodeOverlap() {
        Simulator sim = new Simulator(1);
        Memory m = new Memory();
        DatagramRma rma = fabric(sim, m, false);
        long[] doneAt = new long[2];
        for (int p = 0; p < 2; p++) {
            int rank = p;
            new SimProcess(sim, "p" + p, ctx -> {
                rma.atomic(ctx, rank, 2, DatagramRma.FETCH_ADD, 5 + rank, 10, 0);
                doneAt[rank] = ctx.now();
            }).start();
        }
        sim.run();
        assertEquals(10, m.words[2][5]);
        assertEquals(10, m.words[2][6]);
        assertTrue(Math.abs(doneAt[0] - doneAt[1]) < RmaCosts.of(PROFILE).atomicPs(),
                "atomics on different words wait for no one: " + doneAt[0] + " vs " + doneAt[1]);
    }

    @Test
    void aFlushWaitsForAcknowledgedPutsOnly() {
        for (boolean acked : new boolean[] {true, false}) {
            Simulator sim = new Simulator(2);
            Memory m = new Memory();
            DatagramRma rma = fabric(sim, m, acked);
            long[] flushedAt = new long[1];
            new SimProcess(sim, "p0", ctx -> {
                rma.put(ctx, 0, 1, 3, 42);
                rma.put(ctx, 0, 1, 4, 43);
                rma.flush(ctx, 0);
                flushedAt[0] = ctx.now();
            }).start();
            sim.run();
            assertEquals(42, m.words[1][3]);
            assertEquals(43, m.words[1][4]);
            long landedAt = Long.parseLong(m.landed.get(1).substring(m.landed.get(1).lastIndexOf(' ') + 1));
            assertEquals(acked, flushedAt[0] > landedAt, "acked " + acked + ": flushed at " + flushedAt[0]
                    + ", last put landed at " + landedAt);
        }
    }

    @Test
    void aGetLongerThanADatagramReturnsEveryWordAndAHeldReplyWaitsForTheTarget() {
        for (long hold : new long[] {DatagramRma.REPLY_NOW, DatagramRma.HOLD}) {
            Simulator sim = new Simulator(3);
            Memory m = new Memory();
            m.hold = hold;
            DatagramRma rma = fabric(sim, m, false);
            int n = rma.wordsPerDatagram() * 2 + 1; // aa-crayxe6's 64 B packets: three datagrams
            for (int k = 0; k < n; k++) {
                m.words[1][k] = 1000 + k;
            }
            long[] dest = new long[n];
            long[] gotAt = new long[1];
            new SimProcess(sim, "p0", ctx -> {
                rma.get(ctx, 0, 1, 0, 0, n, dest, 0, 7);
                gotAt[0] = ctx.now();
            }).start();
            if (hold == DatagramRma.HOLD) {
                new SimProcess(sim, "release", ctx -> {
                    ctx.sleep(50_000_000L);
                    rma.replyAfter(0, 0, 1, 0, n, 7);
                }).start();
            }
            sim.run();
            SimProcess.checkNoDeadlock(sim);
            assertArrayEquals(java.util.Arrays.copyOf(m.words[1], n), dest);
            assertEquals(1 + 3, rma.datagrams(), "a request and three replies");
            assertEquals(hold == DatagramRma.HOLD, gotAt[0] > 50_000_000L, "held until released: " + gotAt[0]);
        }
    }

    @Test
    void wordTransfersArriveInPiecesAndAnAcknowledgedOneIsFlushed() {
        Simulator sim = new Simulator(4);
        Memory m = new Memory();
        DatagramRma rma = fabric(sim, m, false);
        int n = rma.wordsPerDatagram() * 3;
        long[] src = new long[n];
        for (int k = 0; k < n; k++) {
            src[k] = -k;
        }
        new SimProcess(sim, "p0", ctx -> {
            rma.sendWords(ctx, 0, 2, 1, 99, src, 0, n, true);
            rma.flush(ctx, 0);
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertArrayEquals(src, java.util.Arrays.copyOf(m.words[2], n));
        assertEquals(List.of(0, n / 3, 2 * n / 3), m.pieces, "three pieces, in order");
        assertEquals(1, rma.issued(0), "one transfer, however many datagrams");
        assertEquals(n * 8L, rma.bytes(), "the payload, and an empty acknowledgement");
    }
}
