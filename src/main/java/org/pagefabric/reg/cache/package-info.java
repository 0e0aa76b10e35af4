/**
 * The pin-down cache (registration cache) of Tezuka et al., as UCX's rcache, libfabric's MR
 * cache and Open MPI's grdma build it: regions stay pinned and registered after use, in an LRU
 * of unused entries bounded by entry and byte limits, so that a buffer used again costs a lookup
 * instead of a registration.
 *
 * <p>The price is keeping the cache true to the address space. An {@link
 * org.pagefabric.reg.cache.InvalidationMonitor} tells the cache when cached memory goes away:
 * none at all, the intercepted allocation calls (blind to statically linked and custom
 * allocators), kernel MMU interval notifiers, userfaultfd events read when the cache next
 * looks, or kdreg2's events announced by a counter in shared memory. A monitor that misses an unmap leaves a registration naming the old frames, and a
 * transfer through it reads or writes memory the application no longer sees.
 */
package org.pagefabric.reg.cache;
