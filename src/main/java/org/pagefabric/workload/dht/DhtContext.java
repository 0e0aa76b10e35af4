package org.pagefabric.workload.dht;

import org.pagefabric.active.ActiveAccess;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.comm.rma.DatagramRma;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.workload.rma.RmaCosts;
import org.pagefabric.workload.rma.StallWatch;

/**
 * What a {@link DhtScheme} sees of one hashtable run: the processes and where they run, the
 * volumes, the fabric for remote operations, the costs, and the bookkeeping every scheme shares
 * (applying an element on a core, counting inserts and remote accesses, knowing when every
 * element has been applied).
 *
 * <p>Process {@code r} runs on node {@code r / processesPerNode}, core
 * {@code r % processesPerNode}, and owns volume {@code r}. Processes {@code 0 .. processes-1}
 * insert (unless their scheme dedicates their core); a run of one process adds a passive
 * process on a second node that only owns the volume it inserts into (002 §5.1, Fig. 6c).
 */
public final class DhtContext {
    /** The datagram channel the hashtable uses on every node. */
    static final int CHANNEL = 7;

    private final Job job;
    private final Simulator sim;
    private final Cluster cluster;
    private final Profile profile;
    private final DhtScheme scheme;
    private final RmaCosts costs;
    private final int processes;
    private final int ranks;
    private final int perNode;
    private final long onloadCores;
    private final int elementBytes;
    private final Volume[] volumes;
    private final long[] coreHandled;
    private final long[] cpuDebt;
    private final long[] coreBusyUntil;
    private final Completion allApplied = new Completion("dht.allApplied");
    private DatagramRma fabric;
    private long expected;
    private long applied;
    private long lastAppliedAt;
    private long inserts;
    private long collidingInserts;
    private long collidingAccesses;
    private long remoteAccesses;

    DhtContext(Job job, DhtScheme scheme, int processes, int perNode, long tableCells, long heapCells,
               long onloadCores, int elementBytes) {
        this.elementBytes = elementBytes;
        this.job = job;
        this.sim = job.simulator();
        this.cluster = job.cluster();
        this.profile = cluster.profile();
        this.scheme = scheme;
        this.costs = RmaCosts.of(profile);
        this.processes = processes;
        this.ranks = Math.max(processes, 2);
        this.perNode = processes == 1 ? 1 : perNode;
        this.onloadCores = onloadCores;
        this.volumes = new Volume[ranks];
        for (int r = 0; r < ranks; r++) {
            volumes[r] = new Volume(r, tableCells, heapCells);
        }
        this.coreHandled = new long[this.perNode];
        this.cpuDebt = new long[ranks];
        this.coreBusyUntil = new long[ranks];
    }

    /**
     * Opens the hashtable's datagram channel: atomics and puts on the volumes, puts acknowledged
     * so that RMA's flushes can wait for them, messages handed to the scheme.
     */
    void attachFabric() {
        this.fabric = new DatagramRma(null, "dht_fabric", cluster, costs.datagram(), new VolumeTarget(), CHANNEL, ranks, perNode,
                elementBytes, true);
    }

    /** What the hashtable's remote operations do at their target. */
    private final class VolumeTarget implements DatagramRma.Target {
        @Override
        public long atomic(int target, int source, int op, long address, long a, long b) {
            Volume v = volumes[target];
            return switch (op) {
                case DatagramRma.CAS -> v.cas(address, a, b);
                case DatagramRma.FETCH_ADD -> v.fetchAndAdd(address, a);
                default -> v.swap(address, a);
            };
        }

        @Override
        public void putLanded(int target, int source, long address, long value) {
            volumes[target].write(address, value);
        }

        @Override
        public void messageLanded(int target, int source, long elem, long unused, int length) {
            scheme.onMessage(source, target, elem);
        }
    }

    void expect(long total) {
        this.expected = total;
        if (total == 0) {
            allApplied.complete();
        }
    }

    /** The simulator. */
    public Simulator simulator() {
        return sim;
    }

    /** The cluster the processes run on. */
    public Cluster cluster() {
        return cluster;
    }

    /**
     * The Active Access of the job's registration policy.
     *
     * @throws PolicyRefusal if the policy offers none
     */
    public ActiveAccess activeAccess() {
        ActiveAccess aa = job.policy().activeAccess();
        if (aa == null) {
            throw new PolicyRefusal("policy '" + job.policy().name() + "' gives no Active Access, which scheme "
                    + scheme.getClass().getSimpleName() + " needs");
        }
        return aa;
    }

    /**
     * The job's first rank on node {@code node}: the process whose address space and protection
     * domain the light hashtable processes of that node share.
     */
    public Rank rankOn(int node) {
        for (Rank r : job.ranks()) {
            if (r.node() == cluster.node(node)) {
                return r;
            }
        }
        throw new IllegalArgumentException("the job has no rank on node " + node);
    }

