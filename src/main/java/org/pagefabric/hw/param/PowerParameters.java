package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/**
 * Power of the network: endpoint NICs and routers (switches). Energy is idle power over the run
 * plus a dynamic part per byte and per packet that crosses a port (002 §5.2.5 derives NIC and
 * router power from the bytes communicated).
 */
public final class PowerParameters {
    /** Power a NIC draws whatever it carries. */
    public static final Parameter NIC_IDLE = Parameter.power("power.nic.idle",
            "Power one endpoint NIC draws while its link is up, busy or not.");
    /** Dynamic energy per byte through a NIC port. */
    public static final Parameter NIC_PER_BYTE = Parameter.energy("power.nic.per_byte",
            "Energy per wire byte a NIC sends or receives, beyond its idle power.");
    /** Dynamic energy per packet through a NIC port. */
    public static final Parameter NIC_PER_PACKET = Parameter.energy("power.nic.per_packet",
            "Energy per packet a NIC sends or receives, beyond its bytes (framing, lookup, descriptor).");
    /** Power each router port draws whatever it carries. */
    public static final Parameter ROUTER_IDLE_PER_PORT = Parameter.power("power.router.idle_per_port",
            "Power one router (switch) port draws while its link is up; a router draws it for each of its ports.");
    /** Dynamic energy per byte through a router port. */
    public static final Parameter ROUTER_PER_BYTE = Parameter.energy("power.router.per_byte",
            "Energy per wire byte entering or leaving a router port; a forwarded byte crosses two ports.");
    /** Dynamic energy per packet through a router port. */
    public static final Parameter ROUTER_PER_PACKET = Parameter.energy("power.router.per_packet",
            "Energy per packet entering or leaving a router port; a forwarded packet crosses two ports.");

    private PowerParameters() {
    }
}
