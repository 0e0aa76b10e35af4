package org.pagefabric.active;

import org.pagefabric.endpoint.Endpoint;

/**
 * What a registration policy that gives processes Active Access (002) offers the applications
 * above it: the domains of the ranks it set up, further domains of their processes, and how
 * their handlers are notified. An application reaches it through
 * {@code RegistrationPolicy.activeAccess()}, without naming the policy.
 */
public interface ActiveAccess {
    /** How the handlers of this registration's domains are notified. */
    Notification notification();

    /**
     * The domain the policy gave {@code rank} when it set the rank up (device writes to its
     * active pages reach memory as well as the log).
     *
     * @throws IllegalArgumentException if the policy did not set {@code rank} up
     */
    ActiveDomain domain(Endpoint rank);

    /**
     * A further domain of {@code rank}'s process: its own IUID and access log, on the node's
     * Active Access, notified as {@link #notification()} says. With {@code blockWrites} device
     * writes to its active pages reach only its log (W=0 for the device: active puts whose
     * handler does the work, 002 §4.1); without, they reach memory as well (W=1: counting,
     * checkpointing).
     *
     * @throws IllegalArgumentException if the policy did not set {@code rank} up
     */
    ActiveDomain newDomain(Endpoint rank, boolean blockWrites);
}
