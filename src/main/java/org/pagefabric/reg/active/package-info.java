/**
 * Active Access (seed 002) as registration policies: {@link ActiveAccessPolicy} pins nothing,
 * registers each rank's segment as one region translated by the extended IOMMU over the process
 * page table, and gives each rank a domain of {@code org.pagefabric.active} (an IUID and an access
 * log) whose handlers run on the target's cores. {@link ActiveAccessProvider} offers one policy per
 * way the handlers are notified.
 *
 * <p>Layer: Registration policies. It may use every layer below {@code comm} (here {@code active},
 * {@code reg}, {@code hw}, {@code endpoint}, {@code config}) but no other policy package, and no
 * class outside it names it: it is found through {@code META-INF/services}.
 */
package org.pagefabric.reg.active;
