package org.pagefabric.hw.os;

/** mmap flags the model honours (private anonymous mappings are implied). */
public final class MapFlags {
    /** No flags. */
    public static final int NONE = 0;
    /** MAP_FIXED: map exactly at the address, replacing whatever was there. */
    public static final int FIXED = 1;
    /** MAP_POPULATE: fault every page in now. */
    public static final int POPULATE = 1 << 1;
    /** MAP_LOCKED: lock the pages (charged to RLIMIT_MEMLOCK, populated). */
    public static final int LOCKED = 1 << 2;

    private MapFlags() {
    }
}
