package org.pagefabric.workload.aaapps;

/** A registration policy that stands for one {@link AppScheme} of the Active Access applications. */
public interface AppSchemeProvider {
    /** The scheme the applications run under this policy. */
    AppScheme appScheme();
}
