package org.pagefabric.reg.cache;

import java.util.function.BiFunction;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.reg.PolicyRefusal;

/** The invalidation monitors a pin-down cache policy can run with, each a policy of its own name. */
public enum MonitorKind {
    /** No monitor. */
    NONE("cache-nomonitor", "pin-down cache (LRU, entry and byte limits) with no invalidation monitor: "
            + "freed and reused memory keeps its stale registration", (r, p) -> new NoMonitor()),
    /** Intercepted allocation calls. */
    HOOKS("cache-hooks", "pin-down cache invalidated by intercepted munmap/brk/madvise calls (UCX memory hooks); "
            + "blind to statically linked and custom allocators", (r, p) -> new HookMonitor(r.hooks(), p.flag(RegistrationCacheParameters.HOOKS_UNSYNCHRONISED))),
    /** Kernel MMU interval notifiers. */
    MMU("cache-mmu", "pin-down cache invalidated by kernel MMU interval notifiers on every cached region (003 §3.1)",
            (r, p) -> new MmuMonitor(r.process())),
    /** userfaultfd events. */
    UFFD("cache-uffd", "pin-down cache invalidated by userfaultfd UNMAP/REMOVE events, read before each lookup "
            + "(libfabric's uffd monitor)", (r, p) -> new UffdMonitor(r.process())),
    /** HPE's kdreg2 kernel module. */
    KDREG2("cache-kdreg2", "pin-down cache invalidated by the kdreg2 kernel module (MMU notifiers on every cached region, "
            + "events announced by a counter in shared memory that each lookup loads instead of a system call)",
            (r, p) -> new Kdreg2Monitor(r.process())) {
        @Override
        public long lookupPs(Profile profile) {
            long lookup = profile.time(RegistrationCacheParameters.LOOKUP);
            long poll = profile.time(RegistrationCacheParameters.POLL);
            if (poll > lookup) {
                throw new PolicyRefusal("cache-kdreg2: profile " + profile.name() + ": "
                        + RegistrationCacheParameters.POLL.name() + " (" + poll / 1000 + " ns) exceeds "
                        + RegistrationCacheParameters.LOOKUP.name() + " (" + lookup / 1000
                        + " ns), of which it is a part; valid: 0 to " + lookup / 1000 + " ns");
            }
            return lookup - poll + profile.time(RegistrationCacheParameters.KDREG2_CHECK);
        }
    };

    private final String policyName;
    private final String description;
    private final BiFunction<Endpoint, Profile, InvalidationMonitor> factory;

    MonitorKind(String policyName, String description, BiFunction<Endpoint, Profile, InvalidationMonitor> factory) {
        this.policyName = policyName;
        this.description = description;
        this.factory = factory;
    }

    /** The name of the cache policy with this monitor, e.g. {@code cache-mmu}. */
    public String policyName() {
        return policyName;
    }

    /** One line saying what the policy does. */
    public String description() {
        return description;
    }

    /**
     * The time of one lookup under this monitor: {@code cache.lookup}, which includes an empty poll
     * of the monitor by a system call.
     */
    public long lookupPs(Profile profile) {
        return profile.time(RegistrationCacheParameters.LOOKUP);
    }

    /** A new monitor watching {@code rank}'s process, configured by {@code profile}. */
    public InvalidationMonitor create(Endpoint rank, Profile profile) {
        return factory.apply(rank, profile);
    }
}
