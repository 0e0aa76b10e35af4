package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.workload.aaapps.AccessCounterWorkload;
import org.pagefabric.workload.aaapps.CoralSortWorkload;
import org.pagefabric.workload.aaapps.LoggedGetsWorkload;
import org.pagefabric.workload.dht.DhtInsertWorkload;

/** The workloads that exist, by name. */
public final class Workloads {
    private static final Map<String, Workload> BY_NAME = new LinkedHashMap<>();

    static {
        // In the order `info workloads` lists them: the basic transfers, then each seed's workloads.
        for (Workload w : List.of(new LatencyWorkload(), new BandwidthWorkload(), new PingPongWorkload(),
                new AllocReuseWorkload(), new FhPutLatencyWorkload(), new FhPutBandwidthWorkload(),
                new DhtInsertWorkload(), new SendFaultWorkload(), new InteropLatencyWorkload(),
                new TitaniumAppWorkload(), new PinCostWorkload(), new MultiPingPongWorkload(), new MpiAppWorkload(),
                new FaultLatencyWorkload(), new LammpsWorkload(), new AccessCounterWorkload(), new LoggedGetsWorkload(),
                new CoralSortWorkload(), new NetperfWorkload(), new PktGenWorkload())) {
            BY_NAME.put(w.name(), w);
        }
    }

    private Workloads() {
    }

    /** The workload called {@code name}; the error lists the valid names. */
    public static Workload byName(String name) {
        Workload w = BY_NAME.get(name);
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; valid: " + String.join(", ", names()));
        }
        return w;
    }

    /** Every workload name. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** Every workload. */
    public static List<Workload> all() {
        return List.copyOf(BY_NAME.values());
    }
}
