package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.DmaBufAttachment;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/**
 * What a dma-buf registration (ibv_reg_dmabuf_mr) guarantees under every policy that offers one,
 * over random sequences with fixed seeds: transfers out of the device buffer and into it, while
 * the exporter moves it at random times, transfers in flight included. Once a move has returned
 * (move_notify completed), the NIC's translation of the region holds only the buffer's current
 * frames, so no DMA reaches the old ones (freed by the move: a write there would count as a
 * stray write); every transfer completes and delivers the bytes the buffer holds. A policy with
 * a static attachment sees every move refused (EBUSY), one with a dynamic attachment sees every
 * move happen.
 */
class DmaBufMrConformanceTest {
    private static final long SEGMENT = 256 << 10;
    private static final long IOVA = 0x7e00_0000_0000L;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    static Stream<Arguments> cases() {
        PolicyRegistry r = PolicyRegistry.standard();
        return r.names().stream().filter(n -> r.descriptor(n).capabilities().contains(Capability.DMA_BUF))
                .flatMap(n -> Stream.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L).map(s -> Arguments.of(n, s)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void noDmaReachesTheOldFramesOnceMoveNotifyCompletedAndEveryTransferVerifies(String name, long seed) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile profile = Conformance.profileFor(d);
        Simulator sim = new Simulator(seed);
        Job job = new Job(sim, profile, 2, SEGMENT, d.factory().apply(profile));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        Kernel ka = a.node().kernel();
        Kernel kb = b.node().kernel();
        DeviceMemory exporter = ka.deviceMemory();
        SplittableRandom random = new SplittableRandom(seed);
        int pages = 1 + random.nextInt(16);
        DmaBuf buf = exporter.export(pages * Kernel.PAGE_SIZE);
        int transfers = 4 + random.nextInt(9);
        int moves = 1 + random.nextInt(6);
        List<String> wrong = new ArrayList<>();
        MemoryRegion[] region = new MemoryRegion[1];
        int[] done = {0, 0, 0}; // transfers checked, moves done, moves refused
        boolean[] finished = {false};
        new SimProcess(sim, a.node(), "transfers", ctx -> {
            DmaBufRegistrar.Registration reg = a.policy().dmaBuf(a.node()).register(a.endpoint(), buf, 0, buf.size(),
                    IOVA, ACCESS);
            region[0] = reg.region();
            ctx.sleep(reg.costPs());
            for (int i = 0; i < transfers; i++) {
                if (random.nextInt(3) == 0) {
                    move(exporter, buf, reg.region(), "before transfer " + i, done, wrong);
                }
                long tag = 1000 + i;
                long off = random.nextLong(buf.size());
                long len = 1 + random.nextLong(buf.size() - off);
                Outcome status;
                boolean delivered;
                if (random.nextBoolean()) {
                    buf.writeTag(tag, 0); // the device writes; rank 0 sends a piece of the buffer
                    a.write(ctx, b, reg, IOVA + off, null, 0, len, i);
                    status = a.awaitSend(ctx).status();
                    delivered = kb.verifyTag(b.process(), b.segment(), len, tag, off);
                } else {
                    kb.writeTag(b.process(), b.segment(), len, tag, 0); // rank 1 writes into the device buffer
                    b.write(ctx, a, null, 0, reg, IOVA + off, len, i);
                    status = b.awaitSend(ctx).status();
                    delivered = tagAt(ka, buf, off, len, tag);
                }
                if (status != Outcome.SUCCESS || !delivered) {
                    wrong.add("transfer " + i + " [" + off + ", +" + len + "): " + status + ", bytes "
                            + (delivered ? "right" : "wrong"));
                }
                checkTranslations(buf, reg.region(), "after transfer " + i, wrong);
                done[0]++;
            }
            finished[0] = true;
        }).start();
        new SimProcess(sim, a.node(), "exporter", ctx -> {
            for (int m = 0; m < moves && !finished[0]; m++) {
                ctx.sleep(random.nextLong(60 * Time.US));
                if (region[0] == null) {
                    continue;
                }
                move(exporter, buf, region[0], "concurrent move " + m, done, wrong);
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(List.of(), wrong);
        assertEquals(transfers, done[0]);
        assertEquals(0, ka.memory().strayWrites(), "no DMA wrote into a frame the exporter had freed");
        if (name.equals("pin-all")) {
            assertEquals(0, done[1], "a static attachment pins the buffer: the exporter moves nothing");
        } else {
            assertEquals(0, done[2], "a dynamic attachment refuses no move");
        }
    }

    /**
     * The check has teeth: an importer whose move_notify does nothing keeps the old frames in the
     * NIC, and a transfer after a move sends what they held, not the buffer's bytes.
     */
    @Test
    void anImporterThatIgnoresMoveNotifySendsTheOldFramesBytes() {
        Profile profile = Conformance.profile("default");
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, SEGMENT, PolicyRegistry.standard().create("pin-all", profile));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        DeviceMemory exporter = a.node().kernel().deviceMemory();
        DmaBuf buf = exporter.export(4 * Kernel.PAGE_SIZE);
        DmaBufAttachment deaf = buf.attach(att -> 0);
        MemoryRegion mr = a.node().nic().registerPinned(a.endpoint().pd(), IOVA, buf.size(), ACCESS, deaf.map(0, 4));
        boolean[] delivered = new boolean[1];
        List<String> stale = new ArrayList<>();
        new SimProcess(sim, a.node(), "deaf", ctx -> {
            buf.writeTag(1, 0);
            assertTrue(exporter.move(buf).done());
            buf.writeTag(2, 0);
            checkTranslations(buf, mr, "after the move", stale);
            a.write(ctx, b, new DmaBufRegistrar.Registration(mr, 0), IOVA, null, 0, buf.size(), 1);
            a.awaitSend(ctx);
            delivered[0] = b.node().kernel().verifyTag(b.process(), b.segment(), buf.size(), 2, 0);
        }).start();
        sim.run();
        assertFalse(stale.isEmpty(), "the NIC still maps the old frames");
        assertFalse(delivered[0], "the transfer sent the old frames' bytes");
    }

    /** A move by the exporter, then the region checked: counted as done or refused in {@code done}. */
    private static void move(DeviceMemory exporter, DmaBuf buf, MemoryRegion mr, String what, int[] done,
                             List<String> wrong) {
        PageOpResult r = exporter.move(buf);
        done[r.done() ? 1 : 2]++;
        if (!r.done() && r.error() != Errno.EBUSY) {
            wrong.add(what + " failed with " + r.error());
        }
        checkTranslations(buf, mr, "after " + what, wrong);
    }

    /** Every present translation of the region is the buffer's frame for that page now. */
    private static void checkTranslations(DmaBuf buf, MemoryRegion mr, String when, List<String> wrong) {
        for (int p = 0; p < buf.pages(); p++) {
            long e = mr.table().get(p);
            if ((e & Pte.PRESENT) != 0 && Pte.frame(e) != buf.frame(p)) {
                wrong.add(when + ": page " + p + " translated to frame " + Pte.frame(e) + ", the buffer is in "
                        + buf.frame(p));
            }
        }
    }

    /** Whether {@code [off, off + len)} of the buffer holds tag {@code tag}'s stream from 0. */
    private static boolean tagAt(Kernel k, DmaBuf buf, long off, long len, long tag) {
        long page = off / Kernel.PAGE_SIZE;
        long at = off;
        long end = off + len;
        while (at < end) {
            int inPage = (int) (at - page * Kernel.PAGE_SIZE);
            int n = (int) Math.min(Kernel.PAGE_SIZE - inPage, end - at);
            if (!k.memory().verifyTag(buf.frame((int) page), inPage, n, tag, at - off)) {
                return false;
            }
            at += n;
            page++;
        }
        return true;
    }
}
