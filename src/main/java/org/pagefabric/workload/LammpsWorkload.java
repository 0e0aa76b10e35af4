package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A LAMMPS-like molecular-dynamics run (000 §V, Table II): {@code atoms} atoms in a cubic
 * periodic box, split over the {@code processes} of a 3-D processor grid (LAMMPS's choice of the
 * grid with the least surface: 1, 1x1x2, 1x2x2, 2x2x4, ...), each process owning the atoms of its
 * sub-domain and keeping ghost copies of the atoms within the ghost cutoff around it (periodic
 * images included, so even one process has ghosts). The run has {@code iterations * processes}
 * timesteps, as Table II's runs (100 timesteps per process, "up to 1600 steps"). Each timestep,
 * as LAMMPS's Verlet loop does it:
 * <ol>
 *   <li>forward communication: dimension by dimension, each process sends its lower and upper
 *       neighbour the positions (24 B per atom) of its atoms within the ghost cutoff of their
 *       face, and receives theirs; a later dimension's slab includes the ghosts of the earlier
 *       ones. A dimension with one process wraps onto itself and sends nothing;</li>
 *   <li>the force computation: its {@code threads_per_process} threads (one per core) each take
 *       their share of the owned atoms ({@code md.atom_step} of CPU time each, the platform's
 *       cost, from the profile) and of the ghost atoms ({@code md.ghost_step} each: packing and
 *       unpacking, binning, pairs across the sub-domain's faces), on the node's cores. The owned
 *       atoms' work divides with the processes; the ghosts' grows with the sub-domains' surface,
 *       which is what more processes cost a fixed problem;</li>
 *   <li>reverse communication: the forces on ghost atoms (24 B per atom) go back to their owners,
 *       dimension by dimension in reverse order.</li>
 * </ol>
 * The communication buffers are allocated once and reused every step (LAMMPS reuses them); the
 * receive buffers start untouched (not present), so only the first exchanges can meet a page
 * fault. Every received message is checked against the content its sender wrote for it.
 *
 * <p>{@code loop_time_s} is the simulated time of the loop and {@code timesteps_per_s} its
 * timesteps over it, as LAMMPS reports them.
 */
public final class LammpsWorkload extends AbstractWorkload {
    /** Bytes sent per ghost atom: three doubles (positions forward, forces in reverse). */
    private static final int BYTES_PER_ATOM = 24;
    private static final int FORWARD = 0;
    private static final int REVERSE = 1;
    private static final int LOW = 0;
    private static final int HIGH = 1;

    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.iterations(),
            WorkloadParameter.integer("processes", 2, "", "MPI processes, one per node, on a 3-D processor grid",
                    1, 64),
            WorkloadParameter.integer("threads_per_process", 4, "", "threads sharing each step's force computation,"
                    + " one per core", 1, 1024),
            WorkloadParameter.integer("atoms", 32_000, "", "atoms in the box, shared by the processes; 32,000 is"
                    + " the size of LAMMPS's benchmark problems", 1, 1_000_000_000),
            WorkloadParameter.decimal("ghost_cutoff", 2.8, "sigma", "ghost cutoff (force cutoff plus neighbour"
                    + " skin) in reduced units; 2.5 + 0.3 in LAMMPS's LJ benchmark", 0, 1_000),
            WorkloadParameter.decimal("density", 0.8442, "atoms/sigma^3", "number density in reduced units;"
                    + " LAMMPS's LJ benchmark's fcc lattice", 0, 1_000));

    /** The workload with its declared metadata. */
    public LammpsWorkload() {
        super(WorkloadDescriptor.of("lammps", "LAMMPS-like MD loop on a 3-D processor grid: ghost exchanges, threaded"
                + " force computation on the cores at the profile's md.atom_step and md.ghost_step, reverse exchanges:"
                + " loop time")
                // the network needs two nodes; one process leaves the second idle
                .ranks(p -> Math.max(2, processes(p))).parameters(PARAMETERS).lowerIsBetter("loop_time_s")
                .metrics(PointRun.metricsAfterVerified(List.of("loop_time_s", "timesteps_per_s", "ghosts_per_process",
                        "step_compute_ms", "step_comm_ms")))
                .segment(p -> (long) Swaps.AREAS * 3 * new Swaps(p).area)
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    private static int processes(Params params) {
        return params.intValue("processes");
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int p = processes(params);
        int steps = Math.toIntExact((long) StandardParameters.iterations(params) * p);
        int threads = params.intValue("threads_per_process");
        Swaps swaps = new Swaps(params);
        int[] grid = swaps.grid;
        var profile = job.cluster().profile();
        long perThreadPs = Math.ceilDiv(swaps.owned, threads) * profile.time(MdParameters.ATOM_STEP)
                + Math.ceilDiv(swaps.ghosts, threads) * profile.time(MdParameters.GHOST_STEP);
        boolean[] ok = {true};
        long[] loop = {Long.MAX_VALUE, 0};
        long[] comm = new long[1];
        for (int r = 0; r < p && p > 1; r++) {
            // Fresh receive buffers: mapped, never touched.
            Rank rank = job.rank(r);
            ProcessMemory mem = rank.memory();
            long recv = rank.segment() + (long) Swaps.AREAS * 3 * swaps.area / 2;
            for (long va = recv; va < rank.segment() + (long) Swaps.AREAS * 3 * swaps.area; va += Kernel.PAGE_SIZE) {
                if (!mem.heldResident(va)) {
                    mem.madvise(va, Kernel.PAGE_SIZE, Advice.DONTNEED);
                }
            }
        }
        for (int r = 0; r < p; r++) {
            Rank me = job.rank(r);
            int[] at = coords(r, grid);
            Rank[][] nb = new Rank[3][2];
            for (int d = 0; d < 3; d++) {
                nb[d][LOW] = job.rank(rankOf(shift(at, d, -1, grid), grid));
                nb[d][HIGH] = job.rank(rankOf(shift(at, d, 1, grid), grid));
            }
            int id = r;
            ThreadTeam team = new ThreadTeam(me.node().cpu(), me.node().name() + ".lammps", threads);
            new SimProcess(job.simulator(), me.node(), "rank" + r, ctx -> {
                long t0 = ctx.now();
                loop[0] = Math.min(loop[0], t0);
                postReceives(ctx, me, nb, grid, swaps, 0, FORWARD);
                postReceives(ctx, me, nb, grid, swaps, 0, REVERSE);
                for (int s = 0; s < steps; s++) {
                    long stepStart = ctx.now();
                    ok[0] &= exchange(ctx, me, id, nb, grid, swaps, s, FORWARD);
                    long computeStart = ctx.now();
                    team.run(perThreadPs);
                    ctx.await(team.done());
                    long computeEnd = ctx.now();
                    if (s + 1 < steps) {
                        // Posted before this step's reverse messages free the neighbours to go on.
                        postReceives(ctx, me, nb, grid, swaps, s + 1, FORWARD);
                        postReceives(ctx, me, nb, grid, swaps, s + 1, REVERSE);
                    }
                    ok[0] &= exchange(ctx, me, id, nb, grid, swaps, s, REVERSE);
                    if (id == 0) {
                        latencies.record(ctx.now() - stepStart);
                        comm[0] += (ctx.now() - stepStart) - (computeEnd - computeStart);
                    }
                }
                loop[1] = Math.max(loop[1], ctx.now());
            }).start();
        }
        return Run.of(() -> ok[0], () -> {
            double seconds = (loop[1] - loop[0]) / (double) Time.S;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("loop_time_s", Math.round(seconds * 1e6) / 1e6);
            m.put("timesteps_per_s", seconds <= 0 ? null : Math.round(steps / seconds * 1000.0) / 1000.0);
            m.put("ghosts_per_process", swaps.ghosts);
            m.put("step_compute_ms", Math.round(Time.toMicros(perThreadPs)) / 1000.0);
            m.put("step_comm_ms", Math.round(Time.toMicros(comm[0]) / steps) / 1000.0);
            return m;
        });
    }

    /**
     * Posts the receives of one phase of step {@code step}, in the order the neighbours send:
     * dimension by dimension (reversed for the reverse phase), from the lower neighbour (which
     * sends up first) then from the upper one.
     */
    private static void postReceives(org.pagefabric.sim.process.ProcessContext ctx, Rank me, Rank[][] nb, int[] grid,
            Swaps swaps, int step, int phase) {
        for (int k = 0; k < 3; k++) {
            int d = phase == FORWARD ? k : 2 - k;
            if (grid[d] == 1) {
                continue;
            }
            for (int side = LOW; side <= HIGH; side++) {
                me.receive(ctx, nb[d][side], swaps.recvOffset(phase, d, side), swaps.bytes[d],
                        wrId(step, phase, d, side));
            }
        }
    }

    /**
     * One communication phase of a step: for each dimension with more than one process, send
     * up then down, and wait for both neighbours' messages before the next dimension (whose slab
     * includes them). Returns whether every message arrived intact.
     */
    private static boolean exchange(org.pagefabric.sim.process.ProcessContext ctx, Rank me, int id, Rank[][] nb,
            int[] grid, Swaps swaps, int step, int phase) {
        boolean ok = true;
        for (int k = 0; k < 3; k++) {
            int d = phase == FORWARD ? k : 2 - k;
            if (grid[d] == 1) {
                continue;
            }
            int len = swaps.bytes[d];
            // Up first: the upper neighbour receives it as from its lower side.
            for (int side = HIGH; side >= LOW; side--) {
                long from = swaps.sendOffset(phase, d, side);
                DataCheck.fill(me, from, len, tag(step, phase, d, 1 - side, id));
                me.send(ctx, nb[d][side], from, len, wrId(step, phase, d, side));
            }
            for (int n = 0; n < 2; n++) {
                CompletionEntry wc = me.awaitReceive(ctx);
                int side = (int) (wc.wrId() & 1);
                int from = nb[d][side].id();
                ok &= wc.status() == Outcome.SUCCESS && me.memory().verifyTag(
                        me.segment() + swaps.recvOffset(phase, d, side), len, tag(step, phase, d, side, from), 0);
            }
            for (int n = 0; n < 2; n++) {
                ok &= me.awaitSend(ctx).status() == Outcome.SUCCESS;
            }
        }
        return ok;
    }

    /** A work-request id naming the step, phase, dimension and neighbour side (lowest bit). */
    private static long wrId(int step, int phase, int d, int side) {
        return ((long) step << 4) | ((long) phase << 3) | ((long) d << 1) | side;
    }

    /** The content a sender writes for the receiver's {@code side} of dimension {@code d}. */
    private static long tag(int step, int phase, int d, int side, int sender) {
        return 0x1A3300000000L + ((long) step << 12) + ((long) phase << 11) + ((long) d << 9) + ((long) side << 8)
                + sender;
    }

    // ------------------------------------------------------------------ processor grid

    /** LAMMPS's grid for {@code p} processes on a cubic box: the factorisation with the least surface. */
    static int[] grid(int p) {
        int[] best = {1, 1, p};
        long bestArea = Long.MAX_VALUE;
        for (int x = 1; x <= p; x++) {
            if (p % x != 0) {
                continue;
            }
            for (int y = x; y <= p / x; y++) {
                if ((p / x) % y != 0) {
                    continue;
                }
                int z = p / x / y;
                if (z < y) {
                    continue;
                }
                // Sub-domain faces of a unit cube split x * y * z ways: surface ~ xy + yz + zx.
                long area = (long) x * y + (long) y * z + (long) z * x;
                if (area < bestArea) {
                    bestArea = area;
                    best = new int[] {x, y, z};
                }
            }
        }
        return best;
    }

    private static int[] coords(int rank, int[] grid) {
        return new int[] {rank % grid[0], rank / grid[0] % grid[1], rank / grid[0] / grid[1]};
    }

    private static int[] shift(int[] at, int d, int by, int[] grid) {
        int[] c = at.clone();
        c[d] = Math.floorMod(c[d] + by, grid[d]);
        return c;
    }

    private static int rankOf(int[] c, int[] grid) {
        return c[0] + grid[0] * (c[1] + grid[1] * c[2]);
    }

    /**
     * The decomposition: the processor grid, each process's owned and ghost atoms, the ghost
     * slabs it exchanges (atoms within the ghost cutoff of a face, the face grown by the ghost
     * shells of the dimensions exchanged before it), and the segment layout (a send and a receive
     * area per phase, dimension and side, each a whole number of pages).
     */
    private static final class Swaps {
        /** Areas per dimension: phase x side, for sending and for receiving. */
        static final int AREAS = 8;
        final int[] grid;
        final long owned;
        final long ghosts;
        final int[] bytes = new int[3];
        final long area;

        Swaps(Params params) {
            int p = processes(params);
            long atoms = params.longValue("atoms");
            double cutoff = params.doubleValue("ghost_cutoff");
            double density = params.doubleValue("density");
            grid = grid(p);
            double box = Math.cbrt(atoms / density);
            double[] side = new double[3];
            for (int d = 0; d < 3; d++) {
                side[d] = box / grid[d];
            }
            owned = Math.ceilDiv(atoms, p);
            double shell = (side[0] + 2 * cutoff) * (side[1] + 2 * cutoff) * (side[2] + 2 * cutoff)
                    - side[0] * side[1] * side[2];
            ghosts = Math.round(density * shell);
            double[] face = {side[1] * side[2], (side[0] + 2 * cutoff) * side[2],
                (side[0] + 2 * cutoff) * (side[1] + 2 * cutoff)};
            long max = 1;
            for (int d = 0; d < 3; d++) {
                long slab = Math.round(density * face[d] * cutoff);
                bytes[d] = Math.toIntExact(Math.max(1, slab * BYTES_PER_ATOM));
                max = Math.max(max, bytes[d]);
            }
            area = Math.ceilDiv(max, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
        }

        /** Send areas fill the segment's first half. */
        long sendOffset(int phase, int d, int side) {
            return ((long) d * 4 + phase * 2 + side) * area;
        }

        /** Receive areas fill its second half. */
        long recvOffset(int phase, int d, int side) {
            return (long) AREAS * 3 * area / 2 + sendOffset(phase, d, side);
        }
    }
}
