package org.pagefabric.hw.iommu;

/** Why a translation faulted. */
public enum FaultReason {
    /** No context bank is bound to the domain. */
    NO_CONTEXT,
    /** The walk found no present leaf (never mapped, or swapped out). */
    NOT_PRESENT,
    /** A write to a leaf without W (read-only, copy-on-write, or Active Access W=0). */
    WRITE_PROTECTED,
    /** A device read of a leaf without R (Active Access R=0). */
    READ_PROTECTED
}
