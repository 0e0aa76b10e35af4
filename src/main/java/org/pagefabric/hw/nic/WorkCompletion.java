package org.pagefabric.hw.nic;

import org.pagefabric.hw.net.CompletionStatus;

/**
 * A completion queue entry.
 *
 * @param wrId    the work request's identifier
 * @param opcode  the operation
 * @param status  the outcome
 * @param bytes   bytes transferred
 * @param qpn     queue pair number
 * @param timePs  virtual time of completion
 * @param value   for atomics, the old remote value; otherwise 0
 */
public record WorkCompletion(long wrId, Opcode opcode, CompletionStatus status, long bytes, int qpn, long timePs,
                             long value) {
}
