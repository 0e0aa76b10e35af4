package org.pagefabric.config;

/**
 * Writes a resolved profile as YAML to keep beside results: every parameter with its value, unit
 * and source, and a comment saying which profile file and line set it. The output is itself a
 * valid profile (it sets every parameter), so a run can be repeated from its results directory.
 */
public final class ProfileDump {
    private ProfileDump() {
    }

    /** The YAML text of a resolved profile. */
    public static String yaml(Profile profile) {
        StringBuilder sb = new StringBuilder(16_384);
        sb.append("# Resolved cost profile: ").append(String.join(" <- ", profile.chain())).append('\n');
        sb.append("# Every parameter with its value, unit and source; the comment says which file set it.\n");
        sb.append("name: ").append(profile.name()).append('\n');
        sb.append("description: ").append(quote(profile.description())).append('\n');
        sb.append("parameters:\n");
        for (ResolvedSetting s : profile.settings()) {
            sb.append("  ").append(s.parameter().name()).append(": {value: ").append(quote(s.text()));
            if (!s.unit().isEmpty()) {
                sb.append(", unit: ").append(quote(s.unit()));
            }
            sb.append(", source: ").append(quote(s.source()));
            if (s.stated() != null) {
                // the written ends, without the unit the value already carries
                String[] ends = s.stated().text().split(" to ", 2);
                String high = s.unit().isEmpty() ? ends[1] : ends[1].substring(0, ends[1].length() - s.unit().length()
                        - 1);
                sb.append(", range: {low: ").append(quote(ends[0])).append(", high: ").append(quote(high))
                        .append(", reason: ").append(quote(s.stated().reason())).append('}');
            }
            sb.append("}  # ").append(s.origin()).append('\n');
        }
        return sb.toString();
    }

    /** A YAML double-quoted scalar. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
