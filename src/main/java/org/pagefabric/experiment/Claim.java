package org.pagefabric.experiment;

import java.util.List;

/**
 * What a published statement claims, and therefore how ours is checked against it. A paper
 * states a number as measured (a table cell), as approximate ("around 4 us"), as a bound ("less
 * than a microsecond", "over 100 times slower"), or states a trend ("as the collision rate
 * increases, the performance of both designs drops", "AA outperforms all other schemes"). Each
 * kind has a default tolerance; a spec may set another, and a wider one needs a written reason.
 */
public sealed interface Claim {
    /** How the tolerance reads in a comparison table: {@code [0.8, 1.25]}, {@code <= 6000}, {@code decreasing}. */
    String describe(Double paper);

    /**
     * A number the paper gives, checked by the ratio ours/paper.
     *
     * @param kind   measured or approximate
     * @param low    the lowest ratio within tolerance
     * @param high   the highest ratio within tolerance
     * @param reason why the tolerance is wider than the kind's default, or {@code null}
     */
    record Ratio(Kind kind, double low, double high, String reason) implements Claim {
        /** The kind's default tolerance. */
        public static Ratio of(Kind kind) {
            return new Ratio(kind, kind.low, kind.high, null);
        }

        /** Whether the ratio ours/paper is within tolerance. */
        public boolean holds(double ratio) {
            return ratio >= low && ratio <= high;
        }

        /** Whether this tolerance is wider than the default of its kind (and so needs a reason). */
        public boolean widened() {
            return low < kind.low || high > kind.high;
        }

        @Override
        public String describe(Double paper) {
            return "[" + trim(low) + ", " + trim(high) + "]";
        }
    }

    /**
     * A bound the paper states: ours must not exceed it ({@code at_most}) or must reach it
     * ({@code at_least}); the bound itself is the tolerance.
     *
     * @param upper whether the published value is an upper bound
     */
    record Bound(boolean upper) implements Claim {
        /** Whether ours satisfies the bound. */
        public boolean holds(double ours, double bound) {
            return upper ? ours <= bound : ours >= bound;
        }

        @Override
        public String describe(Double paper) {
            return (upper ? "<= " : ">= ") + (paper == null ? "?" : trim(paper));
        }
    }

    /**
     * A trend over the series: monotone over x, a sign, or a rank order of series.
     *
     * @param shape the trend
     * @param order for {@link Shape#RANKED}: groups of series, highest metric first; every member
     *              of an earlier group must be above every member of a later one
     * @param xMin  the lowest x considered by a monotone check, or {@code null}
     * @param xMax  the highest x considered by a monotone check, or {@code null}
     */
    record Trend(Shape shape, List<List<String>> order, Double xMin, Double xMax) implements Claim {
        /** Copies the order. */
        public Trend {
            order = order.stream().map(List::copyOf).toList();
        }

        @Override
        public String describe(Double paper) {
            if (shape != Shape.RANKED) {
                return shape.specName();
            }
            StringBuilder b = new StringBuilder();
            for (List<String> group : order) {
                if (!b.isEmpty()) {
                    b.append(" > ");
                }
                b.append(String.join(" ~ ", group));
            }
            return b.toString();
        }
    }

    /** How a stated number was measured or qualified, with the default tolerance of ours/paper. */
    enum Kind implements SpecName {
        /** A table cell or a stated figure. */
        MEASURED(0.8, 1.25),
        /** "approximately", "around", "in the range", "tends to be". */
        APPROXIMATE(0.67, 1.5),
        /** "less than", "up to", "below": the bound itself. */
        AT_MOST(0, Double.POSITIVE_INFINITY),
        /** "over", "more than", "at least": the bound itself. */
        AT_LEAST(0, Double.POSITIVE_INFINITY);

        private final double low;
        private final double high;

        Kind(double low, double high) {
            this.low = low;
            this.high = high;
        }
    }

    /** The trends a shape check can assert. */
    enum Shape implements SpecName {
        /** The series' metric grows with x. */
        INCREASING,
        /** The series' metric falls with x. */
        DECREASING,
        /** The metric is above zero. */
        POSITIVE,
        /** The metric is below zero. */
        NEGATIVE,
        /** Series in the stated order, highest metric first. */
        RANKED
    }

    /** A number without a trailing {@code .0}. */
    static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
