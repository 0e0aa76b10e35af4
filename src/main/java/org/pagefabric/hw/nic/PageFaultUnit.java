package org.pagefabric.hw.nic;

import java.util.ArrayDeque;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's page-fault bookkeeping for on-demand regions: raises at most one requester and one
 * responder fault per queue pair (001, "Concurrent page faults": "each QP has at most 2
 * concurrent page faults"), hands each to the {@link PageFaultHandler} through an event (the
 * event-queue entry), and clears it when the driver resumes it, accounting the time the QP
 * side was suspended.
 */
final class PageFaultUnit extends Component {
    private static final int NOTIFY = 1;

    private final Nic nic;
    private PageFaultHandler handler;
    private long nextId = 1;
    private final ArrayDeque<PageFault> notifying = new ArrayDeque<>();
    private final Counter[] faults = new Counter[PageFaultKind.values().length];
    private final Counter[] suspendedPs = new Counter[PageFaultKind.values().length];
    private final Counter unhandled;
    private final Counter failed;

    PageFaultUnit(Nic nic) {
        super(nic.simulator(), nic, "odp");
        this.nic = nic;
        for (PageFaultKind k : PageFaultKind.values()) {
            String kind = k.name().toLowerCase(java.util.Locale.ROOT);
            faults[k.ordinal()] = counter(kind + "_faults", "faults", k + " page faults raised");
            suspendedPs[k.ordinal()] = counter(kind + "_suspended_ps", "ps",
                    "time queue pairs spent suspended on resolved " + k + " faults");
        }
        unhandled = counter("unhandled_faults", "faults", "faults raised while no page-fault handler was installed");
        failed = counter("failed_faults", "faults", "faults the driver could not resolve: the retried access is refused");
    }

    void setHandler(PageFaultHandler handler) {
        this.handler = handler;
    }

    PageFaultHandler handler() {
        return handler;
    }

    long faults(PageFaultKind kind) {
        return faults[kind.ordinal()].value();
    }

    long suspendedPs(PageFaultKind kind) {
        return suspendedPs[kind.ordinal()].value();
    }

    /**
     * Raises a fault unless {@code qp} already waits on one of this kind (then the access is
     * simply retried or refused while it waits).
     *
     * @return whether a new fault was raised
     */
    boolean raise(PageFaultKind kind, QueuePair qp, MemoryRegion mr, long address, long length, boolean write) {
        if (qp.fault(kind) != null) {
            return false;
        }
        PageFault f = new PageFault(nextId++, kind, qp, mr, address, length, write, sim.now());
        qp.setFault(kind, f);
        faults[kind.ordinal()].increment();
        notifying.addLast(f);
        schedule(0, NOTIFY, 0);
        return true;
    }

    /**
     * Clears {@code f} if its QP is still waiting on it.
     *
     * @return false if {@code f} is not outstanding (already resumed, or superseded)
     */
    boolean resolve(PageFault f) {
        QueuePair qp = f.qp();
        if (qp.fault(f.kind()) != f) {
            return false;
        }
        qp.setFault(f.kind(), null);
        long waited = sim.now() - f.raisedPs();
        suspendedPs[f.kind().ordinal()].add(waited);
        qp.addSuspended(f.kind(), waited);
        return true;
    }

    /**
     * Clears {@code f} as resolved, but marks it failed: the retried access it suspended is
     * refused once instead of faulting again.
     *
     * @return false if {@code f} is not outstanding
     */
    boolean fail(PageFault f) {
        if (!resolve(f)) {
            return false;
        }
        f.qp().setFailedFault(f.kind(), f);
        failed.increment();
        return true;
    }

    /**
     * Whether the access of {@code kind} on {@code qp} at {@code address} is the retry of a fault
     * the driver failed; the mark is consumed, so a later access faults afresh.
     */
    boolean consumeFailed(PageFaultKind kind, QueuePair qp, MemoryRegion mr, long address) {
        PageFault f = qp.failedFault(kind);
        if (f == null || f.region() != mr || (f.address() >>> 12) != (address >>> 12)) {
            return false;
        }
        qp.setFailedFault(kind, null);
        return true;
    }

    @Override
    public void handle(int type, long arg) {
        if (type != NOTIFY) {
            throw new IllegalArgumentException("unknown page-fault unit event " + type);
        }
        PageFault f = notifying.pollFirst();
        if (handler == null) {
            unhandled.increment();
        } else if (f.qp().fault(f.kind()) == f) {
            handler.pageFault(nic, f);
        }
    }
}
