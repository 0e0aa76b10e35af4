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

    /** Published numbers outside tolerance: the comparable validation numbers not within. */
    public int outside() {
        return validated - within;
    }

    /** Numbers the paper publishes (withheld ones are not). */
    public int published() {
        return validated + notComparable + calibration;
    }

    /**
     * One experiment's verdicts in one short line: {@code within 5, outside 1, not comparable 4,
     * withheld 2} (and the calibration targets, if any).
     */
    public String summary() {
        return "within " + within + ", outside " + outside() + ", not comparable " + notComparable + ", withheld "
                + withheld + (calibration > 0 ? ", calibration " + calibration : "");
    }

    /**
     * Published numbers compared with ours: the validation numbers and the calibration targets
     * whose set-up ran.
     */
    public int comparable() {
        return validated + calibration;
    }

    /**
     * The total over experiments: {@code 75 of 76 comparable published numbers within tolerance
     * (99 %); 79 of 151 published numbers comparable (52 %, 3 of them calibration targets), 96
     * withheld}.
     */
    public String total() {
        StringBuilder b = new StringBuilder().append(within).append(" of ").append(validated)
                .append(" comparable published numbers within tolerance");
        if (validated > 0) {
            b.append(" (").append(Math.round(100.0 * within / validated)).append(" %)");
        }
        b.append("; ").append(comparable()).append(" of ").append(published()).append(" published numbers comparable");
        if (published() > 0) {
            b.append(" (").append(Math.round(100.0 * comparable() / published())).append(" %");
            if (calibration > 0) {
                b.append(", ").append(calibration).append(" of them calibration target").append(calibration == 1 ? "" : "s");
            }
            b.append(")");
        }
        return b.append(", ").append(withheld).append(" withheld").toString();
    }

    /**
     * {@code published numbers within tolerance: N of M (W withheld, C not comparable, K calibration targets)},
     * or {@code published numbers: none compared; apart: ...} when the run compared none.
     */
    public String line() {
        if (comparable() == 0) {
            return "published numbers: none compared" + apart();
        }
        StringBuilder b = new StringBuilder("published numbers within tolerance: ").append(within).append(" of ")
                .append(validated);
        if (validated > 0) {
            b.append(" (").append(Math.round(100.0 * within / validated)).append(" %)");
        }
        return b.append(apart()).toString();
    }

    /**
     * {@link #line()}, saying why a run that compared none compared none when a run of the paper's
     * own set-up compares some: {@code published numbers: none compared in a quick run (18
     * compared in a full run); apart: ...}. Without that, "none compared" would read as an
     * experiment that checks nothing.
     *
     * @param quick             whether {@code --quick} made the set-up differ (else {@code --set} did)
     * @param comparedInFullRun the published numbers a run of the paper's own set-up compares
     */
    public String line(boolean quick, int comparedInFullRun) {
        if (comparable() > 0 || comparedInFullRun <= 0) {
            return line();
        }
        return "published numbers: none compared " + (quick
                ? "in a quick run (" + comparedInFullRun + " compared in a full run)"
                : "with these --set values (" + comparedInFullRun + " compared without them)") + apart();
    }

    private String apart() {
        return "; apart: " + withheld + " withheld, " + notComparable + " not comparable, " + calibration
                + (calibration == 1 ? " calibration target" : " calibration targets");
    }
}
