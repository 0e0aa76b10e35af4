package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.ProcessBody;
import org.pagefabric.sim.process.SimProcess;

/** Two ranks under one Open-MX policy, with helpers to stream tagged messages from rank 0 to rank 1. */
final class OpenMxBed {
    final Simulator sim;
    final OpenMxPolicy policy;
    final Job job;
    final Rank a;
    final Rank b;

    OpenMxBed(Profile profile, PinMode mode, long segment, long seed) {
        sim = new Simulator(seed);
        policy = new OpenMxPolicy(profile, mode);
        job = new Job(sim, profile, 2, segment, policy);
        a = job.rank(0);
        b = job.rank(1);
    }

    /** Sends message {@code i} of {@code size} B from rank 0's offset {@code from} into rank 1's offset {@code to}. */
    void message(int i, long from, long to, long size, boolean[] ok) {
        long tag = 0x0A11_0000L + i;
        a.node().kernel().writeTag(a.process(), a.segment() + from, size, tag, 0);
        run(ctx -> b.receive(ctx, a, to, size, i), ctx -> {
            a.send(ctx, b, from, size, i);
            ok[0] &= a.awaitSend(ctx).status() == Outcome.SUCCESS;
        });
        ok[0] &= b.node().kernel().verifyTag(b.process(), b.segment() + to, size, tag, 0);
    }

    private int processes;

    /** Runs the receiver body (which posts a receive; its completion is awaited) and the sender body to the end. */
    void run(ProcessBody post, ProcessBody sender) {
        boolean[] ok = {true};
        new SimProcess(sim, b.node(), "omxtest-recv" + processes, ctx -> {
            post.run(ctx);
            ok[0] &= b.awaitReceive(ctx).status() == Outcome.SUCCESS;
        }).start();
        new SimProcess(sim, a.node(), "omxtest-send" + processes++, sender).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(true, ok[0], "receive completed");
    }

    /** Unmaps and maps again (new, zero-filled frames) {@code length} bytes at rank 1's offset {@code off}. */
    void remapReceiver(long off, long length) {
        Kernel k = b.node().kernel();
        long va = b.segment() + off;
        k.munmap(b.process(), va, length);
        k.mmap(b.process(), va, length, Prot.READ_WRITE, MapFlags.FIXED | MapFlags.POPULATE);
    }
}
