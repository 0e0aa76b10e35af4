package org.pagefabric.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Fits {@link CostModel}'s coefficients and exponents on measured CPU seconds of bundled
 * experiments' full-size points.
 *
 * <ul>
 *   <li>A workload's exponent b: least squares of log CPU seconds on log structural cost, within
 *       each of its classes ({@link CostModel#runClass}: one slope, each class its own intercept),
 *       each point weighted by its CPU seconds. Weighted, because a point's CPU seconds are its
 *       weight in a shard's load and a millisecond point's are mostly timer noise and warm-up;
 *       within classes, because a Firehose and a Rendezvous run of one size differ by policy, not
 *       by size. b is kept within [0, 2]: a run does not get cheaper as it grows, and a steeper
 *       fit would be extrapolated far past the sizes measured. A workload whose points all have one
 *       structural cost keeps b = 1.</li>
 *   <li>Its coefficient: the ratio of sums, its points' CPU seconds over their structural costs
 *       raised to b, which makes the workload's estimated total its measured total: what dealing
 *       whole sweeps over shards needs. A least-squares intercept in log space would instead be
 *       set by the workload's many millisecond points. A class's coefficient is its own ratio of
 *       sums, kept only for a workload measured in more than one class.</li>
 *   <li>The default, for a workload without measurements: the geometric mean of the workloads'
 *       plain ratios of sums (b = 1), the middle of a range that spans orders of magnitude.</li>
 * </ul>
 *
 * <p>Run from the shaded jar: {@code extract DIR} prints the measurements of a point cache
 * ({@code DIR/.points}) as tab-separated {@code experiment, label, cpu_s} lines, sorted;
 * {@code fit FILE COMMIT} prints the coefficients fitted on such lines as the bundled resource
 * {@link CostModel#RESOURCE}, with {@code COMMIT} (the code that computed the structural costs)
 * as provenance.
 */
public final class CostCalibration {
    /** Where the measurements the bundled coefficients were fitted on are kept, in the source tree. */
    public static final String MEASUREMENTS = "src/test/resources/org/pagefabric/experiment/cost-measurements.tsv";

    /** The steepest growth of CPU time with structural cost the fit keeps. */
    static final double MAX_EXPONENT = 2;

    private CostCalibration() {
    }

    /**
     * One measured point.
     *
     * @param experiment the bundled experiment's id
     * @param label      the point's label ({@link ExperimentPoint#label()}) at full size
     * @param cpuSeconds the CPU seconds its simulation took on its thread
     */
    public record Measurement(String experiment, String label, double cpuSeconds) {
    }

    /**
     * A fit and how well its estimates rank the points it was fitted on.
     *
     * @param coefficients       CPU seconds per unit of structural cost raised to the exponent, by workload
     * @param exponents          the exponent of the structural cost, by workload
     * @param classes            the same by class, for workloads measured in several
     * @param points             measured points by workload and by class
     * @param fallback           the coefficient of a workload without measurements
     * @param unmatched          measurements whose experiment or label the bundled specs no longer have
     * @param spearman           Spearman's rank correlation of estimated against measured CPU seconds
     * @param spearmanWorkload   the same for plain ratios of sums by workload (exponent 1, no class)
     * @param spearmanStructural the same for the structural cost alone, across every experiment
     */
    public record Fit(Map<String, Double> coefficients, Map<String, Double> exponents, Map<String, Double> classes,
            Map<String, Integer> points,
            double fallback, List<Measurement> unmatched, double spearman, double spearmanWorkload,
            double spearmanStructural) {
        /** The fit as a cost model. */
        public CostModel model() {
            return new CostModel(coefficients, exponents, classes, fallback);
        }
    }

    /** The measurements of the point cache {@code dir/.points} (or {@code dir} itself), sorted by experiment and label. */
    public static List<Measurement> extract(Path dir) throws IOException {
        Path points = Files.isDirectory(dir.resolve(PointCache.DIRECTORY)) ? dir.resolve(PointCache.DIRECTORY) : dir;
        ObjectMapper json = new ObjectMapper();
        List<Measurement> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(points)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList()) {
                JsonNode n = json.readTree(f.toFile());
                out.add(new Measurement(n.get("experiment").asText(), n.get("label").asText(), n.get("cpu_s").asDouble()));
            }
        }
        out.sort(Comparator.comparing(Measurement::experiment).thenComparing(Measurement::label));
        return out;
    }

    /** Measurements as tab-separated lines, one a point. */
    public static String format(List<Measurement> measurements) {
        StringBuilder b = new StringBuilder();
        for (Measurement m : measurements) {
            b.append(m.experiment()).append('\t').append(m.label()).append('\t').append(m.cpuSeconds()).append('\n');
        }
        return b.toString();
    }

    /**
     * Reads tab-separated measurements.
     *
     * @throws IllegalArgumentException naming the line that is not {@code experiment, label, cpu_s}
     */
    public static List<Measurement> read(BufferedReader in) throws IOException {
        List<Measurement> out = new ArrayList<>();
        int line = 0;
        for (String s; (s = in.readLine()) != null; ) {
            line++;
            if (s.isBlank()) {
                continue;
            }
            String[] f = s.split("\t", -1);
            try {
                if (f.length == 3) {
                    out.add(new Measurement(f[0], f[1], Double.parseDouble(f[2])));
                    continue;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("line " + line + ": expected experiment<TAB>label<TAB>cpu_s, got '" + s + "'");
        }
        return out;
    }

    /** Fits the coefficients on {@code measurements} of bundled experiments at full size. */
    public static Fit fit(List<Measurement> measurements) {
        Map<String, Map<String, ExperimentPoint>> byLabel = new HashMap<>();
        Map<String, ExperimentSpec> specs = new HashMap<>();
        List<String> bundled = SpecReader.bundledIds();
        List<Measurement> matched = new ArrayList<>();
        List<ExperimentPoint> matchedPoints = new ArrayList<>();
        List<Measurement> unmatched = new ArrayList<>();
        for (Measurement m : measurements) {
            if (!bundled.contains(m.experiment())) {
                unmatched.add(m);
                continue;
            }
            Map<String, ExperimentPoint> labels = byLabel.computeIfAbsent(m.experiment(), id -> {
                ExperimentRunner r = new ExperimentRunner(SpecReader.bundled(id),
                        new ExperimentRunner.Options(1, false, false, Map.of()));
                specs.put(id, r.spec());
                Map<String, ExperimentPoint> l = new HashMap<>();
                r.points().forEach(p -> l.put(p.label(), p));
                return l;
            });
            ExperimentPoint p = labels.get(m.label());
            if (p == null) {
                unmatched.add(m);
            } else {
                matched.add(m);
                matchedPoints.add(p);
            }
        }
        int n = matched.size();
        double[] structural = new double[n];
        double[] measured = new double[n];
        String[] workload = new String[n];
        String[] runClass = new String[n];
        Map<String, Integer> points = new TreeMap<>();
        Map<String, List<Integer>> byClass = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            ExperimentSpec s = specs.get(matched.get(i).experiment());
            structural[i] = CostModel.structural(s.workload(), matchedPoints.get(i));
            measured[i] = matched.get(i).cpuSeconds();
            workload[i] = s.workload().name();
            runClass[i] = CostModel.runClass(s.workload(), matchedPoints.get(i));
            points.merge(workload[i], 1, Integer::sum);
            points.merge(runClass[i], 1, Integer::sum);
            byClass.computeIfAbsent(runClass[i], k -> new ArrayList<>()).add(i);
        }
        Map<String, Double> exponents = exponents(byClass, workload, structural, measured);
        Map<String, double[]> sums = new TreeMap<>();
        Map<String, double[]> plain = new TreeMap<>();
        Map<String, double[]> classSums = new TreeMap<>();
        Map<String, Integer> classesOf = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            double scaled = Math.pow(structural[i], exponents.get(workload[i]));
            add(sums, workload[i], measured[i], scaled);
            add(plain, workload[i], measured[i], structural[i]);
            if (!classSums.containsKey(runClass[i])) {
                classesOf.merge(workload[i], 1, Integer::sum);
            }
            add(classSums, runClass[i], measured[i], scaled);
        }
        Map<String, Double> coefficients = new TreeMap<>();
        sums.forEach((w, sum) -> coefficients.put(w, ratio(sum)));
        double logSum = 0;
        for (double[] sum : plain.values()) {
            logSum += Math.log(ratio(sum));
        }
        Map<String, Double> classes = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            if (classesOf.get(workload[i]) > 1) {
                classes.put(runClass[i], ratio(classSums.get(runClass[i])));
            }
        }
        double fallback = plain.isEmpty() ? 1 : Math.exp(logSum / plain.size());
        CostModel model = new CostModel(coefficients, exponents, classes, fallback);
        double[] estimated = new double[n];
        double[] byWorkload = new double[n];
        for (int i = 0; i < n; i++) {
            ExperimentSpec s = specs.get(matched.get(i).experiment());
            estimated[i] = model.cpuSeconds(s.workload(), matchedPoints.get(i));
            byWorkload[i] = ratio(plain.get(workload[i])) * structural[i];
        }
        return new Fit(coefficients, exponents, classes, points, fallback, List.copyOf(unmatched),
                spearman(estimated, measured), spearman(byWorkload, measured), spearman(structural, measured));
    }

    /** Each workload's exponent: the CPU-weighted slope of log CPU seconds on log structural cost within its classes. */
    private static Map<String, Double> exponents(Map<String, List<Integer>> byClass, String[] workload,
            double[] structural, double[] measured) {
        Map<String, double[]> slope = new TreeMap<>();
        for (List<Integer> members : byClass.values()) {
            double w = 0;
            double mx = 0;
            double my = 0;
            for (int i : members) {
                double wi = floor(measured[i]);
                w += wi;
                mx += wi * Math.log(structural[i]);
                my += wi * Math.log(floor(measured[i]));
            }
            mx /= w;
            my /= w;
            double[] s = slope.computeIfAbsent(workload[members.get(0)], k -> new double[3]);
            for (int i : members) {
                double wi = floor(measured[i]);
                double dx = Math.log(structural[i]) - mx;
                s[0] += wi * dx * (Math.log(floor(measured[i])) - my);
                s[1] += wi * dx * dx;
                s[2] += wi;
            }
        }
        Map<String, Double> out = new TreeMap<>();
        // a spread of log structural cost below 10^-6 is rounding, not sizes
        slope.forEach((k, s) -> out.put(k, s[1] > 1e-12 * s[2] ? Math.min(MAX_EXPONENT, Math.max(0, s[0] / s[1])) : 1.0));
        return out;
    }

    /** A measurement below the timer's resolution counts as that resolution, so that its logarithm is finite. */
    private static double floor(double cpuSeconds) {
        return Math.max(cpuSeconds, 1e-3);
    }

    private static void add(Map<String, double[]> sums, String key, double measured, double structural) {
        double[] sum = sums.computeIfAbsent(key, k -> new double[2]);
        sum[0] += measured;
        sum[1] += structural;
    }

    /** CPU seconds over structural cost; points that all took no measurable time cost the timer's resolution. */
    private static double ratio(double[] sum) {
        return Math.max(sum[0], 1e-3) / sum[1];
    }

    /** Spearman's rank correlation: Pearson's of the ranks, tied values taking their mean rank. */
    static double spearman(double[] x, double[] y) {
        double[] rx = ranks(x);
        double[] ry = ranks(y);
        int n = x.length;
        double mx = Arrays.stream(rx).sum() / n;
        double my = Arrays.stream(ry).sum() / n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (rx[i] - mx) * (ry[i] - my);
            sxx += (rx[i] - mx) * (rx[i] - mx);
            syy += (ry[i] - my) * (ry[i] - my);
        }
        return sxy / Math.sqrt(sxx * syy);
    }

    private static double[] ranks(double[] v) {
        Integer[] order = new Integer[v.length];
        for (int i = 0; i < v.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> v[i]));
        double[] rank = new double[v.length];
        for (int i = 0; i < v.length; ) {
            int j = i;
            while (j + 1 < v.length && v[order[j + 1]] == v[order[i]]) {
                j++;
            }
            for (int k = i; k <= j; k++) {
                rank[order[k]] = (i + j) / 2.0 + 1;
            }
            i = j + 1;
        }
        return rank;
    }

    /** {@code fit} as the bundled resource's text, with its provenance. */
    public static String resource(Fit fit, String commit) {
        int total = fit.coefficients().keySet().stream().mapToInt(w -> fit.points().get(w)).sum();
        StringBuilder b = new StringBuilder();
        b.append("# CPU seconds = coefficient x structural cost (CostModel.structural) ^ exponent, fitted on measured\n");
        b.append("# full-size points (see CostCalibration): exponents by CPU-weighted least squares in log space, coefficients\n");
        b.append("# by workload, and by class where a workload was measured in several, as ratios of sums.\n");
        b.append("# FittedCostsTest re-derives them from the measurements.\n");
        b.append(String.format(java.util.Locale.ROOT, "# Spearman rank correlation over the %d points, estimate against cpu_s: %.3f (plain\n"
                + "# ratios of sums by workload: %.3f; structural cost alone: %.3f)\n", total, fit.spearman(),
                fit.spearmanWorkload(), fit.spearmanStructural()));
        b.append("provenance.commit=").append(commit).append('\n');
        b.append("provenance.measurements=").append(MEASUREMENTS).append('\n');
        b.append("provenance.command=java -cp target/pagefabric.jar ").append(CostCalibration.class.getName())
                .append(" fit ").append(MEASUREMENTS).append(' ').append(commit).append('\n');
        b.append("# a workload without measurements: exponent 1, the geometric mean of the workloads' plain ratios\n");
        b.append(CostModel.DEFAULT).append('=').append(fit.fallback()).append('\n');
        for (Map.Entry<String, Double> e : fit.coefficients().entrySet()) {
            b.append("# ").append(fit.points().get(e.getKey())).append(" points\n");
            b.append(key(CostModel.WORKLOAD + e.getKey())).append('=').append(e.getValue()).append('\n');
            b.append(key(CostModel.EXPONENT + e.getKey())).append('=').append(fit.exponents().get(e.getKey()))
                    .append('\n');
        }
        for (Map.Entry<String, Double> e : fit.classes().entrySet()) {
            b.append("# ").append(fit.points().get(e.getKey())).append(" points\n");
            b.append(key(CostModel.CLASS + e.getKey())).append('=').append(e.getValue()).append('\n');
        }
        return b.toString();
    }

    /** A properties key with the characters that would end it escaped. */
    private static String key(String k) {
        StringBuilder b = new StringBuilder();
        for (char c : k.toCharArray()) {
            if (" =:#!\\".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * {@code extract DIR} or {@code fit FILE COMMIT}; see the class comment.
     */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (args.length == 2 && args[0].equals("extract")) {
            out.print(format(extract(Path.of(args[1]))));
        } else if (args.length == 3 && args[0].equals("fit")) {
            Fit fit;
            try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]))) {
                fit = fit(read(in));
            } catch (IllegalArgumentException e) {
                System.err.println(args[1] + ": " + e.getMessage());
                System.exit(2);
                return;
            }
            for (Measurement m : fit.unmatched()) {
                System.err.println("not a bundled point at full size, left out: " + m.experiment() + " " + m.label());
            }
            out.print(resource(fit, args[2]));
        } else {
            System.err.println("usage: CostCalibration extract DIR | fit FILE COMMIT");
            System.exit(2);
        }
    }
}
