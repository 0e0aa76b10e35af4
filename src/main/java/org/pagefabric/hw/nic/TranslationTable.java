package org.pagefabric.hw.nic;

import org.pagefabric.hw.os.Pte;

/**
 * The NIC's per-page translation of one memory region: virtual page to frame, in the PTE word
 * layout ({@link Pte}), so an entry may be non-present (on-demand paging) or read-only.
 *
 * <p>Sparse, three-level: 2^13 directories of 2^13 chunks of 512 entries cover 2^35 pages (the
 * whole 47-bit user address space), and only chunks that hold a present entry exist. Metadata
 * therefore grows with mapped memory, not with the region's size: what implicit ODP, which
 * registers the whole address space up front, requires (001, "Huge MR support").
 *
 * <p>A small region (up to {@value #DENSE_MAX_PAGES} pages) keeps one dense array of exactly its
 * pages instead: rendezvous and registration caches register many one-page ranges, and a 4 KiB
 * chunk for each would cost 512 times what the region maps.
 */
public final class TranslationTable {
    private static final int CHUNK_BITS = 9;
    private static final int MID_BITS = 13;
    private static final int TOP_BITS = 13;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MID = 1 << MID_BITS;
    /** Pages the table can index. */
    public static final long MAX_PAGES = 1L << (CHUNK_BITS + MID_BITS + TOP_BITS);

    /** Regions up to this many pages use one dense array. */
    public static final int DENSE_MAX_PAGES = 1 << CHUNK_BITS;

    private final long[][][] top;
    private final long[] dense;
    private long present;
    private long chunks;

    /** A table for the whole address space: sparse, growing with what is mapped. */
    public TranslationTable() {
        this(MAX_PAGES);
    }

    /** A table for a region of {@code pages} pages: dense when small, sparse otherwise. */
    public TranslationTable(long pages) {
        if (pages <= DENSE_MAX_PAGES) {
            dense = new long[(int) Math.max(1, pages)];
            top = null;
        } else {
            dense = null;
            top = new long[1 << TOP_BITS][][];
        }
    }

    /** The entry for page index {@code page} (relative to the region's first page), 0 if none. */
    public long get(long page) {
        check(page);
        if (dense != null) {
            return page < dense.length ? dense[(int) page] : 0;
        }
        long[][] mid = top[(int) (page >>> (CHUNK_BITS + MID_BITS))];
        if (mid == null) {
            return 0;
        }
        long[] chunk = mid[(int) (page >>> CHUNK_BITS) & (MID - 1)];
        return chunk == null ? 0 : chunk[(int) page & (CHUNK - 1)];
    }

    /** Installs an entry (a present one maps a frame; 0 clears). */
    public void set(long page, long entry) {
        check(page);
        if (dense != null) {
            if (page >= dense.length) {
                throw new IllegalArgumentException("page index " + page + " is outside this region's "
                        + dense.length + " pages");
            }
            long was = dense[(int) page];
            dense[(int) page] = entry;
            present += ((entry & Pte.PRESENT) != 0 ? 1 : 0) - ((was & Pte.PRESENT) != 0 ? 1 : 0);
            return;
        }
        int t = (int) (page >>> (CHUNK_BITS + MID_BITS));
        long[][] mid = top[t];
        if (mid == null) {
            if (entry == 0) {
                return;
            }
            mid = top[t] = new long[MID][];
        }
        int m = (int) (page >>> CHUNK_BITS) & (MID - 1);
        long[] chunk = mid[m];
        if (chunk == null) {
            if (entry == 0) {
                return;
            }
            chunk = mid[m] = new long[CHUNK];
            chunks++;
        }
        int i = (int) page & (CHUNK - 1);
        boolean was = (chunk[i] & Pte.PRESENT) != 0;
        boolean is = (entry & Pte.PRESENT) != 0;
        chunk[i] = entry;
        present += (is ? 1 : 0) - (was ? 1 : 0);
    }

    /** Clears {@code count} entries from {@code page} on (an invalidation); returns how many were present. */
    public long zap(long page, long count) {
        check(page);
        long end = Math.min(page + count, MAX_PAGES);
        long cleared = 0;
        if (dense != null) {
            for (long q = page; q < Math.min(end, dense.length); q++) {
                if ((dense[(int) q] & Pte.PRESENT) != 0) {
                    cleared++;
                }
                dense[(int) q] = 0;
            }
            present -= cleared;
            return cleared;
        }
        long p = page;
        while (p < end) {
            long[][] mid = top[(int) (p >>> (CHUNK_BITS + MID_BITS))];
            long chunkEnd = Math.min(end, ((p >>> CHUNK_BITS) + 1) << CHUNK_BITS);
            long[] chunk = mid == null ? null : mid[(int) (p >>> CHUNK_BITS) & (MID - 1)];
            if (chunk != null) {
                for (long q = p; q < chunkEnd; q++) {
                    int i = (int) q & (CHUNK - 1);
                    if ((chunk[i] & Pte.PRESENT) != 0) {
                        cleared++;
                    }
                    chunk[i] = 0;
                }
            }
            p = chunkEnd;
        }
        present -= cleared;
        return cleared;
    }

    /** Present entries. */
    public long presentEntries() {
        return present;
    }

    /** Bytes of translation metadata held (chunks of entries; directories excluded). */
    public long metadataBytes() {
        return dense != null ? (long) dense.length * Long.BYTES : chunks * CHUNK * Long.BYTES;
    }

    private static void check(long page) {
        if (page < 0 || page >= MAX_PAGES) {
            throw new IllegalArgumentException("page index " + page + " is outside 0.." + (MAX_PAGES - 1));
        }
    }
}
