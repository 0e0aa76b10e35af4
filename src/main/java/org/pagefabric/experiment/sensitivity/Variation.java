package org.pagefabric.experiment.sensitivity;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.PlausibleRange;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileOverride;
import org.pagefabric.config.ResolvedSetting;

/**
 * Moves parameters within their plausible ranges: each one to a position in [0, 1], 0 the low
 * end and 1 the high end, on a logarithmic scale where the range is positive (a cost is as likely
 * half as twice its value) and a linear one where it starts at zero. Positions rather than
 * values, so that an experiment over several profiles moves each profile's value within that
 * profile's own range: a parameter without a range in one of them keeps its value there.
 */
public final class Variation implements UnaryOperator<Profile> {
    /** The file varied values name as their origin: their source reads {@code override: sensitivity}. */
    static final String ORIGIN = "sensitivity";

    private final Map<Parameter, Double> positions;

    /**
     * A variation that puts each parameter at its position.
     *
     * @param positions each varied parameter's position in its range, in [0, 1]
     * @throws IllegalArgumentException if a position lies outside [0, 1]
     */
    public Variation(Map<Parameter, Double> positions) {
        for (Map.Entry<Parameter, Double> e : positions.entrySet()) {
            double u = e.getValue();
            if (!(u >= 0 && u <= 1)) {
                throw new IllegalArgumentException(e.getKey().name() + ": position " + u + " is outside [0, 1]");
            }
        }
        this.positions = new LinkedHashMap<>(positions);
    }

    @Override
    public Profile apply(Profile profile) {
        List<ProfileOverride> overrides = new ArrayList<>();
        // settings() rather than setting(p): looking up a range is not a read by the model
        Map<Parameter, ResolvedSetting> settings = new java.util.HashMap<>();
        profile.settings().forEach(s -> settings.put(s.parameter(), s));
        positions.forEach((p, u) -> {
            PlausibleRange r = settings.get(p).plausible();
            if (r != null && r.varies()) {
                overrides.add(new ProfileOverride(p.name(), text(p, value(p, r, u)), ORIGIN, 0));
            }
        });
        return profile.withOverrides(overrides);
    }

    /**
     * The canonical value at position {@code u} of range {@code r}: the ends exactly, whole
     * numbers for a dimension counted in whole units, powers of two where the parameter needs them.
     */
    static BigDecimal value(Parameter p, PlausibleRange r, double u) {
        if (u == 0) {
            return r.low();
        }
        if (u == 1) {
            return r.high();
        }
        double lo = r.low().doubleValue();
        double hi = r.high().doubleValue();
        double v = lo > 0 ? lo * Math.pow(hi / lo, u) : lo + (hi - lo) * u;
        if (p.requiresPowerOfTwo() && v > 0) {
            v = Math.pow(2, Math.rint(Math.log(v) / Math.log(2)));
        }
        BigDecimal b = new BigDecimal(v, MathContext.DECIMAL64);
        if (p.dimension().integral()) {
            b = b.setScale(0, RoundingMode.HALF_EVEN);
        } else {
            b = b.round(new MathContext(12));
        }
        // rounding must not leave the range
        return b.max(r.low()).min(r.high());
    }

    /** A canonical value as an override writes it: plain digits and the canonical unit. */
    static String text(Parameter p, BigDecimal canonical) {
        String unit = p.dimension().canonicalUnit();
        String digits = canonical.stripTrailingZeros().toPlainString();
        return unit.isEmpty() ? digits : digits + " " + unit;
    }
}
