package org.pagefabric.hw.iommu;

import java.util.Locale;

/**
 * Shape and lookup cost of one translation cache level (an IOTLB level, or a context cache).
 *
 * @param entries  total entries, at least 1
 * @param ways     entries per set: 1 is direct-mapped, {@code entries} is fully associative;
 *                 must divide {@code entries}
 * @param policy   which way of a full set is evicted
 * @param lookupPs picoseconds one lookup in this level costs, hit or miss
 */
public record IotlbLevelConfig(int entries, int ways, ReplacementPolicy policy, long lookupPs) {
    /** Validates the shape. */
    public IotlbLevelConfig {
        if (entries <= 0) {
            throw new IllegalArgumentException("entries must be positive, got " + entries);
        }
        if (ways <= 0 || ways > entries || entries % ways != 0) {
            throw new IllegalArgumentException("ways must divide entries (" + entries + "), got " + ways);
        }
        if (policy == null) {
            throw new IllegalArgumentException("a replacement policy is required");
        }
        if (lookupPs < 0) {
            throw new IllegalArgumentException("lookupPs must not be negative, got " + lookupPs);
        }
    }

    /** A direct-mapped level. */
    public static IotlbLevelConfig directMapped(int entries, long lookupPs) {
        return new IotlbLevelConfig(entries, 1, ReplacementPolicy.LRU, lookupPs);
    }

    /** A fully associative level. */
    public static IotlbLevelConfig fullyAssociative(int entries, ReplacementPolicy policy, long lookupPs) {
        return new IotlbLevelConfig(entries, entries, policy, lookupPs);
    }

    /**
     * A level named as in the Active Access IOTLB sweep: {@code <policy>_<associativity>} with
     * policy {@code lru} or {@code rnd} and associativity {@code a<ways>} or {@code af} (fully
     * associative), e.g. {@code lru_a4}, {@code rnd_af}.
     */
    public static IotlbLevelConfig parse(String spec, int entries, long lookupPs) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        int sep = s.indexOf('_');
        if (sep < 0) {
            throw new IllegalArgumentException("IOTLB spec '" + spec + "' is not <lru|rnd>_<a1|a2|a4|...|af>");
        }
        ReplacementPolicy policy = switch (s.substring(0, sep)) {
            case "lru" -> ReplacementPolicy.LRU;
            case "rnd", "random" -> ReplacementPolicy.RANDOM;
            default -> throw new IllegalArgumentException("IOTLB spec '" + spec + "': policy must be lru or rnd");
        };
        String assoc = s.substring(sep + 1);
        int ways;
        if (assoc.equals("af")) {
            ways = entries;
        } else if (assoc.startsWith("a")) {
            try {
                ways = Integer.parseInt(assoc.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("IOTLB spec '" + spec + "': associativity must be a<ways> or af");
            }
        } else {
            throw new IllegalArgumentException("IOTLB spec '" + spec + "': associativity must be a<ways> or af");
        }
        return new IotlbLevelConfig(entries, ways, policy, lookupPs);
    }

    /** Number of sets. */
    public int sets() {
        return entries / ways;
    }
}
