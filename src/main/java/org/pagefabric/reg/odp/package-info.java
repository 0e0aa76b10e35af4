/**
 * On-Demand Paging (seed 001): the node's driver ({@link org.pagefabric.reg.odp.OdpDriver}: NIC
 * page faults resolved by page-in, translation update and resume; MMU-notifier invalidation;
 * prefetch) and the policies that use it ({@link org.pagefabric.reg.odp.OdpPolicy}: explicit,
 * implicit and prefetching). Nothing is ever pinned.
 */
package org.pagefabric.reg.odp;
