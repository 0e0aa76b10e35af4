package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ParameterSet;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** Firehose (004). */
public final class FirehoseProvider implements PolicyProvider, ParameterSet {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        all.add(new PolicyDescriptor(FirehosePolicy.NAME, "Firehose (004): F firehoses per remote node moved by active"
                + " messages, bucket reference counts and a victim FIFO; pinned memory within M + MAXVICTIM",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), ParameterRegistry.matching("firehose.", "nic.register.", "nic.deregister.", "os.pin.", "os.unpin."),
                List.of(
                new Statistic("firehose.hits", "operations", "remote operations whose buckets all had firehoses"),
                new Statistic("firehose.misses", "operations", "remote operations that needed a firehose move"),
                new Statistic("firehose.moves", "messages", "firehose move requests sent"),
                new Statistic("firehose.pins", "buckets", "buckets pinned"),
                new Statistic("firehose.unpins", "buckets", "buckets unpinned"),
                new Statistic("firehose.fifo_reuses", "buckets", "buckets taken back from the victim FIFO unpinned"),
                new Statistic("firehose.local_hits", "operations", "local operations whose buckets were all pinned"),
                new Statistic("firehose.local_misses", "operations", "local operations that pinned a bucket"),
                new Statistic("firehose.pending_waits", "operations", "operations that waited for a move or pin another had started"),
                new Statistic("firehose.move_time", "us", "per miss: requester time from the miss to the last move reply"),
                new Statistic("firehose.move_request", "us", "per move request: active-message round trip with the handler"),
                new Statistic("firehose.move_handler", "us", "per move request: time in the remote move handler"),
                new Statistic("firehose.move_fifo_only", "us", "per move request that pinned nothing: time in the remote move handler"),
                new Statistic("firehose.pin_delay", "us", "per move request that pinned: handler time beyond its fixed work, per bucket pinned"),
                new Statistic("firehose.bookkeeping", "us", "per miss: requester bookkeeping"),
                new Statistic("firehose.unpin_time", "us", "per bucket unpinned: deregistration and unpinning"),
                new Statistic("firehose.unpin_moves", "messages", "move requests whose handler had to unpin a bucket"),
                new Statistic("firehose.detaches", "firehoses", "firehoses moved away from a mapped bucket by a miss")
                ), FirehosePolicy::new));
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(FirehoseParameters.class);
    }
}
