package org.pagefabric.reg.odp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.reg.odp.OdpBed.PAGE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/**
 * Random interleavings of RDMA writes, reads and sends on ODP memory with invalidations that
 * keep the application's content (madvise(DONTNEED) and rewrite, migration, reclaim) on both
 * ranks at random times, in the middle of page-ins and transfers. After every step: every
 * present NIC translation maps the frame the process maps now, no DMA ever wrote a freed frame,
 * and every completed transfer's destination holds its source's bytes. (Non-ODP traffic beside
 * faulting ODP traffic is checked in {@code OdpDriverTest}.) Even seeds run on small nodes with
 * swap, reclaim and migration unmapping up to 8 adjacent pages under one notifier range, and the
 * chaos migrating ranges: one invalidation covering several pages must keep the NIC coherent too.
 */
class OdpRacePropertyTest {
    private static final int PAGES = 24;
    private static final int OPS = 40;

    static List<Long> seeds() {
        if (System.getProperty("odp.seed") != null) {
            return List.of(Long.getLong("odp.seed"));
        }
        List<Long> s = new ArrayList<>();
        for (long i = 1; i <= 20; i++) {
            s.add(i * 7919);
        }
        return s;
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void noAccessReachesAFrameThePageNoLongerMapsAndEveryTransferIsIntact(long seed) {
        String policy = seed % 3 == 0 ? OdpPolicy.IMPLICIT : OdpPolicy.EXPLICIT;
        // Short RNR delay: many responder faults per run without long idle waits. A page zapped under
        // a message already on the wire makes its packet go missing and go-back-N resend it (001:
        // "forward progress generally not guaranteed"); invalidations this frequent would exhaust
        // InfiniBand's retry_cnt of 7, which is not what this test is about.
        boolean batched = seed % 2 == 0;
        OdpBed bed = new OdpBed(seed, 2, PAGES * PAGE, policy, batched
                ? Map.of("transport.rnr_delay", "5us", "transport.retry_limit", "100000", "os.unmap_batch", "8",
                        "memory.size", "32MiB", "os.swap.size", "32MiB")
                : Map.of("transport.rnr_delay", "5us", "transport.retry_limit", "100000"));
        Rank a = bed.rank(0);
        Rank b = bed.rank(1);
        RandomStream rnd = new RandomStream(seed);
        long length = PAGES * PAGE;
        a.node().kernel().writeTag(a.process(), a.segment(), length, seed, 0);
        b.node().kernel().writeTag(b.process(), b.segment(), length, seed + 1, 0);
        boolean[] done = {false};
        List<String> failures = new ArrayList<>();
        int[] completed = {0};
        new SimProcess(bed.sim, a.node(), "ops", ctx -> {
            for (int i = 0; i < OPS; i++) {
                long len = 1 + rnd.nextInt((int) (3 * PAGE));
                long from = rnd.nextInt((int) (length - len));
                long to = rnd.nextInt((int) (length - len));
                int kind = rnd.nextInt(3);
                CompletionEntry wc;
                boolean same;
                switch (kind) {
                    case 0 -> {
                        a.write(ctx, b, from, to, len, i);
                        wc = a.awaitSend(ctx);
                        same = digest(a, from, len) == digest(b, to, len);
                    }
                    case 1 -> {
                        a.read(ctx, b, from, to, len, i);
                        wc = a.awaitSend(ctx);
                        same = digest(b, from, len) == digest(a, to, len);
                    }
                    default -> {
                        b.receive(ctx, a, to, len, i);
                        a.send(ctx, b, from, len, i);
                        wc = a.awaitSend(ctx);
                        CompletionEntry rc = b.awaitReceive(ctx);
                        same = rc.status() == Outcome.SUCCESS && digest(a, from, len) == digest(b, to, len);
                    }
                }
                if (wc.status() != Outcome.SUCCESS || !same) {
                    failures.add("op " + i + " kind " + kind + " len " + len + ": " + wc.status() + " same=" + same);
                }
                check(bed, failures, "after op " + i);
                completed[0]++;
            }
            done[0] = true;
        }).start();
        int[] actions = {0};
        new SimProcess(bed.sim, b.node(), "chaos", ctx -> {
            // bounded, so that a stuck transfer fails the test instead of running forever
            while (!done[0] && ctx.now() < 100 * Time.MS) {
                ctx.sleep((1 + rnd.nextInt(40)) * Time.US);
                Rank r = rnd.nextBoolean(0.5) ? a : b;
                long va = r.segment() + rnd.nextInt(PAGES) * PAGE;
                int pages = 1 + rnd.nextInt(4);
                pages = (int) Math.min(pages, (r.segment() + length - va) / PAGE);
                Kernel k = r.node().kernel();
                switch (rnd.nextInt(3)) {
                    case 0 -> giveBackAndRestore(k, r.process(), va, pages);
                    case 1 -> {
                        if (batched) {
                            k.migrateRange(r.process(), va, pages);
                        } else {
                            for (int p = 0; p < pages; p++) {
                                k.migrate(r.process(), va + p * PAGE);
                            }
                        }
                    }
                    default -> k.reclaim(pages);
                }
                actions[0]++;
                check(bed, failures, "after invalidation " + actions[0]);
            }
        }).start();
        bed.sim.run();
        assertEquals(List.of(), failures);
        assertEquals(OPS, completed[0], "transfers completed; driver 0 " + bed.driver(0).unresolvable() + " unresolvable, "
                + bed.driver(0).races() + " races; driver 1 " + bed.driver(1).unresolvable() + " unresolvable, "
                + bed.driver(1).races() + " races");
        assertTrue(actions[0] > 0);
        if (batched) {
            assertTrue(a.node().kernel().stats().reclaimed() + b.node().kernel().stats().reclaimed() > 0,
                    "reclaim swapped ODP pages out");
        }
        assertTrue(bed.driver(0).resolvedFaults() + bed.driver(1).resolvedFaults() > 0);
        assertTrue(bed.driver(0).invalidatedPages() + bed.driver(1).invalidatedPages() > 0,
                "invalidations zapped NIC translations");
        assertEquals(0, a.process().pinnedPages() + b.process().pinnedPages(), "ODP never pins");
    }

    /** madvise(DONTNEED) a range and write its content back at once: new frames, same bytes. */
    private static void giveBackAndRestore(Kernel k, AddressSpace as, long va, int pages) {
        byte[] keep = new byte[(int) (pages * PAGE)];
        k.peek(as, va, keep, 0, keep.length);
        k.madvise(as, va, keep.length, Advice.DONTNEED);
        k.write(as, va, keep, 0, keep.length);
    }

    private static long digest(Rank r, long offset, long length) {
        return r.node().kernel().digest(r.process(), r.segment() + offset, length);
    }

    private static void check(OdpBed bed, List<String> failures, String when) {
        for (Rank r : bed.job.ranks()) {
            String stale = OdpBed.staleEntry(r.endpoint().segmentRegion(), r.process(), r.segment(), PAGES * PAGE);
            if (stale != null) {
                failures.add(when + ", rank " + r.id() + ": " + stale);
            }
            long stray = r.node().memory().strayWrites();
            if (stray != 0) {
                failures.add(when + ", rank " + r.id() + ": " + stray + " DMA writes to freed frames");
            }
        }
        assertNull(failures.isEmpty() ? null : failures.get(0));
    }
}
