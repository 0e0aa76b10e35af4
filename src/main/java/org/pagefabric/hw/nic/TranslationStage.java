package org.pagefabric.hw.nic;

/**
 * The timed translation stage in front of the DMA engine for IOMMU-translated accesses: when a
 * packet's data may reach memory (a write) or is available to the NIC (a read), given what its
 * translation cost.
 *
 * <p>It pipelines as an IOMMU bridge does: a packet's translation starts when it arrives, so the
 * IOTLB-hit latencies of consecutive packets overlap with each other and with the transfers; a
 * page-table walk holds the stage until it is done, so packets behind a walk wait for it (the
 * walk stalls the DMA engine for that packet and those queued behind it). Accesses leave in
 * arrival order (PCIe posted writes and read completions of one device stay ordered), so the
 * times it returns never decrease. Two longs of state: nothing is allocated per packet.
 */
final class TranslationStage {
    /** Until when a walk holds the stage. */
    private long stalledUntil;
    /** When the last access admitted was ready: later ones are never ready sooner. */
    private long lastReady;

    /**
     * Admits an access arriving at {@code now} whose translation takes {@code costPs}.
     *
     * @param walked whether the translation walked the page table (it then holds the stage)
     * @return when the access's data reaches memory or is available, at least {@code now}
     */
    long admit(long now, long costPs, boolean walked) {
        long start = Math.max(now, stalledUntil);
        long translated = start + costPs;
        if (walked) {
            stalledUntil = translated;
        }
        lastReady = Math.max(translated, lastReady);
        return lastReady;
    }

    /** When the last access admitted reaches memory or is available: no access in flight is ready later. */
    long lastReady() {
        return lastReady;
    }
}
