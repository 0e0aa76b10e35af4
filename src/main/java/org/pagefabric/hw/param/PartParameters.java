package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/**
 * PART's hardware (seed 000 §IV): the NI fault FIFO. The costs of the driver that drains it are
 * declared with the driver, in {@code org.pagefabric.reg.part}.
 */
public final class PartParameters {
    /** Entries of the NI FIFO that logs failed writes for the fault handler. */
    public static final Parameter NACK_FIFO_ENTRIES = Parameter.count("part.nack_fifo.entries",
            "Entries of the NI FIFO that logs failed (NACKed) writes for the fault tasklet.").positive();

    private PartParameters() {
    }
}
