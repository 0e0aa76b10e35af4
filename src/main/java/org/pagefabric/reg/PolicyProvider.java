package org.pagefabric.reg;

import java.util.List;

/**
 * A package of registration policies, found through {@link java.util.ServiceLoader}: a jar that
 * lists its provider in {@code META-INF/services/org.pagefabric.reg.PolicyProvider} adds its
 * policies to every command without a change to PageFabric.
 */
public interface PolicyProvider {
    /** The policies this package offers, in the order listings show them. */
    List<PolicyDescriptor> policies();
}
