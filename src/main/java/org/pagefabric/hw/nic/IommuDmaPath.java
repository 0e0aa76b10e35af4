package org.pagefabric.hw.nic;

import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's DMA path through the node's IOMMU, for regions registered with
 * {@link AccessFlags#IOMMU} (PART's shared virtual addressing, 000 §III-B; the seam Active
 * Access's extended entries use too, through the IOMMU's
 * {@link org.pagefabric.hw.iommu.AccessInterceptor}).
 *
 * <p>Every page of an access is translated by {@link Iommu#translate} with the region's
 * protection domain as PDID: IOTLB levels, page-table walk over the process page table, and on
 * a fault the IOMMU's own fault record and fault interrupt. A refused access moves nothing:
 * <ul>
 *   <li>a destination write (AXI NACK) is logged in the {@link NiFaultFifo}; if it was logged
 *       and the NI answers faults ({@link #setNackOnFault}), the transport sends a PAGE_FAULT
 *       NACK, which cancels the source's time-out until software asks for the block again with
 *       {@link #requestRetransmission}; otherwise the packet is dropped and the source's
 *       time-out recovers the block (000 §V, Fig. 9's time-out variants);
 *   <li>a source read is logged too (software pages the page in), and the packet is not sent:
 *       the source's time-out recovers the block (000 §IV, "RDMA page fault at the source").
 * </ul>
 *
 * <p><b>Time.</b> Packet accesses are timed: UD datagrams (a send's payload read, a receive's
 * placement) and RC packets (payload reads of writes, sends and read responses; placements of
 * writes, sends and read responses). A timed translation passes the {@link TranslationStage}
 * (an IOTLB hit's latency overlaps with other packets; a walk, at the profile's cost per level
 * read, stalls the packets behind it), and the data is ready only when its translation is
 * ({@link #readyAt()}): a packet leaves, and the transport ACKs a placed packet and delivers the
 * message it ends, only then. That time is counted in {@code iommu_translation_charged_ps}. Only
 * atomics' 8-byte accesses are counted ({@code iommu_translation_uncharged_ps}) without being
 * spent in virtual time.
 */
public final class IommuDmaPath {
    private final Nic nic;
    private final Iommu iommu;
    private final NiFaultFifo fifo;
    private final Translation translation = new Translation();
    private final Counter translationPs;
    private final Counter chargedPs;
    private final TranslationStage stage = new TranslationStage();
    private long readyAt;
    private final Counter destinationFaults;
    private final Counter sourceFaults;
    private final Counter absorbed;
    private boolean nackOnFault = true;
    private long faultAddress;
    private boolean lastAbsorbed;
    private org.pagefabric.hw.iommu.aa.ActiveAccessUnit activeUnit;

    IommuDmaPath(Nic nic, Iommu iommu, int fifoEntries) {
        this.nic = nic;
        this.iommu = iommu;
        this.fifo = new NiFaultFifo(fifoEntries);
        var stats = nic.simulator().statistics();
        String n = nic.name() + ".";
        this.translationPs = stats.counter(n + "iommu_translation_uncharged_ps", "ps",
                "IOMMU translation time of atomics' DMA accesses, not spent in virtual time");
        this.chargedPs = stats.counter(n + "iommu_translation_charged_ps", "ps",
                "IOMMU translation time of timed DMA accesses (UD datagrams, RC packets), spent in virtual time");
        this.destinationFaults = stats.counter(n + "iommu_destination_faults", "packets",
                "packet writes the IOMMU refused (AXI NACKs)");
        this.sourceFaults = stats.counter(n + "iommu_source_faults", "packets", "packet reads the IOMMU refused");
        this.absorbed = stats.counter(n + "iommu_absorbed", "packets", "packet accesses an access interceptor took");
    }

    /** The IOMMU every access of an IOMMU-translated region goes through. */
    public Iommu iommu() {
        return iommu;
    }

    /** The NI FIFO of refused accesses, which the fault tasklet reads. */
    public NiFaultFifo fifo() {
        return fifo;
    }

    /**
     * Whether a logged destination fault is answered with a PAGE_FAULT NACK (true, PART with
     * explicit retransmission requests) or the packet is dropped for the source's time-out.
     */
    public void setNackOnFault(boolean nack) {
        this.nackOnFault = nack;
    }

    /** Whether logged destination faults are NACKed. */
    public boolean nackOnFault() {
        return nackOnFault;
    }

    /**
     * Asks the source of message {@code messageId} on queue pair {@code qpn} to retransmit block
     * {@code block} (an Explicit Retransmission Request, sent by the NI on software's behalf).
     *
     * @return false if the message is no longer in progress
     */
    public boolean requestRetransmission(int qpn, long messageId, int block) {
        QueuePair qp = nic.queuePair(qpn);
        return qp.receiver != null && qp.receiver.requestRetransmission(messageId, block);
    }

    /**
     * Installs Active Access's IOMMU extension (002 §3): it becomes the IOMMU's access
     * interceptor, and every packet this path moves is announced to it first, so that it can log
     * put data, replicate get replies and hold packets back when a log is full.
     */
    public void attachActiveAccess(org.pagefabric.hw.iommu.aa.ActiveAccessUnit unit) {
        this.activeUnit = unit;
        iommu.setInterceptor(unit);
    }

    /** Announces a packet of message {@code p.messageId} on {@code qpn} before its DMA (Active Access). */
    void beginPacket(int qpn, Packet p, long messageAddress, long messageLength) {
        if (activeUnit != null) {
            activeUnit.beginPacket(qpn, p.messageId, messageAddress, (int) Math.min(messageLength, Integer.MAX_VALUE),
                    (int) p.offset, p, p.length);
        }
    }

    /** A packet announced by {@link #beginPacket} was read from memory: its reply passes the IOMMU. */
    void readDone(Packet p) {
        if (activeUnit != null) {
            activeUnit.readReply(p);
        }
    }

    /** Refused packet writes so far. */
    public long destinationFaults() {
        return destinationFaults.value();
    }

    /** Refused packet reads so far. */
    public long sourceFaults() {
        return sourceFaults.value();
    }

    // ------------------------------------------------------------------ DMA engine side

    /**
     * Translates {@code pages} pages from {@code va} into {@code frames}; a timed access passes
     * the translation stage, and {@link #readyAt()} then says when its data is ready.
     *
     * @param timed whether the caller spends the translation time (else it is only counted)
     * @return false at the first page refused (then {@link #faultAddress()} names it) or taken
     *         by the interceptor ({@link #lastAbsorbed()})
     */
    boolean translate(MemoryRegion mr, long va, int pages, boolean write, long[] frames, boolean timed) {
        int pdid = mr.pd().id();
        long first = va >>> PhysicalMemory.PAGE_SHIFT;
        lastAbsorbed = false;
        long cost = 0;
        boolean walked = false;
        for (int i = 0; i < pages; i++) {
            long at = Math.max(va, (first + i) << PhysicalMemory.PAGE_SHIFT);
            boolean ok = iommu.translate(pdid, at, write, translation);
            // The pages of one access are translated one after another.
            cost += translation.costPs();
            walked |= translation.hitLevel() < 0;
            if (!ok) {
                account(cost, walked, timed);
                faultAddress = at;
                if (translation.outcome() == Translation.ABSORBED) {
                    lastAbsorbed = true;
                    absorbed.increment();
                }
                return false;
            }
            frames[i] = translation.frame();
        }
        account(cost, walked, timed);
        return true;
    }

    private void account(long cost, boolean walked, boolean timed) {
        if (timed) {
            chargedPs.add(cost);
            readyAt = stage.admit(nic.simulator().now(), cost, walked);
        } else {
            translationPs.add(cost);
        }
    }

    /** After a timed translation: when the access's data reaches memory or is available. */
    long readyAt() {
        return readyAt;
    }

    /** After a refused translation: the first address refused. */
    long faultAddress() {
        return faultAddress;
    }

    /** After a refused translation: whether an access interceptor took the access. */
    boolean lastAbsorbed() {
        return lastAbsorbed;
    }

    // ------------------------------------------------------------------ NIC side

    /** A packet write to {@code messageAddress + p.offset} was refused: log it and answer. */
    SinkVerdict writeRefused(QueuePair qp, MemoryRegion mr, Packet p, long messageAddress) {
        if (lastAbsorbed) {
            // held back by a full access log: PCIe backpressure, the source retries; else the log took the data
            return activeUnit != null && activeUnit.stalled() ? SinkVerdict.RECEIVER_NOT_READY : SinkVerdict.ACCEPT;
        }
        destinationFaults.increment();
        boolean logged = fifo.log(qp.qpn(), mr.pd().id(), p.messageId, p.block, messageAddress, p.messageLength,
                faultAddress, true, nic.simulator().now());
        return logged && nackOnFault ? SinkVerdict.PAGE_FAULT : SinkVerdict.DROP;
    }

    /** A packet read of message {@code p.messageId} from a buffer at {@code messageAddress} was refused. */
    void readRefused(QueuePair qp, MemoryRegion mr, Packet p, long messageAddress, long messageLength) {
        if (lastAbsorbed) {
            return; // a get held back by a full access log: not sent, the source's time-out asks again
        }
        sourceFaults.increment();
        fifo.log(qp.qpn(), mr.pd().id(), p.messageId, p.block, messageAddress, messageLength, faultAddress, false,
                nic.simulator().now());
    }
}
