package org.pagefabric.hw.os;

import java.util.Arrays;

/**
 * A 4-level x86-64 style radix page table: 512 {@link Pte} words per table, tables allocated on
 * demand, 4 KiB leaves in level-1 tables and 2 MiB leaves ({@link Pte#HUGE}) in level-2 tables.
 * Tables are primitive {@code long[512]} arrays in a pool; an upper-level entry points to its
 * child by the child's pool index in the frame field, with {@link Pte#PRESENT} set. The IOMMU
 * walks the same words (shared virtual addressing).
 *
 * <p>Covers a 48-bit virtual address space; user addresses are below {@link #USER_TOP}.
 */
public final class PageTable {
    /** Entries per table. */
    public static final int ENTRIES = 512;
    /** One past the highest user address (the lower half of a 48-bit space). */
    public static final long USER_TOP = 1L << 47;
    private static final long TABLE = Pte.PRESENT | Pte.WRITABLE | Pte.READABLE;

    private long[][] tables = new long[4][];
    private int[] freeIds = new int[0];
    private int freeCount;
    private int used;
    private int live;

    /** Visits leaves: {@code table[index]} is the entry for {@code va} ({@code huge}: a 2 MiB leaf). */
    @FunctionalInterface
    public interface LeafVisitor {
        /** Called once per non-zero leaf entry, in address order. */
        void visit(long va, long[] table, int index, boolean huge);
    }

    /** An empty page table (just the root). */
    public PageTable() {
        newTable();
    }

    private static int index(long va, int level) {
        return (int) (va >>> (12 + 9 * (level - 1))) & (ENTRIES - 1);
    }

    private int newTable() {
        int id;
        if (freeCount > 0) {
            id = freeIds[--freeCount];
        } else {
            if (used == tables.length) {
                tables = Arrays.copyOf(tables, used * 2);
            }
            id = used++;
        }
        tables[id] = new long[ENTRIES];
        live++;
        return id;
    }

