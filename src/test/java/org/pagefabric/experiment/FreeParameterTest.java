package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A fitted count is tried at whole values only; a time keeps its significant digits. */
class FreeParameterTest {
    @Test
    void aCountIsWrittenAsTheNearestWholeNumber() {
        ParameterFit.FreeParameter slots = new ParameterFit.FreeParameter("iommu.walk.concurrent", 1, 32, "");
        assertTrue(slots.whole());
        assertEquals("5", slots.text(4.6));
        assertEquals("4", slots.text(4.4));
    }

    @Test
    void aTimeKeepsItsFraction() {
        ParameterFit.FreeParameter resume = new ParameterFit.FreeParameter("odp.fault.resume", 1, 500, "us");
        assertFalse(resume.whole());
        assertEquals("4.6 us", resume.text(4.6));
    }
}
