package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagefabric.config.Profile;

/**
 * A point of a workload with schemes, named as experiment series name it: {@code "rma/pin-all"}
 * is the {@code rma} scheme under policy {@code pin-all}, {@code "aa/aa-poll"} the {@code aa}
 * scheme under {@code aa-poll}.
 */
public final class SchemePoint {
    private SchemePoint() {
    }

    /** The scheme of {@code series}. */
    public static String scheme(String series) {
        return series.substring(0, series.indexOf('/'));
    }

    /** The policy of {@code series}. */
    public static String policy(String series) {
        return series.substring(series.indexOf('/') + 1);
    }

    /** {@code params} with the scheme of {@code series} set. */
    public static Map<String, Object> with(String series, Map<String, ?> params) {
        Map<String, Object> p = new LinkedHashMap<>(params);
        p.put(StandardParameters.SCHEME, scheme(series));
        return p;
    }

    /** The row of {@link PointRun#run(Profile, String, Workload, Map, long)} for {@code series}. */
    public static Map<String, Object> run(Profile profile, String series, Workload workload, Map<String, ?> params,
                                          long seed) {
        return PointRun.run(profile, policy(series), workload, with(series, params), seed);
    }
}
