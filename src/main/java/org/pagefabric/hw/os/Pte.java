package org.pagefabric.hw.os;

/**
 * The page-table entry word shared by the CPU page tables and the IOMMU that walks them
 * (shared virtual addressing): one {@code long} per entry, so that page tables are primitive
 * arrays and a million mappings cost eight megabytes, not a million objects.
 *
 * <pre>
 * bit  0      P    present
 * bit  1      W    writable (AA: W=0 makes a put fault or log)
 * bit  2      R    readable by devices (AA: R=0 makes a get fault or log)
 * bit  3      A    accessed
 * bit  4      D    dirty
 * bit  5      H    huge: a 2 MiB leaf in a level-2 table
 * bit  6      COW  copy-on-write (software bit; W is clear while it is set)
 * bits 7-10   WL, WLD, RL, RLD  Active Access log controls (002 §3.2: Intel-ignored bits 7-10)
 * bit  11     E    Active Access: a fault goes to the access log (1) or the fault log (0)
 * bits 12-51  frame number (40 bits), or the swap slot when SWAPPED is set
 * bits 52-61  IUID: IOMMU user domain id (002 §3.2: bits 52-61, 1024 domains)
 * bit  62     SWAPPED  not present, contents in swap slot (software bit)
 * </pre>
 */
public final class Pte {
    /** Present. */
    public static final long PRESENT = 1L;
    /** Writable. */
    public static final long WRITABLE = 1L << 1;
    /** Readable by devices. */
    public static final long READABLE = 1L << 2;
    /** Accessed. */
    public static final long ACCESSED = 1L << 3;
    /** Dirty. */
    public static final long DIRTY = 1L << 4;
    /** A 2 MiB leaf. */
    public static final long HUGE = 1L << 5;
    /** Copy-on-write. */
    public static final long COW = 1L << 6;
    /** Active Access: log puts' metadata. */
    public static final long WL = 1L << 7;
    /** Active Access: log puts' metadata and data. */
    public static final long WLD = 1L << 8;
    /** Active Access: log gets' metadata. */
    public static final long RL = 1L << 9;
    /** Active Access: log gets' metadata and data. */
    public static final long RLD = 1L << 10;
    /** Active Access: faults go to the access log. */
    public static final long E = 1L << 11;
    /** Not present, contents in swap. */
    public static final long SWAPPED = 1L << 62;

    private static final int FRAME_SHIFT = 12;
    private static final long FRAME_MASK = ((1L << 40) - 1) << FRAME_SHIFT;
    private static final int IUID_SHIFT = 52;
    private static final long IUID_MASK = ((1L << 10) - 1) << IUID_SHIFT;
    /** Largest IUID. */
    public static final int MAX_IUID = (1 << 10) - 1;

    private Pte() {
    }

    /** The frame number (or swap slot) of an entry. */
    public static long frame(long pte) {
        return (pte & FRAME_MASK) >>> FRAME_SHIFT;
    }

    /** The entry with its frame number (or swap slot) replaced. */
    public static long withFrame(long pte, long frame) {
        if (frame < 0 || frame >= (1L << 40)) {
            throw new IllegalArgumentException("frame number " + frame + " does not fit 40 bits");
        }
        return (pte & ~FRAME_MASK) | (frame << FRAME_SHIFT);
    }

    /** The IUID of an entry. */
    public static int iuid(long pte) {
        return (int) ((pte & IUID_MASK) >>> IUID_SHIFT);
    }

    /** The entry with its IUID replaced. */
    public static long withIuid(long pte, int iuid) {
        if (iuid < 0 || iuid > MAX_IUID) {
            throw new IllegalArgumentException("IUID " + iuid + " is not in 0.." + MAX_IUID);
        }
        return (pte & ~IUID_MASK) | ((long) iuid << IUID_SHIFT);
    }

    /** Whether all of {@code bits} are set. */
    public static boolean has(long pte, long bits) {
        return (pte & bits) == bits;
    }

    /** A readable rendering, e.g. {@code P W R A D frame=0x1234}. */
    public static String describe(long pte) {
        StringBuilder b = new StringBuilder();
        String[] names = {"P", "W", "R", "A", "D", "H", "COW", "WL", "WLD", "RL", "RLD", "E"};
        for (int i = 0; i < names.length; i++) {
            if ((pte & (1L << i)) != 0) {
                b.append(names[i]).append(' ');
            }
        }
        if ((pte & SWAPPED) != 0) {
            b.append("SWAPPED ");
        }
        b.append(((pte & SWAPPED) != 0 ? "slot=0x" : "frame=0x")).append(Long.toHexString(frame(pte)));
        int iuid = iuid(pte);
        if (iuid != 0) {
            b.append(" iuid=").append(iuid);
        }
        return b.toString();
    }
}
