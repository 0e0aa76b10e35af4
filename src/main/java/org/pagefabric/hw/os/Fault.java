package org.pagefabric.hw.os;

/**
 * The outcome of one access: how it was resolved and the CPU time the kernel spent.
 *
 * @param kind   what happened
 * @param costPs kernel time in picoseconds (0 when no fault)
 */
public record Fault(FaultKind kind, long costPs) {
    /** The common case, shared to keep the hit path allocation-free. */
    public static final Fault NONE = new Fault(FaultKind.NONE, 0);

    /** Whether the access can proceed. */
    public boolean resolved() {
        return kind.resolved();
    }
}
