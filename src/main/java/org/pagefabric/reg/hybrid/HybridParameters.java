package org.pagefabric.reg.hybrid;

import org.pagefabric.config.Parameter;

/** Where a hybrid policy stops copying and starts registering. */
public final class HybridParameters {
    /**
     * Largest put copied through bounce buffers; a longer one is registered. libfabric's EFA
     * provider calls it {@code FI_EFA_MAX_MEMCPY_SIZE} ({@code man/fi_efa.7.md}).
     */
    public static final Parameter COPY_THRESHOLD = Parameter.size("hybrid.copy_threshold",
            "Largest put copied through pre-registered bounce buffers; a longer one registers the user buffer"
                    + " through a pin-down cache (libfabric EFA's FI_EFA_MAX_MEMCPY_SIZE).");

    private HybridParameters() {
    }
}
