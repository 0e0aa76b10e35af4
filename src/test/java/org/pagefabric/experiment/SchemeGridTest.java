package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code scheme} axis: each scheme runs under the listed policies that give it the
 * registration it needs, in the order written, and a spec that pairs a scheme with no policy (or
 * a policy with no scheme) is refused before anything runs.
 */
class SchemeGridTest {
    private static ExperimentSpec spec(String policies, String schemes, String plot) {
        return SpecReader.parse("schemes.yaml", """
                id: test.schemes
                title: schemes and policies
                workload: dht-insert
                policies: %s
                profile: aa-crayxe6
                repetitions: 2
                grid:
                  processes: [4, 8]
                  processes_per_node: 2
                  scheme: %s
                %s""".formatted(policies, schemes, plot), null);
    }

    @Test
    void eachSchemeRunsUnderThePoliciesThatGiveItsRegistrationInOrder() {
        ExperimentSpec s = spec("[aa-poll, aa-sp, pin-all]", "[aa, rma, am]", "plot: {x: processes, y: inserts_per_s}");
        List<ExperimentPoint> points = Grid.expand(s);
        List<String> runs = points.stream().filter(p -> p.repetition() == 0)
                .map(p -> p.workloadValues().get("processes") + ":" + p.workloadValues().get("scheme") + "/" + p.policy())
                .toList();
        assertEquals(List.of("4:aa/aa-poll", "4:aa/aa-sp", "4:rma/pin-all", "4:am/pin-all",
                "8:aa/aa-poll", "8:aa/aa-sp", "8:rma/pin-all", "8:am/pin-all"), runs);
        assertEquals(16, points.size());
        assertEquals(List.of(0, 0, 1, 1, 2, 2, 3, 3), points.subList(0, 8).stream().map(ExperimentPoint::point).toList(),
                "grid points count the pairs that run, repetitions share theirs");
        assertEquals("scheme/policy", s.plot().series(), "a workload with schemes names its series by both");
    }

    @Test
    void aSchemeNoListedPolicyCanRegisterIsRefusedNamingThoseThatCan() {
        SpecException e = assertThrows(SpecException.class, () -> spec("[pin-all]", "[rma, aa]", ""));
        assertEquals("grid.scheme", e.field());
        assertEquals("scheme 'aa' needs a policy with an IOMMU access log with handlers; policies lists none"
                + " (those that qualify: aa-int, aa-poll, aa-sp)", e.problem());
    }

    @Test
    void aPolicyThatServesNoSchemeIsRefused() {
        SpecException e = assertThrows(SpecException.class, () -> spec("[pin-all, firehose]", "[rma, am]", ""));
        assertEquals("policy 'firehose' gives none of the schemes rma, am the registration it needs", e.problem());
    }

    @Test
    void theDefaultSchemeTakesPartInThePairingToo() {
        SpecException e = assertThrows(SpecException.class, () -> SpecReader.parse("schemes.yaml", """
                id: test.schemes
                title: schemes and policies
                workload: dht-insert
                policies: [aa-poll]
                profile: aa-crayxe6
                """, null));
        assertEquals("policies", e.field());
        assertTrue(e.problem().startsWith("scheme 'rma' needs policy pin-all"), e.problem());
    }

    @Test
    void anUnknownSchemeIsOneLineListingTheWorkloadsSchemes() {
        SpecException e = assertThrows(SpecException.class, () -> spec("[pin-all]", "[rma, akv]", ""));
        assertTrue(e.problem().endsWith("'akv' is not valid; valid values: rma, am, am-exp, am-onload, am-ints, aa"),
                e.problem());
    }

    @Test
    void aSeriesOfSeveralColumnsJoinsTheirValues() {
        ExperimentSpec s = spec("[aa-poll, pin-all]", "[aa, rma]", "plot: {x: processes, y: inserts_per_s, series: scheme/policy}");
        assertEquals(List.of("scheme", "policy"), s.plot().seriesColumns());
        assertEquals("aa/aa-poll", s.plot().seriesOf(Map.of("scheme", "aa", "policy", "aa-poll")));
        assertEquals("pin-all", s.plot().seriesOf(Map.of("policy", "pin-all")));
        assertNull(s.plot().seriesOf(Map.of("processes", 4)));
        SpecException e = assertThrows(SpecException.class, () -> spec("[aa-poll, pin-all]", "[aa, rma]",
                "plot: {x: processes, y: inserts_per_s, series: scheme/polcy}"));
        assertTrue(e.problem().startsWith("'polcy' is not a column of this experiment"), e.problem());
    }

    @Test
    void anExperimentRunsUnderAPolicyWhenOneOfItsSchemesDoes() {
        ExperimentSpec s = spec("[aa-poll, pin-all]", "[aa, rma]", "");
        assertTrue(Grid.runsUnder(s, "aa-int"));
        assertTrue(Grid.runsUnder(s, "pin-all"));
        assertFalse(Grid.runsUnder(s, "firehose"));
        ExperimentSpec pinOnly = Grid.effective(s, false, Map.of("scheme", "rma"));
        assertFalse(Grid.runsUnder(pinOnly, "aa-poll"));
        SpecException e = assertThrows(SpecException.class, () -> new ExperimentRunner(s.withPolicies("x",
                List.of("aa-poll")), new ExperimentRunner.Options(1, false, false, Map.of("scheme", "rma"))));
        assertEquals("none of aa-poll gives the grid's schemes the registration they need", e.problem());
    }
}
