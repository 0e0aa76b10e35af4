package org.pagefabric.reg.am;

import java.util.function.Supplier;
import org.pagefabric.workload.dht.DhtScheme;

/** The hashtable baselines of 002 §5.2 that run over pinned memory, by policy name. */
public enum DhtBaseline {
    /** Traditional RMA: remote atomics, puts and flushes (Listing 2). */
    RMA("rma", "RMA hashtable baseline (002 Listing 2): remote compare-and-swap and fetch-and-op on the target NIC,"
            + " puts and flushes; segment pinned as pin-all", RmaScheme::new),
    /** Active messages polled at regular intervals. */
    AM("am", "active-message baseline (002 §5.2): processes poll for messages every am.poll_interval and run the"
            + " handlers; segment pinned as pin-all", () -> new PollingAmScheme(false)),
    /** Active messages polled with exponential back-off. */
    AM_EXP("am-exp", "active messages with exponential back-off polling (002 §5.2): an empty poll doubles the"
            + " interval up to am.backoff.max_interval; segment pinned as pin-all", () -> new PollingAmScheme(true)),
    /** Active messages handled by C dedicated cores per node. */
    AM_ONLOAD("am-onload", "active messages handled by C cores per node that only poll (002 §5.2, onload_cores);"
            + " the other cores insert; segment pinned as pin-all", OnloadAmScheme::new),
    /** Active messages handled on NIC interrupts. */
    AM_INTS("am-ints", "active messages handled on NIC interrupts every am.interrupt.batch messages (002 §5.2);"
            + " segment pinned as pin-all", InterruptAmScheme::new);

    private final String policyName;
    private final String description;
    private final Supplier<DhtScheme> scheme;

    DhtBaseline(String policyName, String description, Supplier<DhtScheme> scheme) {
        this.policyName = policyName;
        this.description = description;
        this.scheme = scheme;
    }

    /** The command-line name. */
    public String policyName() {
        return policyName;
    }

    /** One line saying what the policy does. */
    public String description() {
        return description;
    }

    DhtScheme newScheme() {
        return scheme.get();
    }
}
