package org.pagefabric.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;

/**
 * A run's estimated cost in CPU seconds: a coefficient of its workload times its
 * {@linkplain #structural structural cost} raised to an exponent of its workload, both fitted on
 * measured points ({@link CostCalibration}). The exponent is there because CPU time need not grow
 * in proportion to the structural cost: a LAMMPS step's ghost exchanges grow faster than its
 * processes, a Firehose put's cost is set by the working set the structural cost does not see. Where the
 * measurements show a workload's cost per unit differing by the run's named choices (its policy and
 * its text-valued parameters, such as an application: a Rendezvous put hand-shakes where a Firehose
 * put goes one-sided, at the same structural cost), the run's {@linkplain #runClass class} has its own
 * coefficient. One unit for
 * every experiment is what lets a sweep's points be dealt over shards together
 * ({@link Shard}) and started largest first across experiments ({@link PointPool}): the
 * structural cost alone counts process-iterations of a ping-pong and of a hashtable insert
 * alike, though one costs a thousand times the other.
 *
 * <p>The coefficients are the bundled resource {@value #RESOURCE}: {@code workload.NAME=} and
 * {@code exponent.NAME=} a workload's coefficient and exponent, {@code class.CLASS=} a class's
 * coefficient (with its workload's exponent), {@code default=} the coefficient, with exponent 1,
 * of a workload the calibration did not measure (a user's own), and the provenance of the fit. A
 * run takes its class's coefficient, else its workload's, else the default.
 */
public final class CostModel {
    /** The bundled coefficients, on the class path. */
    public static final String RESOURCE = "org/pagefabric/experiment/cost-coefficients.properties";
    /** Key prefix of a workload's coefficient. */
    static final String WORKLOAD = "workload.";
    /** Key of the coefficient of a workload without one. */
    static final String DEFAULT = "default";
    /** Key prefix of a workload's exponent. */
    static final String EXPONENT = "exponent.";
    /** Key prefix of a class's coefficient. */
    static final String CLASS = "class.";

    private final Map<String, Double> coefficients;
    private final Map<String, Double> exponents;
    private final Map<String, Double> classes;
    private final double fallback;

    /**
     * @param coefficients CPU seconds per unit of structural cost raised to the exponent, by workload name
     * @param exponents    the exponent of the structural cost, by workload name (1 for a workload without)
     * @param classes      the coefficient by {@linkplain #runClass class}, where it differs within a workload
     * @param fallback     the coefficient of any other workload, with exponent 1
     */
    CostModel(Map<String, Double> coefficients, Map<String, Double> exponents, Map<String, Double> classes,
            double fallback) {
        this.coefficients = Collections.unmodifiableMap(new TreeMap<>(coefficients));
        this.exponents = Collections.unmodifiableMap(new TreeMap<>(exponents));
        this.classes = Collections.unmodifiableMap(new TreeMap<>(classes));
        this.fallback = fallback;
    }

    /** The model of the bundled coefficients. */
    public static CostModel bundled() {
        return Bundled.MODEL;
    }

    /** Loaded on first use, so that a calibration can run before there are coefficients to load. */
    private static final class Bundled {
        static final CostModel MODEL = load();
    }

    /** The estimated CPU seconds of run {@code p} of an experiment of {@code workload}. */
    public double cpuSeconds(Workload workload, ExperimentPoint p) {
        Double c = classes.get(runClass(workload, p));
        return (c != null ? c : coefficient(workload.name()))
                * Math.pow(structural(workload, p), exponent(workload.name()));
    }

    /** The exponent of the structural cost of {@code workload}: its own, or 1. */
    public double exponent(String workload) {
        return exponents.getOrDefault(workload, 1.0);
    }

    /** The fitted exponents by workload name, sorted by name. */
    public Map<String, Double> exponents() {
        return exponents;
    }

    /** CPU seconds per unit of structural cost of {@code workload}: its own, or the default. */
    public double coefficient(String workload) {
        return coefficients.getOrDefault(workload, fallback);
    }

    /** The fitted coefficients by workload name, sorted by name. */
    public Map<String, Double> coefficients() {
        return coefficients;
    }

    /** The fitted coefficients by class, sorted. */
    public Map<String, Double> classes() {
        return classes;
    }

    /**
     * A run's class: its workload, policy and text-valued workload parameters, e.g.
     * {@code titanium-app/policy:firehose/app:bitonic}. Numbers are left out: the structural cost
     * scales with those it knows, and a class per number would be a class per run.
     */
    public static String runClass(Workload workload, ExperimentPoint p) {
        StringBuilder b = new StringBuilder(workload.name()).append("/policy:").append(p.policy());
        new TreeMap<>(p.workloadValues()).forEach((k, v) -> {
            if (v instanceof String text) {
                b.append('/').append(k).append(':').append(text);
            }
        });
        return b.toString();
    }

    /** The coefficient of a workload that has none. */
    public double fallback() {
        return fallback;
    }

    private static CostModel load() {
        Properties p = new Properties();
        try (InputStream in = CostModel.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path: the build is broken");
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Double> c = new TreeMap<>();
        Map<String, Double> e = new TreeMap<>();
        Map<String, Double> k = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(WORKLOAD)) {
                c.put(key.substring(WORKLOAD.length()), Double.parseDouble(p.getProperty(key)));
            } else if (key.startsWith(EXPONENT)) {
                e.put(key.substring(EXPONENT.length()), Double.parseDouble(p.getProperty(key)));
            } else if (key.startsWith(CLASS)) {
                k.put(key.substring(CLASS.length()), Double.parseDouble(p.getProperty(key)));
            }
        }
        return new CostModel(c, e, k, Double.parseDouble(p.getProperty(DEFAULT)));
    }

    /**
     * The structural cost of a run, in no unit: processes × timed iterations × pages per message
     * (4 KiB pages of {@code size_B}, at least one) × a factor for a searched parameter. A
     * parameter the workload lacks counts as 1; processes are the simulation's ranks, or the
     * application's {@code processes} where several share a rank's endpoint. A search runs
     * best-first and stops hopeless candidates early, so it costs about {@code 1 + candidates/16}
     * plain runs (measured on aa.fig7a at full size: AM-Onload's search of 31 onload counts took
     * 45 CPU s where AM took 15). The simulated events grow with each factor; how many CPU
     * seconds one unit costs is the workload's coefficient. An application that moves a fixed
     * volume ({@code data_MiB}: a sort) costs at least 64 per 4 KiB page of it (measured at full
     * size: a 1 GiB sort point took 50 CPU s, about what 1.5 × 10^7 process-iterations of the
     * hashtable take).
     */
    public static double structural(Workload workload, ExperimentPoint p) {
        Map<String, Object> params = workload.resolve(p.workloadValues());
        double c = Footprint.processes(workload, params);
        if (params.get(StandardParameters.ITERATIONS) instanceof Number n) {
            c *= Math.max(1, n.doubleValue());
        }
        if (params.get(StandardParameters.SIZE) instanceof Number n) {
            c *= Math.max(1, Math.ceil(n.doubleValue() / 4096));
        }
        SearchedParameter searched = workload.search(params);
        if (searched != null) {
            c *= 1 + searched.candidates().size() / 16.0;
        }
        c = Math.max(c, 64.0 * Footprint.dataBytes(params) / 4096);
        return c;
    }
}
