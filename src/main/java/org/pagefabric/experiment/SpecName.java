package org.pagefabric.experiment;

import java.util.Arrays;
import java.util.Locale;

/** An enum constant as a spec writes it ({@code pct_change}, {@code at_most}), and the lookups every such enum needs. */
interface SpecName {
    /** The name a spec uses for this constant: the constant's name in lower case. */
    default String specName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant's name, as every enum has it. */
    String name();

    /** The constant of {@code values} a spec names, or {@code null}. */
    static <E extends SpecName> E byName(E[] values, String name) {
        for (E e : values) {
            if (e.specName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** The names a spec may use, comma-separated, for error messages. */
    static String names(SpecName[] values) {
        return String.join(", ", Arrays.stream(values).map(SpecName::specName).toList());
    }
}
