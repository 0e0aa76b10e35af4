package org.pagefabric.hw.os;

/**
 * The outcome of a reclaim pass.
 *
 * @param scanned   pages the clock examined
 * @param reclaimed pages written to swap and freed
 * @param costPs    kernel time in picoseconds (scan, swap-out writes, notifier callbacks)
 */
public record ReclaimResult(long scanned, long reclaimed, long costPs) {
}
