package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plausible range of a profile value: the one the profile states, else a factor of two either
 * way of an assumed or fitted continuous cost, else none; and the refusals of a bad stated range.
 */
class PlausibleRangeTest {
    @TempDir
    Path dir;

    private ResolvedSetting setting(String yaml, String parameter) {
        Profile p = ProfileRegistry.loadFile(ProfileTestFiles.write(dir, "t.yaml", yaml));
        return p.setting(ParameterRegistry.find(parameter).orElseThrow());
    }

    @Test
    void anAssumedTimeTakesAFactorOfTwoEitherWay() {
        ResolvedSetting s = setting(ProfileTestFiles.oneSetting("link.latency", "150", "ns", "assumed: a guess"),
                "link.latency");
        PlausibleRange r = s.plausible();
        assertEquals(PlausibleRange.Basis.FACTOR_OF_TWO, r.basis());
        assertEquals(0, r.low().compareTo(new BigDecimal("75000")), r.text());
        assertEquals(0, r.high().compareTo(new BigDecimal("300000")), r.text());
        assertEquals("75 to 300 ns", r.text());
        assertEquals(PlausibleRange.RULE_REASON, r.reason());
    }

    @Test
    void aFittedValueTakesTheRuleAndASeedsValueNone() {
        ResolvedSetting fitted = setting(ProfileTestFiles.oneSetting("link.latency", "2", "us",
                "fitted: odp.fault#fault_4k by hand"), "link.latency");
        assertEquals(PlausibleRange.Basis.FACTOR_OF_TWO, fitted.plausible().basis());
        ResolvedSetting seed = setting(ProfileTestFiles.oneSetting("link.latency", "2", "us",
                "000 §V: two microseconds"), "link.latency");
        assertNull(seed.plausible(), "a seed's value is an input");
        ResolvedSetting measured = setting(ProfileTestFiles.oneSetting("link.latency", "2", "us",
                "measured: on a host"), "link.latency");
        assertNull(measured.plausible(), "a measured value is an input");
    }

    @Test
    void countsAndSizesVaryOnlyWhereAProfileStatesARange() {
        assertNull(setting(ProfileTestFiles.oneSetting("transport.mtu", "4096", "B", "assumed: a guess"),
                "transport.mtu").plausible());
        ResolvedSetting stated = setting("name: t\ndescription: test\nparameters:\n  transport.mtu: {value: 4096,"
                + " unit: B, source: \"assumed: a guess\", range: {low: 2048, high: 8192, reason: \"the MTUs"
                + " fabrics offer\"}}\n", "transport.mtu");
        assertEquals(PlausibleRange.Basis.STATED, stated.plausible().basis());
        assertEquals("2048 to 8192 B", stated.plausible().text());
        assertEquals("the MTUs fabrics offer", stated.plausible().reason());
    }

    @Test
    void aStatedRangeReplacesTheRuleEvenForASeedsValue() {
        ResolvedSetting s = setting("name: t\ndescription: test\nparameters:\n  link.latency: {value: 15, unit: us,"
                + " source: \"003 §3.3: usually 10-20 us\", range: {low: 10, high: 20, reason: \"the seed's"
                + " 10-20 us\"}}\n", "link.latency");
        assertEquals("10 to 20 us", s.plausible().text());
        assertEquals(0, s.plausible().low().compareTo(new BigDecimal("10000000")));
    }

    @Test
    void aZeroDoubledIsZeroAndAProbabilityStaysBelowOne() {
        ResolvedSetting zero = setting(ProfileTestFiles.oneSetting("link.loss", "0", null, "assumed: lossless"),
                "link.loss");
        assertNotNull(zero.plausible());
        assertFalse(zero.plausible().varies(), "nothing to vary around zero");
        ResolvedSetting high = setting(ProfileTestFiles.oneSetting("link.loss", "0.8", null, "assumed: lossy"),
                "link.loss");
        assertEquals(0, high.plausible().high().compareTo(BigDecimal.ONE), high.plausible().text());
        assertTrue(high.plausible().contains(new BigDecimal("0.8")));
    }

