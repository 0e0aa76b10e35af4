/**
 * Building blocks that several registration policies share: {@link
 * org.pagefabric.reg.pinning.RangePinner} pins and registers the pages under a buffer, and
 * {@link org.pagefabric.reg.pinning.RangeCache} keeps such ranges after use (an index, use counts,
 * a recency list and eviction under a bound), with the differences between the pin-down cache,
 * the Rendezvous initiator's cache and Open-MX's region cache as named rules. Nothing here names
 * a policy.
 */
package org.pagefabric.reg.pinning;
