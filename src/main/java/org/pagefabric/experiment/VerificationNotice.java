package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The line that heads every output of rows some of which failed the end-to-end data check: a
 * reader must learn that before reading any figure, and which points failed and why.
 */
public final class VerificationNotice {
    /** The column of a row's end-to-end check. */
    public static final String VERIFIED = "verified";
    /** The column saying what failed, in a row with {@code verified=false}. */
    public static final String REASON = org.pagefabric.workload.PointRun.REASON;
    /** Failed points named in the line; the rest are counted. */
    private static final int NAMED = 3;

    private VerificationNotice() {
    }

    /** Whether a row failed the end-to-end check (a row without the column has nothing to verify). */
    public static boolean failed(Map<String, Object> row) {
        return Boolean.FALSE.equals(row.get(VERIFIED));
    }

    /**
     * {@code NOT VERIFIED: 2 of 6 rows failed the end-to-end data check (pin-all at size_B=4096:
     * 20 of 20 transfers completed with LOCAL_PROTECTION_ERROR ...)}, or {@code null} if every
     * row verified.
     *
     * @param xColumn the column that tells a policy's rows apart (size_B), or {@code null}
     */
    public static String line(List<Map<String, Object>> rows, String xColumn) {
        List<String> named = new ArrayList<>();
        int failed = 0;
        for (Map<String, Object> r : rows) {
            if (!failed(r)) {
                continue;
            }
            failed++;
            if (named.size() < NAMED) {
                Object policy = r.get("policy");
                Object x = xColumn == null ? null : r.get(xColumn);
                Object reason = r.get(REASON);
                named.add((policy == null ? "a point" : policy.toString()) + (x == null ? "" : " at " + xColumn + "=" + x)
                        + (reason == null ? "" : ": " + reason));
            }
        }
        if (failed == 0) {
            return null;
        }
        return "NOT VERIFIED: " + failed + " of " + rows.size() + " rows failed the end-to-end data check ("
                + String.join("; ", named) + (failed > named.size() ? "; " + (failed - named.size()) + " more" : "")
                + "); their figures are left blank";
    }
}
