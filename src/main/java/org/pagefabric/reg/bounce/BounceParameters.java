package org.pagefabric.reg.bounce;

import org.pagefabric.config.Parameter;

/** Bounce buffers: puts staged through statically pinned buffers and copied at both ends (seed 004 §3.3). */
public final class BounceParameters {
    /** Bytes of one bounce buffer: the largest piece of a put that moves at once. */
    public static final Parameter BUFFER_SIZE = Parameter.size("bounce.buffer_size",
            "Bytes of one bounce buffer; a larger put is cut into pieces of this size.").positive();
    /** Bounce buffers a rank keeps for each peer. */
    public static final Parameter BUFFERS = Parameter.count("bounce.buffers",
            "Bounce buffers a rank keeps for each peer: pieces of puts to that peer in flight at once.").positive();
    /** Rate of one core copying between a user buffer and a bounce buffer. */
    public static final Parameter COPY_BANDWIDTH = org.pagefabric.reg.pinning.CpuCopy.COPY_BANDWIDTH;
    /** Fixed cost of one copy. */
    public static final Parameter COPY_OVERHEAD = org.pagefabric.reg.pinning.CpuCopy.COPY_OVERHEAD;

    private BounceParameters() {
    }
}
