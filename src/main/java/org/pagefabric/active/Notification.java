package org.pagefabric.active;

/** How a process learns that its access log has entries (002 §3.5). */
public enum Notification {
    /** An MSI every {@code aa.interrupt.batch} entries (and on an active flush); handlers run in its handler. */
    INTERRUPT("aa-int"),
    /** A thread on a dedicated core polls the log's tail in memory ({@code aa.log.access} per check). */
    POLLING("aa-poll"),
    /** A dedicated hyperthread polls the tail in the CPU scratchpad ({@code aa.scratchpad.access} per check). */
    SCRATCHPAD("aa-sp");

    private final String policyName;

    Notification(String policyName) {
        this.policyName = policyName;
    }

    /** The registration policy name of this variant. */
    public String policyName() {
        return policyName;
    }
}
