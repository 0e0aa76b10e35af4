package org.pagefabric.workload.aaapps;

/**
 * How an Active Access application (002 §4.2-§4.4, §5.2.2-§5.2.5) counts or logs what remote
 * processes do to a process's memory: what a scheme of {@link AppSchemeProvider} gives the
 * applications to run.
 */
public enum AppScheme {
    /** Active Access: the target's extended IOMMU logs the access (metadata, or a get's returned data). */
    ACTIVE,
    /** Traditional RMA: remote fetch-and-add on a counter, or the source puts a get's data back. */
    RMA,
    /** Active messages: the source sends a get's data back in a message the target handles when it polls. */
    AM,
    /** An active key-value store in the application layer (Comet-like): the target counts in a message handler. */
    AKV,
    /** Counted at the source, summed with an Allreduce at the end. */
    ALLREDUCE,
    /** Neither counting nor logging: the baseline (No-Cnt, No-FT). */
    NONE

}
