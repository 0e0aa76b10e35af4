package org.pagefabric.report.timeline;

/**
 * What a timeline event shows, with its name and category in the trace-event file and its colour
 * in the report's drawing (the Okabe-Ito palette, which colour-blind readers tell apart).
 */
enum TimelineKind {
    /** A rank's registration policy at work before a post: keys, pins, cache lookups, handshakes. */
    REGISTRATION("registration", "registration", "#e69f00"),
    /** A rank waiting for a completion. */
    WAIT("wait", "wait", "#b8b8b8"),
    /** A rank computing. */
    COMPUTE("compute", "compute", "#009e73"),
    /** An operation from its post to its completion at the NIC (argument: bytes). */
    TRANSFER("transfer", "wire", "#0072b2"),
    /** An operation that completed with an error (argument: bytes). */
    FAILED_TRANSFER("failed transfer", "wire", "#1a1a1a"),
    /** get_user_pages pinning pages (argument: pages). */
    PIN("pin (get_user_pages)", "pinning", "#d55e00"),
    /** A CPU page fault and its resolution (argument: the address). */
    FAULT("page fault", "fault", "#cc79a7"),
    /** The job's pinned memory, a counter (value: bytes). */
    PINNED("pinned memory", "memory", "#6a3d9a");

    static final TimelineKind[] VALUES = values();

    private final String label;
    private final String category;
    private final String colour;

    TimelineKind(String label, String category, String colour) {
        this.label = label;
        this.category = category;
        this.colour = colour;
    }

    String label() {
        return label;
    }

    String category() {
        return category;
    }

    /** The fill (a span) or stroke (the counter) in the report's drawing, as {@code #rrggbb}. */
    String colour() {
        return colour;
    }
}
