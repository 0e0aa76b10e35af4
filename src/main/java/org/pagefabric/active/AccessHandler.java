package org.pagefabric.active;

import org.pagefabric.hw.iommu.aa.AccessRecord;

/**
 * A handler associated with pages: runs on a core of the page's node for each logged access to
 * them, touching local state only (no remote synchronization). It returns what its work cost;
 * the record is reused after the call.
 */
@FunctionalInterface
public interface AccessHandler {
    /** Handles one logged access; returns the cost of the work in picoseconds. */
    long handle(AccessRecord access);
}
