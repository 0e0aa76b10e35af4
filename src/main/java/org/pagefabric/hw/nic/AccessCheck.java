package org.pagefabric.hw.nic;

/**
 * Why a memory access through a key was refused (or {@link #OK}). A refused access moves no
 * data and completes with an access error; the NIC counts each reason.
 */
public enum AccessCheck {
    /** Allowed. */
    OK,
    /** No registered region has this key (never was, deregistered, or forged). */
    BAD_KEY,
    /** The region exists but belongs to another protection domain. */
    WRONG_PROTECTION_DOMAIN,
    /** The access reaches outside the region. */
    OUT_OF_BOUNDS,
    /** The region's access flags do not allow this kind of access. */
    ACCESS_DENIED,
    /** A type-2 memory window's key used through a queue pair other than the one it was bound on. */
    WRONG_QUEUE_PAIR
}
