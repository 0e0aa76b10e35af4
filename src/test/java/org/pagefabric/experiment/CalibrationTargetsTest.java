package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.config.SourceCitation;

/**
 * Every fitted value of a bundled profile names its calibration target, and that target is a
 * published number: an existing reference of a bundled experiment whose value the seed states.
 * Calibrating on a withheld value would let the paper's answer leak into the model. Each target
 * fits one parameter, and each parameter one target.
 */
class CalibrationTargetsTest {
    @Test
    void fittedValuesNameOnePublishedReferenceEach() {
        Map<String, String> parameterOfTarget = new HashMap<>();
        for (String name : ProfileRegistry.bundledNames()) {
            Profile p = ProfileRegistry.load(name);
            for (ResolvedSetting s : p.settings()) {
                if (!s.profile().equals(name) || s.citation() == null
                        || s.citation().kind() != SourceCitation.Kind.FITTED) {
                    continue;
                }
                String target = s.citation().calibrationTarget();
                String[] parts = target.split("#");
                assertTrue(SpecReader.bundledIds().contains(parts[0]),
                        name + ": " + s.parameter().name() + " is fitted on " + target + ", not a bundled experiment");
                ExperimentSpec spec = SpecReader.bundled(parts[0]);
                ExperimentSpec.Reference ref = spec.reference().stream().filter(r -> parts[1].equals(r.id()))
                        .findFirst().orElse(null);
                assertNotNull(ref, name + ": " + s.parameter().name() + " is fitted on " + target
                        + ", but " + parts[0] + " has no reference with id " + parts[1]);
                assertFalse(ref.withheld(), name + ": " + s.parameter().name() + " is fitted on the withheld " + target);
                assertNotNull(ref.value(), name + ": " + target + " is a trend, not a number to fit on");
                String other = parameterOfTarget.putIfAbsent(target, name + ":" + s.parameter().name());
                assertTrue(other == null || other.equals(name + ":" + s.parameter().name())
                                || other.endsWith(":" + s.parameter().name()),
                        target + " calibrates both " + other + " and " + name + ":" + s.parameter().name());
            }
        }
    }

    @Test
    void aFittedSourceParsesWithItsTarget() {
        SourceCitation c = SourceCitation.parse("fitted: odp.fault#fault_4k by pagefabric fit odp.fault --param x=1..2");
        assertEquals(SourceCitation.Kind.FITTED, c.kind());
        assertEquals("odp.fault#fault_4k", c.calibrationTarget());
        List.of("fitted:", "fitted: odp.fault", "fitted: Odp#x").forEach(t -> assertTrue(
                SourceCitation.parse(t) == null || SourceCitation.parse(t).kind() != SourceCitation.Kind.FITTED, t));
    }
}
