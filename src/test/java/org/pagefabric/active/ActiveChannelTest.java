package org.pagefabric.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/**
 * The initiator's side of Active Access: an active flush returns only after the target has
 * consumed every entry its log held when the flush arrived, under every notification (an
 * interrupt batch larger than the puts included); handlers answering with reply puts reach the
 * source's own log, one reply per processed entry.
 */
class ActiveChannelTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");
    private static final long HANDLER_PS = 2 * Time.US;

    @ParameterizedTest
    @ValueSource(strings = {"aa-int", "aa-poll", "aa-sp"})
    void flushCompletesOnlyAfterTheLogIsConsumedAndRepliesReachTheSource(String name) {
        Simulator sim = new Simulator(11);
        var policy = PolicyRegistry.standard().create(name, PROFILE);
        ActiveAccess aa = policy.activeAccess();
        Job job = new Job(sim, PROFILE, 2, Kernel.PAGE_SIZE, policy, false);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        ActiveChannel channel = new ActiveChannel(job.cluster(), PROFILE);
        ActiveDomain target = aa.newDomain(dst.endpoint(), true);
        ActiveDomain replies = aa.newDomain(src.endpoint(), true);
        long page = dst.node().kernel().mmap(dst.process(), 0, Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long replyPage = src.node().kernel().mmap(src.process(), 0, Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.POPULATE)
                .address();
        int targetId = channel.register(target, channel.indexOf(dst.node()));
        int replyId = channel.register(replies, channel.indexOf(src.node()));
        int dstNode = channel.nodeOf(targetId);
        List<Long> handledAt = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        List<Long> replied = new ArrayList<>();
        target.assocPage(page, Actions.PUT_DATA, r -> {
            handledAt.add(sim.now());
            seen.add(r.word(0));
            return HANDLER_PS + channel.reply(dstNode, replyId, replyPage, r.word(0));
        });
        replies.assocPage(replyPage, Actions.PUT_DATA, r -> {
            replied.add(r.word(0));
            return 0;
        });
        int puts = 5; // below aa.interrupt.batch: only the flush gets an interrupt-driven log processed
        long[] flushedAt = new long[2];
        new SimProcess(sim, "source", ctx -> {
            ctx.sleep(Time.US);
            channel.flush(ctx, channel.indexOf(src.node()), targetId); // an empty log: completes at once
            flushedAt[0] = ctx.now();
            for (int i = 0; i < puts; i++) {
                channel.put(ctx, channel.indexOf(src.node()), targetId, page + 8L * i, 100 + i, 8);
            }
            channel.flush(ctx, channel.indexOf(src.node()), targetId);
            flushedAt[1] = ctx.now();
            assertEquals(puts, target.log().consumed(), "the flush returned with every put consumed");
            assertEquals(puts, seen.size());
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L), seen, "each put once, in order, with its data");
        long lastHandled = handledAt.get(handledAt.size() - 1);
        assertTrue(flushedAt[1] >= lastHandled + HANDLER_PS, "the flush waited for the last handler to finish");
        assertTrue(flushedAt[0] < Time.US + 10 * Time.US, "an empty log's flush does not wait for anything");
        assertEquals(2, channel.flushesCompleted());
        assertEquals(0, channel.pendingFlushes());
        if (!name.equals("aa-int")) {
            assertEquals(seen, replied, "one reply per processed entry reaches the source's log");
        } else {
            assertTrue(replied.isEmpty() || seen.containsAll(replied), "replies wait for the source's interrupt batch");
        }
    }
}
