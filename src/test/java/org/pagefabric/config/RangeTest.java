package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every numeric parameter has a range that every bundled profile keeps and that overrides are held to. */
class RangeTest {
    private static List<Parameter> numeric() {
        return ParameterRegistry.all().stream().filter(p -> p.dimension().numeric()).toList();
    }

    @Test
    void everyNumericParameterHasARangeAndEveryBundledValueLiesInIt() {
        for (String name : ProfileRegistry.bundledNames()) {
            Profile profile = ProfileRegistry.load(name);
            for (Parameter p : numeric()) {
                assertNotNull(p.range(), p.name());
                BigDecimal v = profile.exact(p);
                assertTrue(p.acceptsFull() && v.signum() == 0 || p.range().contains(v),
                        name + ": " + p.name() + " = " + v + " outside " + p.range());
            }
        }
        for (Parameter p : ParameterRegistry.all()) {
            if (!p.dimension().numeric()) {
                assertNull(p.range(), p.name());
            }
        }
    }

    @Test
    void aValueJustAboveTheRangeIsRefusedWithTheRangeWhenOverridden() {
        Profile base = ProfileRegistry.load(ProfileRegistry.ROOT);
        int checked = 0;
        for (Parameter p : numeric()) {
            if (p.dimension() == Dimension.PROBABILITY) {
                continue;   // refused as "not a probability" first
            }
            String unit = p.dimension() == Dimension.BANDWIDTH ? "B/s" : p.dimension().canonicalUnit();
            BigDecimal above = p.range().max().add(BigDecimal.ONE);
            String value = above.toPlainString() + (unit.isEmpty() ? "" : " " + unit);
            ProfileException e = assertThrows(ProfileException.class,
                    () -> base.withOverrides(Map.of(p.name(), value), "--set"), p.name() + " = " + value);
            assertEquals("--set: " + p.name() + ".value: " + value + " is out of range; valid: " + p.range(), e.getMessage());
            checked++;
        }
        assertTrue(checked > 100, "checked " + checked);
    }

    @Test
    void aDeclaredRangeIsWrittenInTheParametersUnits() {
        Parameter mtu = ParameterRegistry.find("transport.mtu").orElseThrow();
        assertEquals("64 B to 64 KiB", mtu.range().toString());
        assertEquals(0, BigDecimal.valueOf(65536).compareTo(mtu.range().max()));
        assertThrows(IllegalArgumentException.class, () -> Range.of(Dimension.SIZE, "1 ns", "2 B"));
        assertThrows(IllegalArgumentException.class, () -> Range.of(Dimension.SIZE, "2 B", "1 B"));
    }
}
