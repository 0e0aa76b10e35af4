package org.pagefabric.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.experiment.ExperimentSpec;

/**
 * The points a plot draws: tidy rows grouped by (series, x), each group reduced to its mean, sample
 * standard deviation, minimum, maximum and count.
 *
 * <p>Kept apart from rendering so that the numbers behind a figure can be checked (and reused, for
 * example in a comparison with a paper) without decoding an image.
 *
 * @param numericX whether every x value is a number (a line chart) rather than a category (a bar chart)
 * @param series   the lines, in the order their series value first appears in the rows
 */
public record PlotData(boolean numericX, List<Series> series) {

    /** Copies the series list so the data cannot change under a chart. */
    public PlotData {
        series = List.copyOf(series);
    }

    /**
     * One line of a plot.
     *
     * @param name   the series value as shown in the legend
     * @param points the points, by increasing x for numeric x, else in first-seen order
     */
    public record Series(String name, List<Point> points) {
        /** Copies the point list. */
        public Series {
            points = List.copyOf(points);
        }
    }

    /**
     * The repetitions at one (series, x).
     *
     * @param x      the x value: a {@link Double} for numeric x, else the category as a {@link String}
     * @param mean   mean of y over the repetitions
     * @param stddev sample standard deviation of y (0 for a single repetition)
     * @param min    smallest y
     * @param max    largest y
     * @param n      number of repetitions
     */
    public record Point(Object x, double mean, double stddev, double min, double max, int n) {
    }

    /**
     * Groups the rows for the plot. Rows without a value for x or y are left out, because a tidy table
     * leaves a metric empty where it does not apply (a policy that never faults has no fault count).
     *
     * @throws IllegalArgumentException if a column is absent from every row, a y value is not a number,
     *                                  or no row has both x and y; the message names the column
     */
    public static PlotData of(PlotSpec spec, List<Map<String, Object>> rows) {
        requireColumn(spec, "x", spec.x(), rows);
        requireColumn(spec, "y", spec.y(), rows);
        if (spec.hasSeries()) {
            for (String c : ExperimentSpec.Plot.seriesColumns(spec.series())) {
                requireColumn(spec, "series", c, rows);
            }
        }
        boolean numericX = true;
        for (Map<String, Object> row : rows) {
            Object x = row.get(spec.x());
            if (x != null && row.get(spec.y()) != null && Double.isNaN(number(x))) {
                numericX = false;
            }
        }
        // Insertion order keeps series and categories in the order the experiment produced them.
        Map<String, Map<Object, List<Double>>> groups = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Map<String, Object> row = rows.get(i);
            Object x = row.get(spec.x());
            Object y = row.get(spec.y());
            if (x == null || y == null) {
                continue;
            }
            double yv = number(y);
            if (Double.isNaN(yv)) {
                throw new IllegalArgumentException("plot y=" + spec.y() + ": row " + (i + 1) + " has \"" + y
                        + "\", which is not a number");
            }
            Object key = numericX ? (Object) number(x) : String.valueOf(x);
            String name = spec.hasSeries() ? seriesName(spec.series(), ExperimentSpec.Plot.seriesOf(spec.series(), row)) : AxisLabels.title(spec.y());
            groups.computeIfAbsent(name, k -> new LinkedHashMap<>()).computeIfAbsent(key, k -> new ArrayList<>())
                    .add(yv);
        }
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("plot " + spec.y() + " against " + spec.x()
                    + ": no row has a value for both columns");
        }
        List<Series> out = new ArrayList<>();
        for (var g : groups.entrySet()) {
            List<Point> points = new ArrayList<>();
            g.getValue().forEach((x, ys) -> points.add(point(x, ys)));
            if (numericX) {
                points.sort(Comparator.comparingDouble(p -> (Double) p.x()));
            }
            out.add(new Series(g.getKey(), points));
        }
        return new PlotData(numericX, out);
    }

    /** Every x value of any series, once, in plot order (sorted for numeric x, first-seen otherwise). */
    public List<Object> xValues() {
        Set<Object> xs = new LinkedHashSet<>();
        series.forEach(s -> s.points().forEach(p -> xs.add(p.x())));
        List<Object> out = new ArrayList<>(xs);
        if (numericX) {
            out.sort(Comparator.comparingDouble(o -> (Double) o));
        }
        return out;
    }

    /** Whether any point averages more than one repetition, so the plot shows error bars. */
    public boolean hasRepetitions() {
        return series.stream().anyMatch(s -> s.points().stream().anyMatch(p -> p.n() > 1));
    }

    private static Point point(Object x, List<Double> ys) {
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double y : ys) {
            sum += y;
            min = Math.min(min, y);
            max = Math.max(max, y);
        }
        double mean = sum / ys.size();
        double squares = 0;
        for (double y : ys) {
            squares += (y - mean) * (y - mean);
        }
        double sd = ys.size() > 1 ? Math.sqrt(squares / (ys.size() - 1)) : 0;
        return new Point(x, mean, sd, min, max, ys.size());
    }

    /** A series' legend: a name as it is (a policy), a number with its column (e.g. {@code link.latency_ps = 100000}). */
    private static String seriesName(String column, Object value) {
        if (value == null) {
            return "(none)";
        }
        return Double.isNaN(number(value)) ? AxisLabels.cell(value) : column + " = " + AxisLabels.cell(value);
    }

    /** A cell as a double, or NaN when it is not a number (rows read back from CSV hold strings). */
    static double number(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof String s) {
            try {
                return Double.parseDouble(s.strip());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    private static void requireColumn(PlotSpec spec, String role, String column, List<Map<String, Object>> rows) {
        if (rows.stream().noneMatch(r -> r.containsKey(column))) {
            Set<String> columns = new LinkedHashSet<>();
            rows.forEach(r -> columns.addAll(r.keySet()));
            throw new IllegalArgumentException("plot " + role + "=" + column + ": no row has this column"
                    + (columns.isEmpty() ? " (there are no rows)" : "; columns are " + String.join(", ", columns)));
        }
    }
}
