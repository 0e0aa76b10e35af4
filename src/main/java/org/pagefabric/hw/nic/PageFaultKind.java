package org.pagefabric.hw.nic;

/** Which side of a queue pair took a page fault (mlx5's WQE and RDMA-responder faults). */
public enum PageFaultKind {
    /**
     * The QP's own work request touches a non-present page of its local buffer (a WQE fault):
     * the QP's send processing stops until the fault is resumed.
     */
    REQUESTER,
    /**
     * An incoming request (RDMA write or read, send, atomic) or datagram targets a non-present
     * page: RC answers RECEIVER_NOT_READY until the fault is resumed, UD drops.
     */
    RESPONDER
}
