package org.pagefabric.hw.node;

import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ResolvedSetting;

/**
 * Reads profile values into the Java types the hardware records take, and reports a value the
 * hardware cannot use as a {@link ProfileException} that names the parameter and the file and
 * line that set it: a user sees which line of which profile to fix, never a stack trace from a
 * record's constructor.
 */
final class ProfileValues {
    private ProfileValues() {
    }

    /** A problem with {@code p}'s value, located where the profile chain set it. */
    static ProfileException invalid(Profile profile, Parameter p, String problem) {
        ResolvedSetting s = profile.setting(p);
        return new ProfileException(s.file(), s.line(), 0, p.name(),
                s.written() + " " + problem + " (profile " + profile.name() + ")");
    }

    /** A size that must fit an {@code int} (packet and bus sizes). */
    static int intSize(Profile profile, Parameter p) {
        long v = profile.size(p);
        if (v > Integer.MAX_VALUE) {
            throw invalid(profile, p, "is too large; at most " + Integer.MAX_VALUE + " B");
        }
        return (int) v;
    }

    /** A count that must fit an {@code int} (table sizes, limits). */
    static int intCount(Profile profile, Parameter p) {
        long v = profile.count(p);
        if (v > Integer.MAX_VALUE) {
            throw invalid(profile, p, "is too large; at most " + Integer.MAX_VALUE);
        }
        return (int) v;
    }

    /** A size that must be a whole number of {@code unit}-byte pages, in pages. */
    static long pages(Profile profile, Parameter p, int unit) {
        long v = profile.size(p);
        if (v % unit != 0) {
            throw invalid(profile, p, "is not a whole number of " + unit + " B pages");
        }
        return v / unit;
    }
}
