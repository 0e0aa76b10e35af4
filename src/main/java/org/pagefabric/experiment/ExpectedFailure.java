package org.pagefabric.experiment;

import java.util.List;
import java.util.Map;

/**
 * Rows a spec expects to fail, and why: an experiment that shows a limit (RLIMIT_MEMLOCK,
 * vm.max_map_count) fails some runs by design, and says so, so that a reader and
 * {@code reproduce}'s exit code tell them from a real failure ({@link ExpectedFailures}).
 *
 * @param when   the grid values (and {@code policy}) of the rows, as the grid writes them; a key
 *               not listed matches any value
 * @param reason text the failed row's {@code reason} must contain ({@code RLIMIT_MEMLOCK})
 * @param why    why these rows fail, for a reader
 */
public record ExpectedFailure(Map<String, List<Object>> when, String reason, String why) {
    /** Copies the map (order kept). */
    public ExpectedFailure {
        when = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(when));
    }

    /** {@code policy=pin-all os.memlock_limit=2MiB}: which rows, as the spec names them. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        when.forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=')
                .append(v.size() == 1 ? String.valueOf(v.getFirst()) : v.toString()));
        return b.isEmpty() ? "every row" : b.toString();
    }
}
