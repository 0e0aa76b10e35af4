package org.pagefabric.reg.ats;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.AtsCosts;

/**
 * What ATS/PRI costs on one profile: the device's side ({@link AtsCosts}) and the OS's
 * I/O page-fault path.
 *
 * @param device      the NIC's ATC and PCIe messages
 * @param prqEntries  entries of the IOMMU's page-request queue
 * @param interruptPs the page-request interrupt's handler ({@code ats.pri.interrupt})
 * @param iopfPs      an I/O page-fault work item before the fault itself ({@code ats.pri.iopf})
 * @param responsePs  the OS's page response ({@code ats.pri.response})
 */
record PriCosts(AtsCosts device, int prqEntries, long interruptPs, long iopfPs, long responsePs) {
    /** The costs of {@code p}. */
    static PriCosts of(Profile p) {
        AtsCosts device = new AtsCosts(p.intCount(AtsParameters.ATC_ENTRIES), p.intCount(AtsParameters.ATC_WAYS),
                p.time(AtsParameters.ATC_LOOKUP), p.time(AtsParameters.TRANSLATION_REQUEST),
                p.time(AtsParameters.PAGE_REQUEST), p.time(AtsParameters.PAGE_RESPONSE),
                p.time(AtsParameters.INVALIDATION_REQUEST), p.time(AtsParameters.INVALIDATION_COMPLETION),
                p.intCount(AtsParameters.PRI_OUTSTANDING));
        return new PriCosts(device, p.intCount(AtsParameters.PRQ_ENTRIES), p.time(AtsParameters.PRI_INTERRUPT),
                p.time(AtsParameters.PRI_IOPF), p.time(AtsParameters.PRI_RESPONSE));
    }
}
