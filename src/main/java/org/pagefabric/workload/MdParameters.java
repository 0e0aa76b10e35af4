package org.pagefabric.workload;

import org.pagefabric.config.Parameter;

/** A molecular-dynamics application's computation on a platform (the LAMMPS runs of seed 000, Table II). */
public final class MdParameters {
    /** CPU time of one atom for one timestep on one core. */
    public static final Parameter ATOM_STEP = Parameter.time("md.atom_step",
            "CPU time one core spends on one owned atom for one timestep of a short-range molecular-dynamics code"
            + " (pair forces over its neighbour list, the list's rebuild share, integration); the cost LAMMPS reports"
            + " as CPU time per atom per timestep.");

    /** CPU time of one ghost atom for one timestep on one core. */
    public static final Parameter GHOST_STEP = Parameter.time("md.ghost_step",
            "CPU time one core spends on one ghost atom (a copy of a neighbouring sub-domain's atom) for one timestep:"
            + " packing and unpacking its position and force, binning it, its pairs with owned atoms computed here.");

    private MdParameters() {
    }
}