    private void freeTable(int id) {
        tables[id] = null;
        if (freeCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, Math.max(16, freeCount * 2));
        }
        freeIds[freeCount++] = id;
        live--;
    }

    /** The level-2 table covering {@code va}, or null (creating upper tables if asked). */
    private long[] level2Table(long va, boolean create) {
        long[] t = tables[0];
        for (int level = 4; level > 2; level--) {
            int i = index(va, level);
            long e = t[i];
            if ((e & Pte.PRESENT) == 0) {
                if (!create) {
                    return null;
                }
                int id = newTable();
                t[i] = Pte.withFrame(TABLE, id);
                t = tables[id];
            } else {
                t = tables[(int) Pte.frame(e)];
            }
        }
        return t;
    }

    /** The leaf entry for {@code va} (a 4 KiB PTE or a 2 MiB level-2 entry), or 0. No side effects. */
    public long leaf(long va) {
        long[] l2 = level2Table(va, false);
        if (l2 == null) {
            return 0;
        }
        long e = l2[index(va, 2)];
        if ((e & Pte.HUGE) != 0) {
            return e;
        }
        if ((e & Pte.PRESENT) == 0) {
            return 0;
        }
        return tables[(int) Pte.frame(e)][index(va, 1)];
    }

    /** Table levels a hardware walk of {@code va} reads (1 to 4): the cost driver of a TLB miss. */
    public int walkDepth(long va) {
        long[] t = tables[0];
        for (int level = 4; level >= 1; level--) {
            long e = t[index(va, level)];
            if ((e & Pte.PRESENT) == 0 || level == 1 || (level == 2 && (e & Pte.HUGE) != 0)) {
                return 5 - level;
            }
            t = tables[(int) Pte.frame(e)];
        }
        return 4;
    }

    /** The level-2 word for {@code va}: 0, a pointer to a level-1 table, or a huge leaf. */
    public long level2(long va) {
        long[] l2 = level2Table(va, false);
        return l2 == null ? 0 : l2[index(va, 2)];
    }

    /** Whether {@code va} is mapped by a 2 MiB leaf. */
    public boolean isHuge(long va) {
        return (level2(va) & Pte.HUGE) != 0;
    }

    /** Sets the level-2 word (a huge leaf or 0); a level-1 table there must have been freed. */
    void setLevel2(long va, long word) {
        long[] l2 = level2Table(va, true);
        int i = index(va, 2);
        long old = l2[i];
        if ((old & Pte.PRESENT) != 0 && (old & Pte.HUGE) == 0) {
            throw new IllegalStateException("a level-1 table still hangs under " + Long.toHexString(va));
        }
        l2[i] = word;
    }

    /** The level-1 table for {@code va}, created if asked; null if absent or covered by a huge leaf. */
    long[] level1(long va, boolean create) {
        long[] l2 = level2Table(va, create);
        if (l2 == null) {
            return null;
        }
        int i = index(va, 2);
        long e = l2[i];
        if ((e & Pte.HUGE) != 0) {
            if (create) {
                throw new IllegalStateException(Long.toHexString(va) + " is mapped by a huge page: split it first");
            }
            return null;
        }
        if ((e & Pte.PRESENT) == 0) {
            if (!create) {
                return null;
            }
            int id = newTable();
            l2[i] = Pte.withFrame(TABLE, id);
            return tables[id];
        }
        return tables[(int) Pte.frame(e)];
    }

    /** Index of {@code va} in its level-1 table. */
    static int l1Index(long va) {
        return index(va, 1);
    }

    /** Sets the leaf for {@code va}: the huge level-2 word if one maps it, else the 4 KiB entry. */
    void setLeaf(long va, long pte) {
        long[] l2 = level2Table(va, true);
        int i = index(va, 2);
        if ((l2[i] & Pte.HUGE) != 0) {
            l2[i] = pte;
        } else {
            level1(va, true)[index(va, 1)] = pte;
        }
    }

    /** Frees the level-1 table under {@code va}'s level-2 entry if it holds no entry at all. */
    void freeLevel1IfEmpty(long va) {
        long[] l2 = level2Table(va, false);
        if (l2 == null) {
            return;
        }
        int i = index(va, 2);
        long e = l2[i];
        if ((e & Pte.PRESENT) == 0 || (e & Pte.HUGE) != 0) {
            return;
        }
        int id = (int) Pte.frame(e);
        for (long w : tables[id]) {
            if (w != 0) {
                return;
            }
        }
        freeTable(id);
        l2[i] = 0;
    }

    /** Visits the non-zero leaves overlapping {@code [start, end)}, skipping absent subtrees. */
    public void forEach(long start, long end, LeafVisitor visitor) {
        if (start < end) {
            walk(tables[0], 4, 0, start, end, visitor);
        }
    }

    private void walk(long[] t, int level, long base, long start, long end, LeafVisitor visitor) {
        int shift = 12 + 9 * (level - 1);
        long span = 1L << shift;
        int from = start <= base ? 0 : (int) ((start - base) >>> shift);
        for (int i = from; i < ENTRIES; i++) {
            long va = base + i * span;
            if (va >= end) {
                return;
            }
            long e = t[i];
            if (e == 0) {
                continue;
            }
            if (level == 1) {
                visitor.visit(va, t, i, false);
            } else if (level == 2 && (e & Pte.HUGE) != 0) {
                visitor.visit(va, t, i, true);
            } else if ((e & Pte.PRESENT) != 0) {
                walk(tables[(int) Pte.frame(e)], level - 1, va, start, end, visitor);
            }
        }
    }

    /** Tables allocated (root included). */
    public int tableCount() {
        return live;
    }

    /** Heap bytes held, roughly. */
    public long footprintBytes() {
        return 48 + 16 + 4L * tables.length + (long) live * (16 + 8L * ENTRIES) + 16 + 4L * freeIds.length;
    }
}
