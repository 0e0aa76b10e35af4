package org.pagefabric.report.timeline;

/** What a timeline event shows, with its name and category in the trace-event file. */
enum TimelineKind {
    /** A rank's registration policy at work before a post: keys, pins, cache lookups, handshakes. */
    REGISTRATION("registration", "registration"),
    /** A rank waiting for a completion. */
    WAIT("wait", "wait"),
    /** A rank computing. */
    COMPUTE("compute", "compute"),
    /** An operation from its post to its completion at the NIC (argument: bytes). */
    TRANSFER("transfer", "wire"),
    /** An operation that completed with an error (argument: bytes). */
    FAILED_TRANSFER("failed transfer", "wire"),
    /** get_user_pages pinning pages (argument: pages). */
    PIN("pin (get_user_pages)", "pinning"),
    /** A CPU page fault and its resolution (argument: the address). */
    FAULT("page fault", "fault"),
    /** The job's pinned memory, a counter (value: bytes). */
    PINNED("pinned memory", "memory");

    static final TimelineKind[] VALUES = values();

    private final String label;
    private final String category;

    TimelineKind(String label, String category) {
        this.label = label;
        this.category = category;
    }

    String label() {
        return label;
    }

    String category() {
        return category;
    }
}
