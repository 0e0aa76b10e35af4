/**
 * A node's kernel memory manager, functionally real and costed ({@link Kernel}): address spaces
 * with VMAs and 4-level page tables ({@link AddressSpace}, {@link VmaSet}, {@link PageTable},
 * {@link Pte}), the fault path, get_user_pages pinning and mlock, fork, reclaim to swap,
 * migration and transparent huge pages, MMU interval notifiers, userfaultfd, dma-bufs of device
 * memory, a hypervisor's second stage ({@link HostStage}), and a glibc-like allocator whose calls
 * can be hooked ({@link UserAllocator}, {@link AllocationHooks}). Every operation returns its CPU
 * cost ({@link OsCosts}); the caller charges it to a core.
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses {@code hw.mem}, {@code sim.stat} and {@code sim.collect}.
 */
package org.pagefabric.hw.os;
