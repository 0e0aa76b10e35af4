package org.pagefabric.hw.os;

/** Memory protection bits for mmap and mprotect, as in Linux's PROT_* constants. */
public final class Prot {
    /** No access. */
    public static final int NONE = 0;
    /** Readable. */
    public static final int READ = 1;
    /** Writable. */
    public static final int WRITE = 2;
    /** Readable and writable. */
    public static final int READ_WRITE = READ | WRITE;

    private Prot() {
    }

    /** Whether {@code prot} is a combination of READ and WRITE. */
    public static boolean valid(int prot) {
        return (prot & ~READ_WRITE) == 0;
    }
}
