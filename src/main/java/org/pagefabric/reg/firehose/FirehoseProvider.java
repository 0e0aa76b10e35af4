package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.hw.profile.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** Firehose (004). */
public final class FirehoseProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        all.add(new PolicyDescriptor(FirehosePolicy.NAME, "Firehose (004): F firehoses per remote node moved by active"
                + " messages, bucket reference counts and a victim FIFO; pinned memory within M + MAXVICTIM",
                Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), ParameterRegistry.matching("firehose.", "nic.register.", "nic.deregister.", "os.pin.", "os.unpin."),
                List.of(
                new Statistic("firehose.hits", "operations", "remote operations whose buckets all had firehoses"),
                new Statistic("firehose.misses", "operations", "remote operations that needed a firehose move"),
                new Statistic("firehose.moves", "messages", "firehose move requests sent"),
                new Statistic("firehose.pins", "buckets", "buckets pinned"),
                new Statistic("firehose.unpins", "buckets", "buckets unpinned"),
                new Statistic("firehose.unpin_moves", "messages", "move requests whose handler had to unpin a bucket")), FirehosePolicy::new));
        return all;
    }
}
