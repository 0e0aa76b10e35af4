package org.pagefabric.experiment;

import java.nio.file.Path;

/** Small specs for the tests, parsed from text. */
final class Specs {
    private Specs() {
    }

    /** A latency sweep small enough to run in a test: 2 sizes × 1 policy × 2 repetitions. */
    static final String SMALL = """
            id: test.small
            title: Latency of two sizes
            workload: latency
            policies: [pin-all]
            profile: default
            seed: 7
            repetitions: 2
            grid:
              size_B: [8, 4096]
              iterations: 3
            quick:
              repetitions: 1
              grid: {size_B: [64]}
            metrics: [latency_us, bandwidth_MBps]
            plot: {x: size_B, y: latency_us, series: policy, logx: true}
            reference:
              - {series: pin-all, x: 8, metric: latency_us, value: 2.0, where: "Fig. 1"}
              - {series: pin-all, x: 4096, metric: latency_us, value: withheld}
              - {series: Touch-NoPres, x: 8, metric: latency_us, value: 4.1}
            """;

    /** 12 sizes × 2 repetitions of 2 iterations: enough points that a stop lands in the middle. */
    static final String MANY = """
            id: test.many
            title: Many points
            workload: latency
            policies: [pin-all]
            repetitions: 2
            grid:
              size_B: [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]
              iterations: 2
            """;

    static ExperimentSpec parse(String text) {
        return SpecReader.parse("test.yaml", text, Path.of("."));
    }
}
