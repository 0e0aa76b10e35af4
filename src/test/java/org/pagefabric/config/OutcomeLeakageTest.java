package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Model mechanisms, never outcomes": no bundled profile may carry a number a seed measures as a
 * result. Every setting a bundled profile makes is checked by {@link OutcomeLeakageCheck}
 * against the classification of each seed's figures, tables and stated results.
 */
class OutcomeLeakageTest {
    @TempDir
    Path dir;

    private final OutcomeLeakageCheck check = new OutcomeLeakageCheck();

    @Test
    void noBundledProfileCarriesASeedOutcome() {
        List<String> problems = new ArrayList<>();
        for (String name : ProfileRegistry.bundledNames()) {
            for (ResolvedSetting s : ProfileRegistry.load(name).settings()) {
                if (s.profile().equals(name)) {
                    problems.addAll(check.violations(s));
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyDualUseHasItsReason() {
        assertEquals(List.of(), check.unexplainedDualUse());
    }

    @Test
    void theCheckCatchesAResultFigureAnOutcomeValueAndAnUnclassifiedFigure() {
        assertLeaks("link.latency", "9", "us", "000 §V Fig. 9: the latency with ERRs", "which reports outcomes");
        assertLeaks("odp.fault.resume", "135", "us", "001 Initial Testing: a 4K page fault", "which reports outcomes");
        assertLeaks("odp.fault.resume", "135", "us", "001 slide 'Page-in Flow': resume", "equals an outcome of 001");
        assertLeaks("os.unpin.base", "6", "ms", "004 §4.4: the with-unpin latency", "equals an outcome of 004");
        assertLeaks("part.tasklet", "19", "us", "000 §V Fig. 8: the tasklet", "without saying it takes a component");
        assertLeaks("link.latency", "1", "us", "002 Fig. 12: a figure", "does not classify");
        assertLeaks("link.latency", "1", "us", "000 §V: [withheld] us", "mentions a withheld value");
    }

    @Test
    void anInputTableIsAccepted() {
        Profile p = load("os.pin.base", "4.2", "us", "003 Table 1: Opteron 265 base overhead");
        assertEquals(List.of(), check.violations(p.setting(
                org.pagefabric.hw.param.OsParameters.PIN_BASE)));
    }

    private Profile load(String param, String value, String unit, String source) {
        return ProfileRegistry.loadFile(ProfileTestFiles.write(dir, "leak.yaml",
                ProfileTestFiles.oneSetting(param, value, unit, source)));
    }

    private void assertLeaks(String param, String value, String unit, String source, String expected) {
        Profile p = load(param, value, unit, source);
        ResolvedSetting s = p.setting(ParameterRegistry.find(param).orElseThrow());
        List<String> v = check.violations(s);
        assertTrue(v.stream().anyMatch(x -> x.contains(expected)), source + " -> " + v);
    }
}
