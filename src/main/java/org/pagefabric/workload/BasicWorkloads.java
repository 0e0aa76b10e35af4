package org.pagefabric.workload;

import java.util.List;

/** The transfer microbenchmarks and the seeds' applications that need no scheme. */
public final class BasicWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new LatencyWorkload(), new BandwidthWorkload(), new PingPongWorkload(),
                new AllocReuseWorkload(), new ThreadedFreeWorkload(), new ForkReuseWorkload(), new DmaBufMovesWorkload(), new DmaBufMrWorkload(), new FhPutLatencyWorkload(), new FhPutBandwidthWorkload(),
                new SendFaultWorkload(), new InteropLatencyWorkload(), new TitaniumAppWorkload(), new PinCostWorkload(),
                new MultiPingPongWorkload(), new MpiAppWorkload(), new FaultLatencyWorkload(), new LammpsWorkload(),
                new NetperfWorkload(), new PktGenWorkload(), new DmaReadsWorkload(), new OdpPressureWorkload(), new MultiJobWorkload(),
                new GasReadWorkload(), new HostReclaimWorkload(), new RegPoolWorkload(), new RxRingWorkload());
    }
}
