package org.pagefabric.hw.nic;

/**
 * A page-fault event the NIC raised for a queue pair: what the driver needs to resolve it (map
 * the range with {@link Nic#mapPages}) and then {@linkplain Nic#resume(PageFault) resume} the QP.
 * A QP is resumed only by the very fault it is waiting on (its {@link #id}), even if another
 * QP's fault mapped the same page meanwhile (001, "Concurrent page faults").
 *
 * @param id       the fault's number on its NIC, from 1
 * @param kind     requester (WQE) or responder fault
 * @param qp       the suspended queue pair
 * @param region   the memory region whose translation entry was not present
 * @param address  virtual address of the first byte that could not be translated
 * @param length   bytes from {@code address} to the end of the access (the rest of the local buffer,
 *                 or of the incoming message): a driver may page in that much at once, which the
 *                 001 slides advise for forward progress
 * @param write    whether the access writes (the entry must become writable)
 * @param raisedPs virtual time the fault was raised
 */
public record PageFault(long id, PageFaultKind kind, QueuePair qp, MemoryRegion region, long address, long length,
                        boolean write, long raisedPs) {
}
