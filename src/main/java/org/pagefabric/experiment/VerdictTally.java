package org.pagefabric.experiment;

import java.util.List;
import java.util.Map;

/**
 * How many published numbers a comparison finds within tolerance. Validation numbers count
 * towards "N of M"; withheld numbers (ours only), numbers not comparable with the run's set-up
 * and the calibration targets (fitted, so within by construction) are counted apart.
 *
 * @param within        validation numbers within tolerance
 * @param validated     comparable, published validation numbers (M)
 * @param withheld      numbers the seed withholds
 * @param notComparable published numbers the run's set-up cannot be compared with
 * @param calibration   published numbers a profile parameter is fitted on
 */
public record VerdictTally(int within, int validated, int withheld, int notComparable, int calibration) {
    /** Counts the rows of one or several comparisons ({@link ReferenceComparison#COLUMNS}). */
    public static VerdictTally of(List<Map<String, Object>> comparison) {
        int within = 0;
        int validated = 0;
        int withheld = 0;
        int notComparable = 0;
        int calibration = 0;
        for (Map<String, Object> r : comparison) {
            String v = String.valueOf(r.get("verdict"));
            if (v.equals(Verdict.WITHHELD.text())) {
                withheld++;
            } else if (v.equals(Verdict.NOT_COMPARABLE.text())) {
                notComparable++;
            } else if ("calibration".equals(r.get("role"))) {
                calibration++;
            } else {
                validated++;
                if (v.equals(Verdict.WITHIN.text())) {
                    within++;
                }
            }
        }
        return new VerdictTally(within, validated, withheld, notComparable, calibration);
    }

    /** {@code published numbers within tolerance: N of M (W withheld, C not comparable, K calibration targets)}. */
    public String line() {
        StringBuilder b = new StringBuilder("published numbers within tolerance: ").append(within).append(" of ")
                .append(validated);
        if (validated > 0) {
            b.append(" (").append(Math.round(100.0 * within / validated)).append(" %)");
        }
        b.append("; apart: ").append(withheld).append(" withheld, ").append(notComparable).append(" not comparable, ")
                .append(calibration).append(calibration == 1 ? " calibration target" : " calibration targets");
        return b.toString();
    }
}
