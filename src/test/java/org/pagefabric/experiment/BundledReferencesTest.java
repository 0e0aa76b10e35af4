package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bundled experiments' published numbers: none is lost, and each says where it applies. The
 * counts only grow: a number removed from a spec is a number no longer checked against its paper.
 */
class BundledReferencesTest {
    /** Reference entries across the bundled specs; raise it when entries are added, never lower it. */
    private static final int ENTRIES = 229;
    /** Of those, withheld by the seeds. */
    private static final int WITHHELD = 96;

    @Test
    void noPublishedNumberIsRemoved() {
        int entries = 0;
        int withheld = 0;
        for (String id : SpecReader.bundledIds()) {
            for (ExperimentSpec.Reference r : SpecReader.bundled(id).reference()) {
                entries++;
                withheld += r.withheld() ? 1 : 0;
            }
        }
        assertTrue(entries >= ENTRIES, "bundled specs hold " + entries + " reference entries, fewer than " + ENTRIES);
        assertTrue(withheld >= WITHHELD, withheld + " withheld entries, fewer than " + WITHHELD);
        assertTrue(entries - withheld >= ENTRIES - WITHHELD, (entries - withheld) + " published numbers, fewer than "
                + (ENTRIES - WITHHELD));
    }

    /**
     * A number stated for one size is compared at that size: an entry names its x whenever the
     * plot has several, unless it is a trend over x or a derived value that has a single x.
     */
    @Test
    void everyReferenceNamesItsXWhenThePlotHasSeveral() {
        List<String> missing = new ArrayList<>();
        for (String id : SpecReader.bundledIds()) {
            ExperimentSpec s = SpecReader.bundled(id);
            if (!s.runnable() || s.plot() == null) {
                continue;
            }
            ExperimentSpec.Axis x = s.axis(s.plot().x());
            if (x == null || x.values().size() < 2) {
                continue;
            }
            for (int i = 0; i < s.reference().size(); i++) {
                ExperimentSpec.Reference r = s.reference().get(i);
                if (r.x() != null || r.claim() instanceof Claim.Trend t
                        && (t.shape() == Claim.Shape.INCREASING || t.shape() == Claim.Shape.DECREASING)) {
                    continue;
                }
                boolean singleX = s.derived().stream().filter(d -> d.name().equals(r.metric())).anyMatch(d ->
                        d.atCrossing() != null || d.overX() != null && x.values().size() == 2);
                if (!singleX) {
                    missing.add(id + " reference[" + i + "] (" + r.series() + ", " + r.metric() + ")");
                }
            }
        }
        assertTrue(missing.isEmpty(), "references without x on a plot with several: " + missing);
    }
}
