package org.pagefabric.workload.synthetic;

import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One rank's application buffers, malloc'd from its own allocator (outside the communication
 * segment, as an application's are), each reallocated with a freshly drawn size when the
 * application churns.
 */
final class Buffers {
    private static final long MIB = 1L << 20;
    private final Rank rank;
    private final Application app;
    private final UserAllocator heap;
    private final RandomStream sizes;
    private final long[] address;
    private final long[] size;

    /** The buffers of {@code rank}, their first sizes drawn at once so that their number is known before the run. */
    Buffers(Rank rank, Application app, RandomStream sizes) {
        this.rank = rank;
        this.app = app;
        this.sizes = sizes;
        this.heap = rank.memory().allocator(new UserAllocator.Config(app.mmapThreshold(), true, 128 * 1024,
                128 * 1024, false, app.linkage()));
        int count;
        long[] drawn;
        if (app.reuseDistance() > 0) {
            count = app.reuseDistance() + 1;
            drawn = new long[count];
            for (int i = 0; i < count; i++) {
                drawn[i] = drawSize();
            }
        } else {
            // as many buffers as it takes to span the working set, the last one crossing it
            drawn = new long[SyntheticParameters.MAX_BUFFERS];
            long spanned = 0;
            count = 0;
            while (spanned < app.workingSet()) {
                drawn[count] = drawSize();
                spanned += drawn[count++];
            }
        }
        this.address = new long[count];
        this.size = java.util.Arrays.copyOf(drawn, count);
    }

    /** How many buffers the rank holds. */
    int count() {
        return address.length;
    }

    /** Mallocs every buffer (before the timed part). */
    void allocateAll(ProcessContext ctx) {
        for (int i = 0; i < address.length; i++) {
            address[i] = malloc(ctx, size[i]);
        }
    }

    /** Frees buffer {@code i} and mallocs a new one of a freshly drawn size in its place. */
    void reallocate(ProcessContext ctx, int i) {
        ctx.sleep(heap.free(address[i]));
        size[i] = drawSize();
        address[i] = malloc(ctx, size[i]);
    }

    /** Start of buffer {@code i}. */
    long address(int i) {
        return address[i];
    }

    /** Bytes of buffer {@code i}. */
    long size(int i) {
        return size[i];
    }

    /** A 64-byte-aligned offset at which {@code length} bytes fit in buffer {@code i}. */
    long offset(int i, long length) {
        long room = (size[i] - length) / 64;
        return room == 0 ? 0 : sizes.nextLong(room + 1) * 64;
    }

    private long drawSize() {
        return app.sizes().draw(sizes, app.sizeMin(), app.sizeMax());
    }

    private long malloc(ProcessContext ctx, long bytes) {
        UserAllocator.Allocation a = heap.malloc(bytes);
        ctx.sleep(a.costPs());
        if (a.address() == 0) {
            throw new SimulationException("rank " + rank.id() + ": malloc(" + bytes + ") failed; working set "
                    + app.workingSet() / MIB + " MiB");
        }
        return a.address();
    }
}
