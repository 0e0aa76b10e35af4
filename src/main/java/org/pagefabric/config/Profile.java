package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A fully resolved cost profile: every registered parameter has a value, a unit and a source,
 * after inheritance ({@code default} → testbed → user file). Immutable and safe to share between
 * runs. Hardware models read it once, when they are built:
 *
 * <pre>{@code
 * long hop = profile.time(LinkParameters.SWITCH_HOP_LATENCY);       // picoseconds
 * long perByte = profile.bandwidth(LinkParameters.BANDWIDTH).transferTimePs(256);
 * long l1 = profile.count(IommuParameters.IOTLB_L1_ENTRIES);
 * }</pre>
 *
 * Reading a parameter with the accessor of another dimension is a programming error and throws
 * {@link IllegalArgumentException}.
 */
public final class Profile {
    private final String name;
    private final String description;
    private final List<String> chain;
    private final Map<Parameter, ResolvedSetting> settings;
    // where reads are noted, or null: a profile that records is a copy, so shared ones never do
    private final ParameterReads reads;

    Profile(String name, String description, List<String> chain, Map<Parameter, ResolvedSetting> settings) {
        this(name, description, chain, settings, null);
    }

    Profile(String name, String description, List<String> chain, Map<Parameter, ResolvedSetting> settings,
            ParameterReads reads) {
        this.name = name;
        this.description = description;
        this.chain = List.copyOf(chain);
        this.settings = Collections.unmodifiableMap(settings);
        this.reads = reads;
    }

    /**
     * The same profile, noting in {@code reads} every parameter read from it or from a profile
     * derived from it by {@link #withOverrides}: how {@code pagefabric sensitivity} learns which
     * costs an experiment depends on.
     */
    public Profile recording(ParameterReads reads) {
        return new Profile(name, description, chain, settings, java.util.Objects.requireNonNull(reads, "reads"));
    }

    /** Where reads are noted, or {@code null}. */
    ParameterReads reads() {
        return reads;
    }

    /** The profile's name. */
    public String name() {
        return name;
    }

    /** What testbed the profile describes. */
    public String description() {
        return description;
    }

    /** The inheritance chain, this profile first and the root ({@code default}) last. */
    public List<String> chain() {
        return chain;
    }

    /** A duration in picoseconds. */
    public long time(Parameter p) {
        return get(p, Dimension.TIME).canonical().longValueExact();
    }

    /** A data rate. */
    public Bandwidth bandwidth(Parameter p) {
        return new Bandwidth(get(p, Dimension.BANDWIDTH).canonical());
    }

    /** A data rate in bytes per second, rounded down. */
    public long bytesPerSecond(Parameter p) {
        return bandwidth(p).bytesPerSecondFloor();
    }

    /** The time one byte takes at a data rate, in picoseconds (exact to 34 digits). */
    public BigDecimal psPerByte(Parameter p) {
        return bandwidth(p).psPerByte();
    }

    /** An amount in bytes. */
    public long size(Parameter p) {
        return get(p, Dimension.SIZE).canonical().longValueExact();
    }

    /** A count. */
    public long count(Parameter p) {
        return get(p, Dimension.COUNT).canonical().longValueExact();
    }

    /** A count that must fit an {@code int} (table sizes, ways). */
    public int intCount(Parameter p) {
        return Math.toIntExact(count(p));
    }

    /** A clock rate in hertz. */
    public long frequencyHz(Parameter p) {
        return get(p, Dimension.FREQUENCY).canonical().longValueExact();
    }

    /** A probability in [0, 1]. */
    public double probability(Parameter p) {
        return get(p, Dimension.PROBABILITY).canonical().doubleValue();
    }

    /** A ratio (a percentage is returned as a fraction: 75 % is 0.75). */
    public double ratio(Parameter p) {
        return get(p, Dimension.RATIO).canonical().doubleValue();
    }

    /** An electrical power in watts. */
    public double watts(Parameter p) {
        return get(p, Dimension.POWER).canonical().doubleValue();
    }

    /** An energy in joules. */
    public double joules(Parameter p) {
        return get(p, Dimension.ENERGY).canonical().doubleValue();
    }

    /** A numeric value in its canonical unit, exactly, whatever its dimension. */
    public BigDecimal exact(Parameter p) {
        ResolvedSetting s = setting(p);
        if (s.canonical() == null) {
            throw new IllegalArgumentException(p.name() + " is a " + p.dimension().label() + ", not a number");
        }
        return s.canonical();
    }

    /** A switch. */
    public boolean flag(Parameter p) {
        return Boolean.parseBoolean(get(p, Dimension.BOOLEAN).text());
    }

    /** One of the parameter's declared choices. */
    public String choice(Parameter p) {
        return get(p, Dimension.ENUM).text();
    }

    /** The source of a parameter's value. */
    public String source(Parameter p) {
        return setting(p).source();
    }

    /** The unit a parameter's value was written in (empty if none). */
    public String unit(Parameter p) {
        return setting(p).unit();
    }

    /** Everything known about one parameter's value: as written, canonical, source, origin. */
    public ResolvedSetting setting(Parameter p) {
        if (reads != null) {
            reads.add(p);
        }
        ResolvedSetting s = settings.get(p);
        if (s == null) {
            throw new IllegalArgumentException("parameter " + p.name()
                    + " is not registered: list its declaring class in a ParameterSet (see ParameterRegistry)");
        }
        return s;
    }

    /** Every parameter's value, sorted by parameter name: tidy rows to write beside results. */
    public List<ResolvedSetting> settings() {
        return new ArrayList<>(settings.values());
    }

    /**
     * A derived profile with some parameters set to other values, e.g. a grid point's
     * {@code link.loss: "1%"} or a {@code --set transport.mtu=4KiB}. Each value is converted and
     * checked as in a profile file (units, constraints, the same messages), and its source is
     * {@code override: <where>}. The derived profile keeps this profile's name (rows say which
     * testbed the point ran on; the overridden value is a column of its own) and puts
     * {@code override} first in its {@link #chain()}.
     *
     * @param settings parameter name → value with unit as one string ({@code "4 KiB"}, {@code "0.01"})
     * @param where    where the values were written, e.g. {@code --set}; the errors' file and the source
     * @throws ProfileException naming {@code where} and the parameter if a name or value is bad
     */
    public Profile withOverrides(Map<String, String> settings, String where) {
        List<ProfileOverride> list = new ArrayList<>();
        settings.forEach((k, v) -> list.add(new ProfileOverride(k, v, where, 0)));
        return withOverrides(list);
    }

    /**
     * A derived profile with the given overrides applied in order (a later one for the same
     * parameter wins); see {@link #withOverrides(Map, String)}.
     *
     * @throws ProfileException naming the override's file, line and parameter if it is bad
     */
    public Profile withOverrides(List<ProfileOverride> overrides) {
        return ProfileResolver.override(this, overrides);
    }

    /** The resolved profile as a YAML profile that loads back to the same values; see {@link ProfileDump}. */
    public String dump() {
        return ProfileDump.yaml(this);
    }

    private ResolvedSetting get(Parameter p, Dimension expected) {
        if (p.dimension() != expected) {
            throw new IllegalArgumentException("parameter " + p.name() + " is a " + p.dimension().label()
                    + ", not a " + expected.label());
        }
        return setting(p);
    }

    @Override
    public String toString() {
        return "Profile[" + String.join(" <- ", chain) + "]";
    }
}
