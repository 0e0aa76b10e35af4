package org.pagefabric.reg.part;

import org.pagefabric.config.Profile;

/**
 * PART (000): no pinning, no preparation; network page faults are resolved by the fault
 * tasklet with the chosen page-in (PIO, PI4, PIA) and the failed block is retransmitted after an
 * Explicit Retransmission Request, or after the source's time-out in the variant without ERR.
 */
public final class PartPolicy extends PartFamilyPolicy {
    /** Page in the faulting page only, ERR. */
    public static final String PIO = "part-pio";
    /** Page in the faulting page's block, ERR. */
    public static final String PI4 = "part-pi4";
    /** Page in the rest of the transfer, ERR. */
    public static final String PIA = "part-pia";
    /** Page in the faulting page only; no ERR: the source's time-out retransmits. */
    public static final String PIO_TIMEOUT = "part-pio-timeout";

    /** The policy with its page-in and retransmission trigger. */
    public PartPolicy(String name, Profile profile, PageIn pageIn, boolean err) {
        super(name, profile, pageIn, err);
    }
}
