package org.pagefabric.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;
import org.pagefabric.workload.dht.DhtInsertWorkload;

/**
 * How the distributed hashtable's cost grows with ranks (the target: 1024 nodes x 32
 * processes in under 10 minutes and 12 GB of heap): one run of {@code dht-insert} per rank
 * count, with its wall time, its events and events per second, the bytes the simulation thread
 * allocated per event, and the heap: the most live data any garbage collection during the run
 * left behind ({@code live_MB}, what {@code -Xmx} must hold) and the heap in use right after
 * the run, garbage included ({@code heap_MB}).
 */
public final class DhtBenchmark {
    private DhtBenchmark() {
    }

    /**
     * Runs the hashtable at {@code ranks} processes and reports one row.
     *
     * @param profile   profile name or file
     * @param policy    the scheme's policy (rma, am, ...)
     * @param ranks     inserting processes
     * @param perNode   processes per node
     * @param inserts   inserts per process
     * @param seed      master seed
     */
    public static Map<String, Object> run(String profile, String policy, int ranks, int perNode, long inserts,
                                          long seed) {
        var p = ProfileRegistry.resolve(profile);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("processes", (long) ranks);
        params.put("processes_per_node", (long) perNode);
        params.put("iterations", inserts);
        params.put("collision_rate", 0.05);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (LiveHeapWatch live = new LiveHeapWatch()) {
            long allocated0 = threads.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            Map<String, Object> row = PointRun.run(p, policy, WorkloadRegistry.standard().byName(DhtInsertWorkload.NAME), params, seed);
            double wall = (System.nanoTime() - t0) / 1e9;
            long allocated = threads.getCurrentThreadAllocatedBytes() - allocated0;
            long heap = rt.totalMemory() - rt.freeMemory();
            long events = ((Number) row.get("events")).longValue();
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("ranks", ranks);
            out.put("nodes", Math.max(2, Math.ceilDiv(ranks, perNode)));
            out.put("policy", policy);
            out.put("inserts", (long) ranks * inserts);
            out.put("wall_s", Math.round(wall * 100) / 100.0);
            out.put("heap_MB", Math.max(0, heap - before) / 1_000_000);
            out.put("live_MB", Math.max(0, live.maxLive() - before) / 1_000_000);
            out.put("max_heap_MB", rt.maxMemory() / 1_000_000);
            out.put("events", events);
            out.put("events_per_s", Math.round(events / wall));
            out.put("alloc_B_per_event", events == 0 ? 0 : Math.round(10.0 * allocated / events) / 10.0);
            out.put("inserts_per_s", row.get(DhtInsertWorkload.INSERTS_PER_S));
            out.put("verified", row.get("verified"));
            return out;
        }
    }

    /** The largest heap in use right after any garbage collection while it is open. */
    private static final class LiveHeapWatch implements NotificationListener, AutoCloseable {
        private final AtomicLong maxLive = new AtomicLong();
        private final List<NotificationEmitter> emitters = new ArrayList<>();

        LiveHeapWatch() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter e) {
                    e.addNotificationListener(this, null, null);
                    emitters.add(e);
                }
            }
        }

        @Override
        public void handleNotification(Notification n, Object handback) {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                return;
            }
            var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            long used = 0;
            for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
                used += u.getUsed();
            }
            maxLive.accumulateAndGet(used, Math::max);
        }

        /** Bytes in use after the fullest collection seen. */
        long maxLive() {
            return maxLive.get();
        }

        @Override
        public void close() {
            for (NotificationEmitter e : emitters) {
                try {
                    e.removeNotificationListener(this);
                } catch (javax.management.ListenerNotFoundException ignored) {
                    // Nothing to remove.
                }
            }
        }
    }
}
