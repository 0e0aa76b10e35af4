package org.pagefabric.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds seed outcomes written into a profile, using the classification in
 * {@code profiles/seed-outcomes.yaml} (see its header for the rules). Only settings a profile
 * file sets itself are checked against that file's citations.
 */
final class OutcomeLeakageCheck {
    private static final Pattern FIGURE_OR_TABLE = Pattern.compile("(Fig\\.|Figure|Table) ?([0-9]+|[IVX]+)");

    private final JsonNode seeds;

    OutcomeLeakageCheck() {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("profiles/seed-outcomes.yaml")) {
            seeds = new ObjectMapper(new YAMLFactory()).readTree(in).get("seeds");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The problems found in one resolved setting, each as one line naming the parameter. */
    List<String> violations(ResolvedSetting s) {
        List<String> out = new ArrayList<>();
        String where = s.origin() + " " + s.parameter().name() + ": ";
        if (s.source().toLowerCase(Locale.ROOT).contains("withheld")) {
            out.add(where + "the source mentions a withheld value");
        }
        SourceCitation c = s.citation();
        if (c.kind() != SourceCitation.Kind.SEED) {
            return out;
        }
        JsonNode seed = seeds.get(c.seed());
        if (seed == null) {
            out.add(where + "cites seed " + c.seed() + ", which seed-outcomes.yaml does not know");
            return out;
        }
        String location = c.location();
        for (JsonNode r : seed.get("results")) {
            if (mentions(location, r.asText())) {
                out.add(where + "cites " + c.seed() + " " + r.asText() + ", which reports outcomes");
            }
        }
        Matcher m = FIGURE_OR_TABLE.matcher(location);
        while (m.find()) {
            String cited = (m.group(1).equals("Table") ? "Table " : "Fig. ") + m.group(2);
            boolean input = contains(seed.get("inputs"), cited);
            boolean breakdown = contains(seed.get("breakdowns"), cited);
            boolean result = contains(seed.get("results"), cited);
            if (breakdown && !s.source().contains("component")) {
                out.add(where + "cites the breakdown " + cited + " without saying it takes a component");
            } else if (!input && !breakdown && !result) {
                out.add(where + "cites " + c.seed() + " " + cited + ", which seed-outcomes.yaml does not classify");
            }
        }
        if (s.canonical() != null && !seed.get("dual_use").has(s.parameter().name())) {
            for (JsonNode v : seed.get("outcome_values")) {
                BigDecimal factor = s.parameter().dimension().factor(v.get("unit").asText());
                if (factor != null && new BigDecimal(v.get("value").asText()).multiply(factor)
                        .compareTo(s.canonical()) == 0) {
                    out.add(where + s.written() + " equals an outcome of " + c.seed() + " (" + v.get("what").asText()
                            + "); use an input, or list the parameter under dual_use with the reason");
                }
            }
        }
        return out;
    }

    /** Whether the seed-outcomes file lists reasons for every dual-use entry. */
    List<String> unexplainedDualUse() {
        List<String> out = new ArrayList<>();
        seeds.properties().forEach(e -> e.getValue().get("dual_use").properties().forEach(d -> {
            if (d.getValue().asText().isBlank()) {
                out.add(e.getKey() + " " + d.getKey());
            }
        }));
        return out;
    }

    private static boolean contains(JsonNode list, String item) {
        for (JsonNode n : list) {
            if (n.asText().equals(item)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code location} names {@code label} as a whole (so "Fig. 1" does not match "Fig. 10"). */
    private static boolean mentions(String location, String label) {
        return Pattern.compile("(?<![0-9A-Za-z])" + Pattern.quote(label) + "(?![0-9A-Za-z])").matcher(location).find();
    }
}
