package org.pagefabric.workload.dht;

import org.pagefabric.sim.process.ProcessContext;

/**
 * How an insert of the distributed hashtable (002 §4.1) reaches the volume of the process that
 * owns it: one communication scheme of 002 §5.2 (RMA, AM, AM-Exp, AM-Onload, AM-Ints, and the
 * Active Access variants). The {@code dht-insert} workload owns the volumes, the element
 * stream, the timing and the verification; a scheme only moves elements.
 *
 * <p>Life cycle, all on the simulation thread: {@link #setUp} once, before any process runs;
 * then every inserting process ({@link #inserts}) calls {@link #insert} for each of its
 * elements, then {@link #finish} once. Target-side work happens in the scheme's own events:
 * datagrams of the {@link org.pagefabric.comm.rma.DatagramRma} arrive through {@link #onMessage}, and the scheme applies
 * elements with {@link DhtContext#applyLocally} (a handler on a core) or with remote atomics
 * and puts on {@link DhtContext#volume} through the fabric (RMA). Every element must end up
 * applied exactly once: the workload checks each volume's content against what was inserted.
 *
 * <p>A scheme instance serves one run; it may keep per-rank state sized in {@link #setUp}.
 * Implementations are listed, with the registration each needs, by {@link DhtSchemeProvider}.
 */
public interface DhtScheme {
    /** Prepares the scheme for a run: per-rank state, per-node servers, datagram handling. */
    void setUp(DhtContext dht);

    /**
     * Whether process {@code rank} inserts elements. A scheme that dedicates cores to handlers
     * (AM-Onload) answers {@code false} for the processes on those cores.
     */
    default boolean inserts(int rank) {
        return true;
    }

    /**
     * Inserts {@code elem} into the volume of process {@code target}, from process {@code rank}.
     * Returns when the inserting process may go on: after the last remote operation for a
     * blocking scheme (RMA), after posting the message for an asynchronous one (AM, AA); the
     * time the process spends is what the scheme costs it. The workload counts the remote
     * accesses the insert issued through the fabric. A blocking scheme that places the element
     * itself calls {@link DhtContext#applied} once the element is in its volume.
     */
    void insert(ProcessContext ctx, int rank, int target, long elem);

    /**
     * Process {@code rank} has issued all its inserts (or inserts none: a process that only owns
     * a volume). A scheme whose processes also handle
     * incoming elements keeps serving here until {@link DhtContext#allApplied()} completes;
     * the default returns at once.
     */
    default void finish(ProcessContext ctx, int rank) {
    }

    /**
     * A message the scheme sent with {@link org.pagefabric.comm.rma.DatagramRma#message} has reached the host memory of
     * {@code target}'s node.
     *
     * @param source the sending process
     * @param target the process the message is for
     * @param elem   the element it carries
     */
    default void onMessage(int source, int target, long elem) {
        throw new IllegalStateException(getClass().getSimpleName() + " sends no messages");
    }

    /**
     * Whether the scheme dedicates {@link DhtContext#onloadCores()} cores per node to handlers
     * (AM-Onload); the workload then checks {@code onload_cores} and, for {@code best}, asks
     * the experiment layer to try every value ({@link DhtInsertWorkload#search}).
     */
    default boolean usesOnloadCores() {
        return false;
    }

    /**
     * A lower bound, in picoseconds, of the simulated time one {@link #insert} takes its
     * inserting process; 0 (the default) claims none. The search over AM-Onload's C uses it to
     * stop a trial as soon as the inserts its processes have not begun prove that it cannot win.
     * A bound that is too high would make that search wrong, so claim only what every insert
     * certainly costs.
     */
    default long minInsertPs(DhtContext dht) {
        return 0;
    }

    /**
     * A lower bound, in picoseconds, of when the last of the {@code unapplied} elements not yet
     * applied ({@link DhtContext#unapplied}) will be in its volume, from the scheme's handler
     * state now; 0 (the default) claims none. Used like {@link #minInsertPs}, with the same
     * caution.
     */
    default long appliedNoEarlierThan(long unapplied) {
        return 0;
    }

    /** Every inserting process has issued all its inserts (messages may still be in flight). */
    default void allIssued() {
    }
}
