package org.pagefabric.workload.aaapps;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.pagefabric.active.Actions;
import org.pagefabric.active.ActiveDomain;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.hw.os.Kernel;

/**
 * Incremental checkpointing of RMA-written memory with Active Access (002 §4.3): the tracked
 * pages are marked W=1 WL=1 WLD=0, so remote puts still reach memory and the IOMMU logs only
 * their metadata; the log's handler records each written page. {@link #take} copies exactly the
 * pages written since the last checkpoint out of the process's memory and starts a new epoch.
 * Runs on the real IOMMU path ({@code ActiveAccessPolicy}, {@code nic.iommu: true}).
 */
public final class IncrementalCheckpoint {
    private final ProcessMemory memory;
    private final TreeSet<Long> dirty = new TreeSet<>();
    private final Map<Long, byte[]> saved = new TreeMap<>();
    private long pagesCopied;

    /** Tracks {@code pages} pages from {@code va} of the domain's process, whose memory {@code memory} is. */
    public IncrementalCheckpoint(ActiveDomain domain, ProcessMemory memory, long va, int pages) {
        this.memory = memory;
        for (int p = 0; p < pages; p++) {
            domain.assocPage(va + p * Kernel.PAGE_SIZE, Actions.PUT_METADATA, rec -> {
                dirty.add(rec.va & ~(Kernel.PAGE_SIZE - 1));
                return 0;
            });
        }
    }

    /** The pages written remotely since the last checkpoint, as the access log reported them. */
    public TreeSet<Long> dirtyPages() {
        return new TreeSet<>(dirty);
    }

    /** Copies the dirty pages into the checkpoint and clears the dirty set; returns the pages copied. */
    public int take() {
        int n = 0;
        for (long page : dirty) {
            byte[] copy = new byte[(int) Kernel.PAGE_SIZE];
            memory.read(page, copy, 0, (int) Kernel.PAGE_SIZE);
            saved.put(page, copy);
            n++;
        }
        pagesCopied += n;
        dirty.clear();
        return n;
    }

    /** The checkpointed content of a page, or null if it was never copied. */
    public byte[] saved(long page) {
        return saved.get(page);
    }

    /** Pages copied over all checkpoints. */
    public long pagesCopied() {
        return pagesCopied;
    }
}
