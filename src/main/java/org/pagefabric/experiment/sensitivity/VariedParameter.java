package org.pagefabric.experiment.sensitivity;

import org.pagefabric.config.Parameter;
import org.pagefabric.config.PlausibleRange;

/**
 * A parameter a sensitivity study varies: one the experiment read in its nominal run, not set by
 * its grid, with a plausible range of some width in a profile the experiment runs on.
 *
 * @param parameter the parameter
 * @param nominal   its value in the experiment's profile, as written
 * @param range     its plausible range there (the first profile of a {@code profile} axis that has one)
 * @param source    where the nominal value comes from
 */
public record VariedParameter(Parameter parameter, String nominal, PlausibleRange range, String source) {
    /** The parameter's name. */
    public String name() {
        return parameter.name();
    }
}
