package org.pagefabric.hw.iommu.aa;

import org.pagefabric.hw.iommu.AccessInterceptor;
import org.pagefabric.hw.iommu.ContextBank;
import org.pagefabric.hw.iommu.FaultReason;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.os.Pte;

/**
 * The Active Access extension of one IOMMU (002 §3), behind the IOMMU's
 * {@link AccessInterceptor} seam. For every translated device access it reads the leaf entry's
 * bits:
 * <ul>
 *   <li>no WL/WLD (put) or RL/RLD (get), or E=0: the IOMMU's own behaviour (translate, or fault
 *       to the ordinary fault log; 002 §3.7 "Support for Legacy Codes");
 *   <li>E=1 and WL or WLD (a put) / RL or RLD (a get): an entry in the access log of the entry's
 *       IUID, with the data for WLD / RLD. The IUID must belong to the accessing domain (its
 *       process owns the log), otherwise the access is refused to the log and counted;
 *   <li>a put to a page whose domain blocks device writes (W=0 for devices, see
 *       {@link #blockWrites}) is absorbed: its data reaches only the log; with W=1 it reaches
 *       memory and, for WLD, the log as well;
 *   <li>a get of a registered flushing page is an active flush ({@link FlushingBuffer}).
 * </ul>
 * An access is at most {@link #maxAccessBytes()} (one PCIe transaction, 4 KiB): a longer one is
 * not logged and counted. Its first packet reserves the room of the whole access in the log;
 * the (device, tag) pair goes into the {@link TagBuffer} while packets remain, so interleaved
 * accesses fill their own entries. When the log or the tag buffer is full the access is held
 * back ({@link #stalled()}): the device must retry it (PCIe backpressure), nothing is lost. A
 * get's data is replicated when its read reply passes ({@link #readReply}), matched by tag.
 *
 * <p>The packet a device is about to move is announced with {@link #beginPacket} before the
 * IOMMU translates it. Nothing here allocates per access.
 */
public final class ActiveAccessUnit implements AccessInterceptor {
    private static final long PAGE_MASK = 4095;
    private final AccessLogTable table;
    private final TagBuffer tags;
    private final FlushingBuffer flushing;
    private final int maxAccess;
    private final long logAccessPs;
    private final boolean[] writesBlocked = new boolean[Pte.MAX_IUID + 1];
    private final AccessLogListener[] listeners = new AccessLogListener[Pte.MAX_IUID + 1];

    // the packet being translated
    private int device;
    private long tag;
    private long accessVa;
    private int accessLength;
    private int packetOffset;
    private int packetLength;
    private Packet packet;
    private boolean handled;
    private boolean stalled;
    private int pendingRead = -1;

    private long logged;
    private long stalls;
    private long isolationRefusals;
    private long oversize;
    private long flushes;

    /**
     * @param tableEntries  entries of the access log table
     * @param tagEntries    entries of the packet tag buffer
     * @param flushEntries  entries of the flushing buffer
     * @param maxAccess     largest active access in bytes (one bus transaction)
     * @param logAccessPs   one memory access of the IOMMU to a log
     */
    public ActiveAccessUnit(int tableEntries, int tagEntries, int flushEntries, int maxAccess, long logAccessPs) {
        this.table = new AccessLogTable(tableEntries);
        this.tags = new TagBuffer(tagEntries);
        this.flushing = new FlushingBuffer(flushEntries);
        if (maxAccess <= 0) {
            throw new IllegalArgumentException("the largest active access must be positive, got " + maxAccess);
        }
        this.maxAccess = maxAccess;
        this.logAccessPs = logAccessPs;
    }

    /** Programs a log into the access log table, with its listener and whether device writes to its pages are blocked (W=0). */
    public void program(AccessLog log, AccessLogListener listener, boolean blockWrites) {
        table.program(log);
        listeners[log.iuid()] = listener;
        writesBlocked[log.iuid()] = blockWrites;
    }

    /** Whether device writes to pages of {@code iuid} are absorbed into its log (W=0 for devices). */
    public boolean blockWrites(int iuid) {
        return writesBlocked[iuid];
    }

    /** Registers the flushing page of a domain's log. */
    public void registerFlushingPage(long pageVa, int iuid) {
        flushing.register(pageVa & ~PAGE_MASK, iuid);
    }

    /**
     * Announces the packet a device is about to move, before its translation.
     *
     * @param device    the requester (the device, or the device's queue of the access)
     * @param tag       the transaction tag, the same for every packet of one access
     * @param accessVa  the access's first address
     * @param length    the access's bytes
     * @param offset    the packet's offset in the access
     * @param p         the packet (its payload is logged for WLD), or null for a read request
     * @param packetLen the packet's bytes
     */
    public void beginPacket(int device, long tag, long accessVa, int length, int offset, Packet p, int packetLen) {
        this.device = device;
        this.tag = tag;
        this.accessVa = accessVa;
        this.accessLength = length;
        this.packetOffset = offset;
        this.packet = p;
        this.packetLength = packetLen;
        this.handled = false;
        this.stalled = false;
        this.pendingRead = -1;
    }

