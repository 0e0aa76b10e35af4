package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a profile document and its ancestors into a {@link Profile}: follows {@code extends}
 * (a document without it extends {@code default}, except the root named {@code default} itself),
 * rejects cycles, converts every value to its canonical unit, checks names, units, numbers,
 * constraints and sources, and checks that the root gives every registered parameter a value.
 */
final class ProfileResolver {
    /** Finds the document a reference ({@code extends} value) names. */
    interface Locator {
        /**
         * @param reference a bundled profile name or a path to a YAML file
         * @param referrer the document whose {@code extends} names it
         * @throws ProfileException naming the referrer's file and line if there is no such profile
         */
        ProfileDocument locate(String reference, ProfileDocument referrer);
    }

    private ProfileResolver() {
    }

    static Profile resolve(ProfileDocument leaf, Locator locator) {
        List<ProfileDocument> chain = chain(leaf, locator);
        Map<Parameter, ResolvedSetting> values = new LinkedHashMap<>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            ProfileDocument doc = chain.get(i);
            for (ProfileDocument.Setting s : doc.settings()) {
                ResolvedSetting r = convert(doc, s);
                values.put(r.parameter(), r);
            }
        }
        ProfileDocument root = chain.get(chain.size() - 1);
        List<String> missing = new ArrayList<>();
        Map<Parameter, ResolvedSetting> ordered = new LinkedHashMap<>();
        for (Parameter p : ParameterRegistry.all()) {
            ResolvedSetting r = values.get(p);
            if (r == null && p.defaultValue() != null) {
                r = declaredDefault(p);
            }
            if (r == null) {
                missing.add(p.name());
            } else {
                ordered.put(p, r);
            }
        }
        if (!missing.isEmpty()) {
            throw new ProfileException(root.file(), 0, 0, null, "the root profile '" + root.name() + "' sets no value for "
                    + missing.size() + " parameter(s): " + String.join(", ", missing)
                    + "; the root must give every parameter a default value with its unit and source");
        }
        List<String> names = new ArrayList<>();
        for (ProfileDocument d : chain) {
            names.add(d.name());
        }
        return new Profile(leaf.name(), leaf.description(), names, ordered);
    }

    /** A number followed by an optional unit: "4 KiB", "150ns", "1%", "1e-3", "0.01". */
    private static final java.util.regex.Pattern NUMBER_UNIT =
            java.util.regex.Pattern.compile("\\s*([-+0-9._eE]+?)\\s*([A-Za-z\u00b5\u03bc%/]*)\\s*");

    /** The name derived profiles record in their chain, before the profile they override. */
    static final String OVERRIDE = "override";

    /**
     * A profile with some values replaced, each converted and checked exactly as a profile file's
     * value is (same units, constraints and messages), so a bad override fails like a bad profile.
     */
    static Profile override(Profile base, List<ProfileOverride> overrides) {
        if (overrides.isEmpty()) {
            return base;
        }
        Map<Parameter, ResolvedSetting> values = new LinkedHashMap<>();
        for (ResolvedSetting s : base.settings()) {
            values.put(s.parameter(), s);
        }
        for (ProfileOverride o : overrides) {
            Parameter p = ParameterRegistry.find(o.parameter()).orElseThrow(() -> new ProfileException(o.file(),
                    o.line(), 0, o.parameter(), "unknown parameter; closest known: "
                            + String.join(", ", ParameterRegistry.closestNames(o.parameter(), 3))));
            String[] value = numberAndUnit(p, o.value().strip());
            ProfileDocument doc = new ProfileDocument(o.file(), OVERRIDE, "experiment override", null, 0, List.of());
            ProfileDocument.Setting s = new ProfileDocument.Setting(o.parameter(), value[0], value[1], o.source(),
                    o.line(), 0, o.line(), o.line());
            values.put(p, convert(doc, s));
        }
        List<String> chain = new ArrayList<>();
        chain.add(OVERRIDE);
        chain.addAll(base.chain());
        return new Profile(base.name(), base.description(), chain, values, base.reads());
    }

    /** The value a parameter declares for itself, converted and checked as a profile file's would be. */
    private static ResolvedSetting declaredDefault(Parameter p) {
        String[] value = numberAndUnit(p, p.defaultValue().strip());
        String where = "declaration of " + p.name();
        ProfileDocument doc = new ProfileDocument(where, "declared", "the parameter's own default", null, 0, List.of());
        return convert(doc, new ProfileDocument.Setting(p.name(), value[0], value[1], p.defaultSource(), 0, 0, 0, 0));
    }

    /**
     * A written value as number and unit ({@code 64 KiB}: {@code 64}, {@code KiB}) for a numeric
     * parameter; otherwise the whole text and no unit.
     */
    private static String[] numberAndUnit(Parameter p, String text) {
        java.util.regex.Matcher m = NUMBER_UNIT.matcher(text);
        if (p.dimension().numeric() && m.matches()) {
            return new String[] {m.group(1), m.group(2)};
        }
        return new String[] {text, ""};
    }

    /** The documents from the leaf up to the root. */
    private static List<ProfileDocument> chain(ProfileDocument leaf, Locator locator) {
        List<ProfileDocument> chain = new ArrayList<>();
        chain.add(leaf);
        ProfileDocument doc = leaf;
        while (true) {
            String parent = doc.extendsName();
            if (parent == null) {
                if (doc.name().equals(ProfileRegistry.ROOT)) {
                    return chain;
                }
                parent = ProfileRegistry.ROOT;
            }
            ProfileDocument next = locator.locate(parent, doc);
            String nextIdentity = identity(next);
            for (ProfileDocument seen : chain) {
                if (identity(seen).equals(nextIdentity)) {
                    List<String> cycle = new ArrayList<>();
                    for (ProfileDocument c : chain) {
                        cycle.add(c.name());
                    }
                    cycle.add(next.name());
                    throw new ProfileException(doc.file(), doc.extendsLine(), 0, "extends",
                            "'" + parent + "' makes an inheritance cycle: " + String.join(" -> ", cycle));
                }
            }
            chain.add(next);
            doc = next;
        }
    }

    /**
     * What makes two documents the same file: its real path, so that {@code ./a.yaml},
     * {@code ../d/a.yaml} and a symbolic link to it are one profile and a cycle through them is
     * found at once. A bundled resource, which is no file, is known by its resource path.
     */
    private static String identity(ProfileDocument doc) {
        try {
            return java.nio.file.Path.of(doc.file()).toRealPath().toString();
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            return "resource:" + doc.file();
        }
    }

    private static ResolvedSetting convert(ProfileDocument doc, ProfileDocument.Setting s) {
        Parameter p = ParameterRegistry.find(s.name()).orElseThrow(() -> new ProfileException(doc.file(), s.line(),
                s.column(), s.name(), "unknown parameter; closest known: "
                        + String.join(", ", ParameterRegistry.closestNames(s.name(), 3))));
        SourceCitation citation = SourceCitation.parse(s.source());
        if (citation == null) {
            throw new ProfileException(doc.file(), s.line(), s.column(), s.name() + ".source",
                    "'" + abbreviate(s.source()) + "' says nowhere where the value comes from; write " + SourceCitation.FORMS);
        }
        Dimension d = p.dimension();
        if (s.range() != null && !d.numeric()) {
            throw new ProfileException(doc.file(), s.range().line(), 0, s.name() + ".range",
                    "a " + d.label() + " parameter has no plausible range; only numeric parameters take one;"
                            + " remove it");
        }
        BigDecimal canonical = null;
        switch (d) {
            case BOOLEAN -> {
                requireNoUnit(doc, s, p);
                if (!s.value().equals("true") && !s.value().equals("false")) {
                    throw new ProfileException(doc.file(), s.valueLine(), 0, s.name() + ".value",
                            "'" + s.value() + "' is not a boolean; valid values: true, false");
                }
            }
            case ENUM -> {
                requireNoUnit(doc, s, p);
                if (!p.choices().contains(s.value())) {
                    throw new ProfileException(doc.file(), s.valueLine(), 0, s.name() + ".value",
                            "'" + s.value() + "' is not a valid choice; valid values: " + String.join(", ", p.choices()));
                }
            }
            default -> {
                if (p.acceptsFull() && s.value().equals(Parameter.FULL)) {
                    requireNoUnit(doc, s, p);
                    canonical = BigDecimal.valueOf(Parameter.FULL_VALUE);
                    break;
                }
                BigDecimal number = number(doc, s);
                BigDecimal factor = d.factor(s.unit());
                if (factor == null) {
                    throw new ProfileException(doc.file(), s.unitLine(), 0, s.name() + ".unit",
                            (s.unit().isEmpty() ? "a unit is needed" : "'" + s.unit() + "' is not a " + d.label()
                                    + " unit") + "; valid units: " + d.unitList());
                }
                canonical = number.multiply(factor);
                String problem = p.violation(canonical);
                if (problem != null) {
                    throw new ProfileException(doc.file(), s.valueLine(), 0, s.name() + ".value",
                            s.value() + (s.unit().isEmpty() ? "" : " " + s.unit()) + " " + problem);
                }
                canonical = canonical.stripTrailingZeros();
            }
        }
        PlausibleRange stated = s.range() == null ? null : stated(doc, s, p, canonical);
        return new ResolvedSetting(p, canonical, s.value(), s.unit(), s.source(), citation, doc.name(), doc.file(),
                s.line(), stated);
    }

    /**
     * A stated plausible range, converted with the value's unit and checked: both ends numbers
     * the parameter accepts, low at most high, and the value inside.
     */
    private static PlausibleRange stated(ProfileDocument doc, ProfileDocument.Setting s, Parameter p,
            BigDecimal value) {
        ProfileDocument.RangeText r = s.range();
        String field = s.name() + ".range";
        String unit = s.unit().isEmpty() ? "" : " " + s.unit();
        BigDecimal factor = p.dimension().factor(s.unit());
        BigDecimal[] ends = new BigDecimal[2];
        String[] texts = {r.low(), r.high()};
        for (int i = 0; i < 2; i++) {
            String problem = Decimals.problem(texts[i]);
            if (problem != null) {
                throw new ProfileException(doc.file(), r.line(), 0, field + (i == 0 ? ".low" : ".high"), problem);
            }
            ends[i] = Decimals.parse(texts[i]).multiply(factor);
            String violation = p.violation(ends[i]);
            if (violation != null) {
                throw new ProfileException(doc.file(), r.line(), 0, field + (i == 0 ? ".low" : ".high"),
                        texts[i] + unit + " " + violation);
            }
        }
        String text = r.low() + " to " + r.high() + unit;
        if (ends[0].compareTo(ends[1]) > 0 || value.compareTo(ends[0]) < 0 || value.compareTo(ends[1]) > 0) {
            throw new ProfileException(doc.file(), r.line(), 0, field, text + " does not contain the value "
                    + s.value() + unit + "; valid: low <= " + s.value() + unit + " <= high");
        }
        return new PlausibleRange(ends[0].stripTrailingZeros(), ends[1].stripTrailingZeros(), text, r.reason(),
                PlausibleRange.Basis.STATED);
    }

    private static BigDecimal number(ProfileDocument doc, ProfileDocument.Setting s) {
        String problem = Decimals.problem(s.value());
        if (problem != null) {
            throw new ProfileException(doc.file(), s.valueLine(), 0, s.name() + ".value", problem);
        }
        return Decimals.parse(s.value());
    }

    private static void requireNoUnit(ProfileDocument doc, ProfileDocument.Setting s, Parameter p) {
        if (!s.unit().isEmpty()) {
            throw new ProfileException(doc.file(), s.unitLine(), 0, s.name() + ".unit",
                    "a " + p.dimension().label() + " parameter takes no unit; remove '" + s.unit() + "'");
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
