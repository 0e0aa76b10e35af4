package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentRunnerTest {
    private static ExperimentRunner.Options threads(int n) {
        return new ExperimentRunner.Options(n, false, false, Map.of());
    }

    @Test
    void sameCsvBytesWithOneAndThreeThreads() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        long t0 = System.nanoTime();
        ExperimentResult one = ExperimentRunner.run(spec, threads(1));
        System.out.println("4 points: " + (System.nanoTime() - t0) / 1e6 + " ms");
        ExperimentResult three = ExperimentRunner.run(spec, threads(3));
        assertEquals(ResultWriter.csv(one.rows()), ResultWriter.csv(three.rows()));
        assertEquals(ResultWriter.json(one.rows()), ResultWriter.json(three.rows()));
        assertEquals(4, one.rows().size());
        assertTrue(one.complete());
        assertTrue(one.allVerified());
    }
}
