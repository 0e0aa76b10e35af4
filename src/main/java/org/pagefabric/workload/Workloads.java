package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workloads that exist, by name. */
public final class Workloads {
    private static final Map<String, Workload> BY_NAME = new LinkedHashMap<>();

    static {
        for (Workload w : List.of(new LatencyWorkload(), new BandwidthWorkload(), new PingPongWorkload(),
                new AllocReuseWorkload(), new FhPutLatencyWorkload(), new FhPutBandwidthWorkload(),
                new org.pagefabric.workload.dht.DhtInsertWorkload())) {
            BY_NAME.put(w.name(), w);
        }
        for (Workload w : List.of(new SendFaultWorkload(), new InteropLatencyWorkload())) {
            BY_NAME.put(w.name(), w);
        }
        Workload titanium = new TitaniumAppWorkload();
        BY_NAME.put(titanium.name(), titanium);
        for (Workload w : List.of(new PinCostWorkload(), new MultiPingPongWorkload(), new MpiAppWorkload())) {
            BY_NAME.put(w.name(), w);
        }
        for (Workload w : List.of(new FaultLatencyWorkload(), new LammpsWorkload())) {
            BY_NAME.put(w.name(), w);
        }
        for (Workload w : List.of(new org.pagefabric.workload.aaapps.AccessCounterWorkload(),
                new org.pagefabric.workload.aaapps.LoggedGetsWorkload(),
                new org.pagefabric.workload.aaapps.CoralSortWorkload())) {
            BY_NAME.put(w.name(), w);
        }
        Workload netperf = new NetperfWorkload();
        BY_NAME.put(netperf.name(), netperf);
        Workload pktgen = new PktGenWorkload();
        BY_NAME.put(pktgen.name(), pktgen);
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
