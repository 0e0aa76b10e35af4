package org.pagefabric.hw.os;

/**
 * The outcome of mmap or brk.
 *
 * @param address the mapping's start (mmap) or the new program break (brk)
 * @param costPs  kernel time in picoseconds, page population included
 */
public record MapResult(long address, long costPs) {
}
