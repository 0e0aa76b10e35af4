package org.pagefabric.active;

import org.pagefabric.hw.os.Pte;

/** What {@link ActiveDomain#assocPage} makes the IOMMU do with accesses to a page (002 §3.3-3.4). */
public final class Actions {
    /** Log each put's metadata (WL). */
    public static final int PUT_METADATA = 1;
    /** Log each put's metadata and data (WL, WLD). */
    public static final int PUT_DATA = 1 << 1;
    /** Log each get's metadata (RL). */
    public static final int GET_METADATA = 1 << 2;
    /** Log each get's metadata and the data it returns (RL, RLD). */
    public static final int GET_DATA = 1 << 3;

    private Actions() {
    }

    /** The PTE bits the actions set (E included when any logging is asked for). */
    public static long pteBits(int actions) {
        if ((actions & ~(PUT_METADATA | PUT_DATA | GET_METADATA | GET_DATA)) != 0 || actions == 0) {
            throw new IllegalArgumentException("actions " + actions + " are not a non-empty combination of"
                    + " PUT_METADATA, PUT_DATA, GET_METADATA, GET_DATA");
        }
        long bits = Pte.E;
        if ((actions & PUT_METADATA) != 0) {
            bits |= Pte.WL;
        }
        if ((actions & PUT_DATA) != 0) {
            bits |= Pte.WL | Pte.WLD;
        }
        if ((actions & GET_METADATA) != 0) {
            bits |= Pte.RL;
        }
        if ((actions & GET_DATA) != 0) {
            bits |= Pte.RL | Pte.RLD;
        }
        return bits;
    }
}
