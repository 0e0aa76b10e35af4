package org.pagefabric.reg;

import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A policy that gives each rank one region over its whole segment at set-up (pinned, or
 * translated on demand by the IOMMU or the NIC), so that every transfer uses that region's keys
 * and obtaining them costs nothing.
 */
public interface SegmentRegionKeys extends RegistrationPolicy {
    @Override
    default Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return new Access(rank.segmentRegion().lkey(), 0);
    }

    @Override
    default Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return new Access(target.segmentRegion().rkey(), 0);
    }
}
