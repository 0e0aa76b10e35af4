package org.pagefabric.hw.os;

/**
 * The outcome of fork.
 *
 * @param child  the child's address space
 * @param costPs kernel time in picoseconds
 */
public record ForkResult(AddressSpace child, long costPs) {
}