    @Test
    void aRangeThatMissesTheValueIsRefusedNamingFileFieldAndWhatIsValid() {
        Path f = ProfileTestFiles.write(dir, "bad.yaml", "name: bad\ndescription: d\nparameters:\n"
                + "  link.latency: {value: 100, unit: ns, source: \"assumed: x\", range: {low: 120, high: 200,"
                + " reason: \"r\"}}\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(f));
        assertEquals(f + ":4: link.latency.range: 120 to 200 ns does not contain the value 100 ns; valid:"
                + " low <= 100 ns <= high", e.getMessage());
    }

    @Test
    void aRangeOnASwitchOrAChoiceIsRefused() {
        Path f = ProfileTestFiles.write(dir, "bad.yaml", "name: bad\ndescription: d\nparameters:\n"
                + "  transport.nack_on_gap: {value: true, source: \"assumed: x\", range: {low: 0, high: 1,"
                + " reason: \"r\"}}\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(f));
        assertEquals(f + ":4: transport.nack_on_gap.range: a boolean parameter has no plausible range; only numeric"
                + " parameters take one; remove it", e.getMessage());
    }

    @Test
    void aRangeWithoutAReasonOrAnEndIsRefused() {
        Path noReason = ProfileTestFiles.write(dir, "a.yaml", "name: a\ndescription: d\nparameters:\n"
                + "  link.latency: {value: 100, unit: ns, source: \"assumed: x\", range: {low: 50, high: 200}}\n");
        assertTrue(assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(noReason)).getMessage()
                .endsWith("link.latency.range.reason: missing; say why the value could lie anywhere in the range"
                        + " (the sources' spread)"));
        Path noHigh = ProfileTestFiles.write(dir, "b.yaml", "name: b\ndescription: d\nparameters:\n"
                + "  link.latency: {value: 100, unit: ns, source: \"assumed: x\", range: {low: 50, reason: r}}\n");
        assertTrue(assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(noHigh)).getMessage()
                .contains("link.latency.range: needs both low and high"));
    }

    @Test
    void aStatedRangeSurvivesTheDumpOfAResolvedProfile() {
        Profile p = ProfileRegistry.loadFile(ProfileTestFiles.write(dir, "t.yaml", "name: t\ndescription: d\n"
                + "parameters:\n  link.latency: {value: 100, unit: ns, source: \"assumed: x\", range: {low: 50,"
                + " high: 300, reason: \"spread\"}}\n"));
        Profile back = ProfileRegistry.loadFile(ProfileTestFiles.write(dir, "dump.yaml", p.dump()));
        PlausibleRange r = back.setting(ParameterRegistry.find("link.latency").orElseThrow()).plausible();
        assertEquals("50 to 300 ns", r.text());
        assertEquals("spread", r.reason());
    }

    @Test
    void aRecordingProfileNotesReadsButNotListings() {
        ParameterReads reads = new ParameterReads();
        Profile p = ProfileRegistry.load("default").recording(reads);
        p.settings();
        p.dump();
        assertTrue(reads.sorted().isEmpty(), "listing every setting is no read: " + reads.sorted());
        Parameter latency = ParameterRegistry.find("link.latency").orElseThrow();
        p.time(latency);
        Profile derived = p.withOverrides(java.util.Map.of("link.loss", "0.01"), "--set");
        derived.probability(ParameterRegistry.find("link.loss").orElseThrow());
        assertEquals(java.util.List.of("link.latency", "link.loss"), reads.sorted().stream().map(Parameter::name)
                .toList(), "a profile derived from a recording one records too");
        assertTrue(ProfileRegistry.load("default").time(latency) > 0);
        assertEquals(2, reads.sorted().size(), "the shared profile does not record");
    }
}
