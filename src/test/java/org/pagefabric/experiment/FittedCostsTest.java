package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.workload.Workload;

/**
 * The bundled cost coefficients are what {@link CostCalibration} fits on the bundled measurements
 * with today's structural cost, and every bundled experiment's workload has its own.
 */
class FittedCostsTest {
    private static List<CostCalibration.Measurement> measurements() throws IOException {
        try (InputStream in = FittedCostsTest.class.getResourceAsStream("cost-measurements.tsv")) {
            return CostCalibration.read(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        }
    }

    @Test
    void theBundledCoefficientsAreTheFitOfTheBundledMeasurements() throws IOException {
        CostCalibration.Fit fit = CostCalibration.fit(measurements());
        assertEquals(List.of(), fit.unmatched(), "every measurement names a bundled full-size point");
        CostModel bundled = CostModel.bundled();
        String redo = "; if the structural cost or the bundled specs changed, run the command in "
                + CostModel.RESOURCE + " and commit its output there";
        assertEquals(fit.coefficients(), bundled.coefficients(), "workload coefficients" + redo);
        assertEquals(fit.exponents(), bundled.exponents(), "exponents" + redo);
        assertEquals(fit.classes(), bundled.classes(), "class coefficients" + redo);
        assertEquals(fit.fallback(), bundled.fallback(), "default" + redo);
    }

    @Test
    void everyBundledExperimentsWorkloadHasItsOwnCoefficient() {
        Map<String, Double> own = CostModel.bundled().coefficients();
        for (String id : SpecReader.bundledIds()) {
            String workload = SpecReader.bundled(id).workload().name();
            assertTrue(own.containsKey(workload), id + ": workload " + workload + " has no fitted coefficient");
        }
    }

    @Test
    void aWorkloadWithoutMeasurementsTakesTheDefaultInProportionToItsStructuralCost() {
        CostModel bundled = CostModel.bundled();
        assertEquals(bundled.fallback(), bundled.coefficient("no-such-workload"));
        assertEquals(1.0, bundled.exponent("no-such-workload"));
        double lo = bundled.coefficients().values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = bundled.coefficients().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertTrue(bundled.fallback() > 0 && bundled.fallback() < 1, "" + bundled.fallback());
        assertTrue(bundled.exponents().values().stream().allMatch(b -> b >= 0 && b <= CostCalibration.MAX_EXPONENT),
                bundled.exponents().toString());
        assertTrue(lo < hi);
    }

    @Test
    void aClassCoefficientOverridesItsWorkloadsAndTheEstimateRanksTheMeasuredPoints() throws IOException {
        ExperimentRunner table3 = new ExperimentRunner(SpecReader.bundled("fh.table3"),
                new ExperimentRunner.Options(1, false, false, Map.of()));
        Workload w = table3.spec().workload();
        ExperimentPoint firehose = table3.points().stream().filter(p -> p.policy().equals("firehose")).findFirst()
                .orElseThrow();
        ExperimentPoint unpin = table3.points().stream().filter(p -> p.policy().equals("rendezvous-unpin")
                && p.workloadValues().get("app").equals(firehose.workloadValues().get("app"))).findFirst().orElseThrow();
        assertEquals(CostModel.structural(w, firehose), CostModel.structural(w, unpin));
        // measured: pin-put-unpin for every put costs several times Firehose's one-sided puts
        assertTrue(CostModel.bundled().cpuSeconds(w, unpin) > 3 * CostModel.bundled().cpuSeconds(w, firehose));
        CostCalibration.Fit fit = CostCalibration.fit(measurements());
        assertTrue(fit.spearman() > 0.95, "Spearman " + fit.spearman());
        assertTrue(fit.spearman() >= fit.spearmanWorkload() && fit.spearmanWorkload() > fit.spearmanStructural());
    }

    @Test
    void spearmanTakesTiesAtTheirMeanRank() {
        assertEquals(1.0, CostCalibration.spearman(new double[] {1, 2, 3}, new double[] {10, 20, 300}), 1e-12);
        assertEquals(-1.0, CostCalibration.spearman(new double[] {1, 2, 3}, new double[] {3, 2, 1}), 1e-12);
        // ranks (1.5, 1.5, 3) against (1, 2, 3)
        assertEquals(Math.sqrt(3) / 2, CostCalibration.spearman(new double[] {5, 5, 9}, new double[] {1, 2, 3}), 1e-12);
    }

    @Test
    void aMalformedMeasurementLineIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CostCalibration.read(new BufferedReader(new StringReader("a\tb\t1.0\nx\ty\n"))));
        assertTrue(e.getMessage().startsWith("line 2: expected experiment<TAB>label<TAB>cpu_s"), e.getMessage());
    }
}
