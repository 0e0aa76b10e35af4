package org.pagefabric.workload;

import java.util.List;

/**
 * A source of application schemes, found by {@link java.util.ServiceLoader}: a workload package
 * lists its provider in {@code META-INF/services/org.pagefabric.workload.SchemeProvider}, and a
 * jar on the class path that does the same adds its schemes without editing PageFabric.
 */
public interface SchemeProvider {
    /** The schemes this provider declares, in the order {@code info} lists them. */
    List<SchemeDescriptor> schemes();
}
