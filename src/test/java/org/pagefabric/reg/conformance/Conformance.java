package org.pagefabric.reg.conformance;

import java.util.List;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/** One operation of each kind between two ranks under a policy, with its bytes checked. */
final class Conformance {
    /** The operations a policy may carry, in the order the suite tries them. */
    static final List<Capability> OPERATIONS = List.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE);

    private static final long SEGMENT = 1 << 20;
    private static final long LENGTH = 48 << 10;

    private Conformance() {
    }

    /**
     * What one run did: whether the operation completed successfully ({@code null} if it threw),
     * whether the destination holds the source's bytes, what it threw, the job, and the run's end
     * time and event count.
     */
    record Outcome(Boolean completed, boolean verified, Throwable failure, Job job, long endPs, long events) {
    }

    static Profile profile(String name) {
        return ProfileRegistry.load(name);
    }

    /** A bundled profile with the hardware the policy needs. */
    static Profile profileFor(PolicyDescriptor d) {
        if (d.capabilities().contains(Capability.ACCESS_LOG)) {
            return profile("aa-gem5");
        }
        return d.capabilities().contains(Capability.NEEDS_IOMMU) ? profile("part-forth") : profile("default");
    }

    /** Runs one operation of kind {@code op} from rank 0 to rank 1 under the policy {@code d} describes. */
    static Outcome run(PolicyDescriptor d, Capability op, long seed) {
        Profile profile = profileFor(d);
        Simulator sim = new Simulator(seed);
        Job job = new Job(sim, profile, 2, SEGMENT, d.factory().apply(profile));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        Boolean[] ok = {null};
        boolean[] same = {false};
        long src = 0;
        long dst = SEGMENT / 2;
        switch (op) {
            case PUT -> {
                fill(a, src, 11);
                new SimProcess(sim, a.node(), "put", ctx -> {
                    a.write(ctx, b, src, dst, LENGTH, 1);
                    ok[0] = a.awaitSend(ctx).ok();
                    same[0] = same(a, src, b, dst);
                }).start();
            }
            case GET -> {
                fill(b, src, 13);
                new SimProcess(sim, a.node(), "get", ctx -> {
                    a.read(ctx, b, src, dst, LENGTH, 1);
                    ok[0] = a.awaitSend(ctx).ok();
                    same[0] = same(b, src, a, dst);
                }).start();
            }
            case SEND_RECEIVE -> {
                fill(a, src, 17);
                new SimProcess(sim, b.node(), "receive", ctx -> {
                    // The same id on both sides: Open-MX matches a send to a receive by it, as MX match bits.
                    b.receive(ctx, a, dst, LENGTH, 1);
                    CompletionEntry wc = b.awaitReceive(ctx);
                    ok[0] = wc.ok();
                    same[0] = same(a, src, b, dst);
                }).start();
                new SimProcess(sim, a.node(), "send", ctx -> {
                    a.send(ctx, b, src, LENGTH, 1);
                    a.awaitSend(ctx);
                }).start();
            }
            default -> throw new IllegalArgumentException(op + " is not an operation");
        }
        Throwable failure = null;
        try {
            sim.run();
            SimProcess.checkNoDeadlock(sim);
        } catch (RuntimeException e) {
            failure = e;
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof org.pagefabric.reg.PolicyRefusal r) {
                    failure = r;
                }
            }
        }
        return new Outcome(failure == null ? ok[0] : null, same[0], failure, job, sim.now(), sim.eventsExecuted());
    }

    private static void fill(Rank r, long offset, long tag) {
        Kernel k = r.node().kernel();
        k.writeTag(r.process(), r.segment() + offset, LENGTH, tag, 0);
    }

    private static boolean same(Rank from, long fromOffset, Rank to, long toOffset) {
        long x = from.node().kernel().digest(from.process(), from.segment() + fromOffset, LENGTH);
        long y = to.node().kernel().digest(to.process(), to.segment() + toOffset, LENGTH);
        return x == y;
    }
}
