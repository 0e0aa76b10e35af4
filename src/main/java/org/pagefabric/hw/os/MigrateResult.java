package org.pagefabric.hw.os;

/**
 * What migrating a range did.
 *
 * @param moved  pages moved to new frames
 * @param costPs kernel time in picoseconds
 */
public record MigrateResult(long moved, long costPs) {
}
