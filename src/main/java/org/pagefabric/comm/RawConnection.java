package org.pagefabric.comm;

import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.reg.OnDemandPaging;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One end of a reliable connection between two processes outside any job, as a second
 * application on the same nodes opens it with plain verbs: a protection domain and a completion
 * queue of its own, one buffer registered on demand (ODP) for local and remote writes, and an RC
 * queue pair connected to the other end by {@link #connect}. No registration policy of the job
 * takes part; what the buffer's faults cost is its ODP driver's.
 */
public final class RawConnection {
    private static final int ODP_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    private final Node node;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final CompletionEntry view = new CompletionEntry();
    private MemoryRegion buffer;
    private QueuePair qp;

    /**
     * A protection domain named {@code label} on {@code node}'s NIC and a completion queue of
     * {@code depth} entries named {@code <node>.<label>.cq}.
     */
    public RawConnection(Node node, String label, int depth) {
        this.node = node;
        this.pd = node.nic().allocatePd(label);
        this.cq = new CompletionQueue(node.name() + "." + label + ".cq", depth);
    }

    /** Registers {@code length} bytes at {@code va} of {@code process} on demand through {@code paging}. */
    public void registerOnDemand(OnDemandPaging paging, AddressSpace process, long va, long length) {
        buffer = paging.register(process, pd, va, length, ODP_ACCESS);
    }

    /** Connects {@code a} and {@code b} with a pair of RC queue pairs over {@code cluster}'s transport. */
    public static void connect(RawConnection a, RawConnection b, Cluster cluster) {
        a.qp = a.node.nic().createQp(a.pd, QpType.RC, a.cq, a.cq);
        b.qp = b.node.nic().createQp(b.pd, QpType.RC, b.cq, b.cq);
        Nic.connect(a.qp, b.qp, cluster.transport());
    }

    /**
     * Posts an RDMA write of {@code length} bytes from {@code localVa} of this end's buffer to
     * {@code remoteVa} of {@code remote}'s.
     */
    public void write(long wrId, long localVa, long length, RawConnection remote, long remoteVa) {
        qp.postSend(WorkRequest.write(wrId, localVa, length, buffer.lkey(), remoteVa, remote.buffer.rkey()));
    }

    /** Waits for this end's next completion; the view is refilled by the next call. */
    public CompletionEntry await(ProcessContext ctx) {
        WorkCompletion wc;
        while ((wc = cq.poll()) == null) {
            ctx.await(cq.notEmpty());
        }
        return view.show(wc);
    }
}
