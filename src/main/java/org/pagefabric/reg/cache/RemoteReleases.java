package org.pagefabric.reg.cache;

import java.util.ArrayDeque;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/**
 * One rank's outgoing releases of remote cache references: after an operation completes, the
 * initiator tells the target to drop the reference its cache took for it. The messages are sent
 * by a daemon process of the initiator, one after another, so the application does not wait for
 * the replies, as it would not wait for a one-way active message.
 */
final class RemoteReleases {
    private final ActiveMessages am;
    private final Endpoint source;
    private final int handler;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Completion notEmpty;

    private record Pending(Endpoint target, int entryId) {
    }

    RemoteReleases(JobLayout job, ActiveMessages am, Endpoint source, int handler) {
        this.am = am;
        this.source = source;
        this.handler = handler;
        this.notEmpty = new Completion("rank" + source.id() + ".rcache.releases");
        new SimProcess(job.simulator(), source.node(), "rank" + source.id() + "-rcache-release", this::run)
                .daemon().start();
    }

    /** Queues the release of entry {@code entryId} of {@code target}'s cache. */
    void release(Endpoint target, int entryId) {
        queue.add(new Pending(target, entryId));
        if (!notEmpty.isDone()) {
            notEmpty.complete();
        }
    }

    private void run(ProcessContext ctx) {
        while (true) {
            Pending p;
            while ((p = queue.poll()) == null) {
                notEmpty.reset();
                ctx.await(notEmpty);
            }
            am.request(ctx, source, p.target(), handler, p.entryId(), 0, 0, 0);
        }
    }
}
