package org.pagefabric.comm;

/**
 * What the network of a job spent over a run, as a row reports it: the NICs' and the routers'
 * energy and their average power (see {@link Job#networkEnergy}).
 *
 * @param nicJ        energy of all NICs, joules
 * @param routerJ     energy of all routers, joules
 * @param nicPowerW    average power of all NICs over the run, watts (0 for an empty run)
 * @param routerPowerW average power of all routers over the run, watts (0 for an empty run)
 */
public record Energy(double nicJ, double routerJ, double nicPowerW, double routerPowerW) {
}
