package org.pagefabric.workload.dht;

/**
 * A registration policy that can run the distributed hashtable: it hands the {@code dht-insert}
 * workload a fresh {@link DhtScheme} for each run. Policies without it are refused by the
 * workload with a one-line error.
 */
public interface DhtSchemeProvider {
    /** A new scheme for one run. */
    DhtScheme newDhtScheme();
}