    /** Whether the last announced packet was held back because a log or the tag buffer was full. */
    public boolean stalled() {
        return stalled;
    }

    @Override
    public int intercept(ContextBank bank, long va, boolean write, long pte, FaultReason fault, Translation out) {
        if (handled || !Pte.has(pte, Pte.PRESENT)) {
            return PROCEED; // a later page of a packet already decided, or nothing to steer by
        }
        if (!write) {
            int f = flushing.find(va & ~PAGE_MASK, Pte.iuid(pte));
            if (f >= 0) {
                handled = true;
                return flush(f, Pte.iuid(pte), bank.pdid());
            }
        }
        boolean meta = Pte.has(pte, write ? Pte.WL : Pte.RL);
        boolean data = Pte.has(pte, write ? Pte.WLD : Pte.RLD);
        if (!(meta || data) || !Pte.has(pte, Pte.E)) {
            return PROCEED;
        }
        handled = true;
        int iuid = Pte.iuid(pte);
        AccessLog log = table.lookup(iuid);
        if (log == null || log.ownerDomain() != bank.pdid()) {
            isolationRefusals++; // a page naming another process's IUID never reaches that log
            return PROCEED;
        }
        if (accessLength > maxAccess) {
            oversize++;
            return PROCEED;
        }
        int kind = write ? (data ? AccessKind.PUT_DATA : AccessKind.PUT) : (data ? AccessKind.GET_DATA : AccessKind.GET);
        int t = tags.find(device, tag);
        if (t < 0) {
            if (data && !tags.hasRoom()) {
                return stall(out);
            }
            int slot = log.reserve(kind, device, tag, accessVa, accessLength, data ? accessLength : 0);
            if (slot < 0) {
                return stall(out);
            }
            out.addCost(logAccessPs);
            logged++;
            if (!data) {
                notify(log, 1);
                return write && writesBlocked[iuid] ? ABSORB : PROCEED;
            }
            t = tags.add(device, tag, log, slot, accessLength, accessVa);
        }
        out.addCost(logAccessPs);
        if (write) {
            fillFrom(t);
            return writesBlocked[iuid] ? ABSORB : PROCEED;
        }
        pendingRead = t; // the reply's data is replicated by readReply
        return PROCEED;
    }

    private int stall(Translation out) {
        stalled = true;
        stalls++;
        return ABSORB;
    }

    private void fillFrom(int t) {
        AccessLog log = tags.log(t);
        long before = log.committed();
        if (packet.hasBytes) {
            log.fill(tags.slot(t), packetOffset, packet.bytes, 0, packetLength);
        } else {
            log.fillTagged(tags.slot(t), packetOffset, packet.contentTag, packet.tagPosition, packetLength);
        }
        tags.arrived(t, packetLength);
        int newly = (int) (log.committed() - before);
        if (newly > 0) {
            notify(log, newly);
        }
    }

    /**
     * The read reply of the packet announced last passes back to the device with its data in
     * {@code p}: a get of an RLD page is replicated into its log entry, matched by the tag buffer.
     */
    public void readReply(Packet p) {
        if (pendingRead < 0) {
            return;
        }
        this.packet = p;
        fillFrom(pendingRead);
        pendingRead = -1;
    }

    private int flush(int f, int iuid, int pdid) {
        flushes++;
        AccessLog log = table.lookup(iuid);
        if (log != null && log.ownerDomain() == pdid) {
            flushing.activate(f, device, tag, log.reserved());
            AccessLogListener l = listeners[iuid];
            if (l != null) {
                l.flushRequested(log);
            }
        }
        return PROCEED;
    }

    /**
     * The CPU consumed entries of {@code log}: completes the active flushes of its domain whose
     * entries are all processed.
     *
     * @return flushes completed now
     */
    public int completeFlushes(AccessLog log) {
        int done = 0;
        for (int i = 0; i < flushing.capacity(); i++) {
            if (flushing.iuid(i) == log.iuid() && flushing.complete(i, log.consumed())) {
                done++;
            }
        }
        return done;
    }

    private void notify(AccessLog log, int entries) {
        AccessLogListener l = listeners[log.iuid()];
        if (l != null) {
            l.committed(log, entries);
        }
    }

    /** The access log table. */
    public AccessLogTable table() {
        return table;
    }

    /** The packet tag buffer. */
    public TagBuffer tags() {
        return tags;
    }

    /** The flushing buffer. */
    public FlushingBuffer flushing() {
        return flushing;
    }

    /** Largest active access, bytes. */
    public int maxAccessBytes() {
        return maxAccess;
    }

    /** Accesses logged (entries reserved). */
    public long logged() {
        return logged;
    }

    /** Packets held back for want of room. */
    public long stalls() {
        return stalls;
    }

    /** Accesses whose page named an IUID the accessing domain does not own. */
    public long isolationRefusals() {
        return isolationRefusals;
    }

    /** Accesses longer than the largest active access, not logged. */
    public long oversize() {
        return oversize;
    }

    /** Gets of flushing pages. */
    public long flushes() {
        return flushes;
    }
}
