package org.pagefabric.experiment;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Measures the live heap one experiment point holds while it runs, to calibrate
 * {@link Footprint}: a sampler forces a full collection every quarter second and reads the heap
 * in use, which is then the live set; the largest sample less the live set before the point is
 * the point's footprint. Not a test: run it by hand (docs/PERFORMANCE.md has the command).
 *
 * <pre>java -cp target/classes:target/test-classes:$(cat cp.txt) org.pagefabric.experiment.FootprintProbe
 *     ID INDEX [quick] [KEY=VALUE...]</pre>
 */
public final class FootprintProbe {
    private FootprintProbe() {
    }

    /** Prints one line: the point, its model inputs, the estimate and the measured peak. */
    public static void main(String[] args) throws Exception {
        String id = args[0];
        int index = Integer.parseInt(args[1]);
        boolean quick = false;
        Map<String, String> sets = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            if (args[i].equals("quick")) {
                quick = true;
            } else {
                sets.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
            }
        }
        ExperimentRunner runner = new ExperimentRunner(SpecReader.bundled(id),
                new ExperimentRunner.Options(1, quick, false, sets));
        ExperimentPoint p = runner.points().get(index);
        MemoryMXBean heap = ManagementFactory.getMemoryMXBean();
        System.gc();
        long before = heap.getHeapMemoryUsage().getUsed();
        long[] peak = {before};
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                System.gc();
                peak[0] = Math.max(peak[0], heap.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        long start = System.nanoTime();
        sampler.start();
        runner.row(p);
        sampler.interrupt();
        sampler.join();
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Object> params = runner.spec().workload().resolve(p.workloadValues());
        System.out.printf("%s #%d %s | inputs %s | estimate %.1f MiB | measured %.1f MiB | %.1f s%n", id, index,
                p.label(), Footprint.inputs(runner.spec().workload(), params),
                Footprint.estimate(runner.spec().workload(), p) / 1048576.0, (peak[0] - before) / 1048576.0, seconds);
    }
}
