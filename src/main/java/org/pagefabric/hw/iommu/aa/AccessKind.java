package org.pagefabric.hw.iommu.aa;

/** What an access log entry records (002 §3.3, §3.4). */
public final class AccessKind {
    /** A put's metadata (WL=1, WLD=0). */
    public static final int PUT = 0;
    /** A put's metadata and data (WLD=1). */
    public static final int PUT_DATA = 1;
    /** A get's metadata (RL=1, RLD=0). */
    public static final int GET = 2;
    /** A get's metadata and the data it returned (RLD=1). */
    public static final int GET_DATA = 3;

    private AccessKind() {
    }

    /** Whether entries of this kind carry data. */
    public static boolean carriesData(int kind) {
        return kind == PUT_DATA || kind == GET_DATA;
    }

    /** Whether entries of this kind record a write (put). */
    public static boolean isPut(int kind) {
        return kind == PUT || kind == PUT_DATA;
    }

    /** A readable name. */
    public static String name(int kind) {
        return switch (kind) {
            case PUT -> "put";
            case PUT_DATA -> "put+data";
            case GET -> "get";
            case GET_DATA -> "get+data";
            default -> throw new IllegalArgumentException("unknown access kind " + kind);
        };
    }
}
