package org.pagefabric.hw.os;

/**
 * A non-cooperative userfaultfd event: part of a registered range went away.
 *
 * @param kind  what happened
 * @param start first byte
 * @param end   one past the last byte
 */
public record UserfaultEvent(Kind kind, long start, long end) {
    /** The event kinds a registration cache listens to. */
    public enum Kind {
        /** UFFD_EVENT_UNMAP: munmap or brk shrink. */
        UNMAP,
        /** UFFD_EVENT_REMOVE: madvise(MADV_DONTNEED). */
        REMOVE
    }
}
