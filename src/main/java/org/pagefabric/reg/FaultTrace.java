package org.pagefabric.reg;

/**
 * How one node's network page faults were handled by a fault path of PART's kind (000 §III): the
 * faulting pages the NI logged, the pages paged in and the Explicit Retransmission Requests (ERR)
 * issued, as running sums; and the instants of the first fault's handling since
 * {@link #restart()}, which 000 Fig. 8 breaks the latency of a faulting write into. An instant is 0
 * while its phase has not happened.
 */
public interface FaultTrace {
    /** Unique faulting pages the node read from its NI's fault log so far. */
    long faultPages();

    /** Pages paged in to resolve faults so far. */
    long pagesPagedIn();

    /** Explicit Retransmission Requests issued so far. */
    long errs();

    /** Forgets the instants: the next fault starts a new trace. */
    void restart();

    /** When the first fault was logged. */
    long faultPs();

    /** When the first fault interrupt's handler began its own work (delivery and entry excluded). */
    long handlerStartPs();

    /** When that handler ended. */
    long handlerPs();

    /** When the first bottom half (tasklet) that read the fault log after the handler began. */
    long taskletStartPs();

    /** When that bottom half ended. */
    long taskletPs();

    /** When the first ERR after that bottom half began to be issued. */
    long errStartPs();

    /** When that ERR was sent. */
    long errPs();
}