    /** The profile of the run. */
    public Profile profile() {
        return profile;
    }

    /** The scheme of the run. */
    public DhtScheme scheme() {
        return scheme;
    }

    /** Costs from the profile. */
    public RmaCosts costs() {
        return costs;
    }

    /** The fabric for remote operations and messages: puts carry one element and are acknowledged. */
    public DatagramRma fabric() {
        return fabric;
    }

    /** Inserting processes asked for (the {@code processes} parameter). */
    public int processes() {
        return processes;
    }

    /** Processes that own a volume: {@link #processes()}, or 2 for a single inserter. */
    public int ranks() {
        return ranks;
    }

    /** Processes per node. */
    public int processesPerNode() {
        return perNode;
    }

    /** Cores per node dedicated to handlers, as the {@code onload_cores} parameter says (AM-Onload). */
    public long onloadCores() {
        return onloadCores;
    }

    /** Bytes a put or message of one element carries ({@code size_B}). */
    public int elementBytes() {
        return elementBytes;
    }

    /** The node process {@code rank} runs on. */
    public int nodeOf(int rank) {
        return rank / perNode;
    }

    /** The core (within its node) process {@code rank} runs on. */
    public int coreOf(int rank) {
        return rank % perNode;
    }

    /** The volume process {@code rank} owns. */
    public Volume volume(int rank) {
        return volumes[rank];
    }

    /**
     * Applies {@code elem} to its volume with {@link Volume#localInsert} on core {@code core} of
     * the volume's node, as a handler does, and returns what it cost the core: the memory
     * accesses of the insert (Listing 3's {@code local_insert}). Taking the element from where it
     * arrived (a message, an access log entry) is the caller's cost: it is what tells the
     * schemes apart (002 §5.2.1).
     */
    public long applyLocally(long elem, int core, long atPs) {
        int accesses = volumes[DhtHash.owner(elem)].localInsert(elem);
        coreHandled[core]++;
        long cost = accesses * costs.memoryPs();
        applied(atPs + cost);
        return cost;
    }

    /**
     * An element has been applied at time {@code atPs} (by a handler, or by the last remote
     * operation of an RMA insert); completes {@link #allApplied()} with the last one.
     */
    public void applied(long atPs) {
        applied++;
        lastAppliedAt = Math.max(lastAppliedAt, atPs);
        if (applied == expected) {
            allApplied.complete();
        }
    }

    /** Elements expected but not yet applied (handed to a handler, or placed by RMA). */
    public long unapplied() {
        return expected - applied;
    }

    /** Completes once every inserted element has been applied to its volume. */
    public Completion allApplied() {
        return allApplied;
    }

    /**
     * Whether the elements still missing at {@code nowPs} will never come: none was applied for
     * {@link StallWatch#LOST_AFTER_PS}. Processes that serve incoming elements stop then, rather than poll for
     * ever; the run's check then finds the elements missing.
     */
    public boolean lostForGood(long nowPs) {
        return nowPs - lastAppliedAt > StallWatch.LOST_AFTER_PS;
    }

    /** When the last element was applied, picoseconds. */
    public long lastAppliedAt() {
        return lastAppliedAt;
    }

    /**
     * Records one insert: whether its table cell was taken and the remote accesses
     * (atomics, puts, messages) it issued.
     */
    void recordInsert(boolean collided, int accesses) {
        inserts++;
        remoteAccesses += accesses;
        if (collided) {
            collidingInserts++;
            collidingAccesses += accesses;
        }
    }

    /** Inserts recorded. */
    public long inserts() {
        return inserts;
    }

    /** Remote accesses over all inserts. */
    public long remoteAccesses() {
        return remoteAccesses;
    }

    /** Inserts recorded as colliding. */
    public long collidingInserts() {
        return collidingInserts;
    }

    /** Remote accesses of the colliding inserts. */
    public long collidingAccesses() {
        return collidingAccesses;
    }

    /** Elements handled by each core index of the nodes (summed over nodes). */
    public long handledOnCore(int core) {
        return coreHandled[core];
    }

    /** When the core of process {@code rank} is free for handler work: now, or after its current handler. */
    public long coreFreeAt(int rank) {
        return Math.max(sim.now(), coreBusyUntil[rank]);
    }

    /**
     * Runs {@code costPs} of handler work on the core of process {@code rank} starting no earlier
     * than now: the core does one thing at a time, and the process pays the time it lost at its
     * next step ({@link #takeDebt}). Returns when the work ends.
     */
    public long stealCore(int rank, long costPs) {
        long start = Math.max(sim.now(), coreBusyUntil[rank]);
        coreBusyUntil[rank] = start + costPs;
        cpuDebt[rank] += costPs;
        return start + costPs;
    }

    /** Handler time process {@code rank} still owes its core; cleared. */
    public long takeDebt(int rank) {
        long d = cpuDebt[rank];
        cpuDebt[rank] = 0;
        return d;
    }
}
