package org.pagefabric.reg;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.pagefabric.config.ParameterSet;

/**
 * The parameters of every policy package as one {@link ParameterSet}: the classes each
 * {@link PolicyProvider} on the class path declares. Named once in
 * {@code META-INF/services/org.pagefabric.config.ParameterSet}, so that a provider, bundled or in
 * a user's jar, is named in its own {@code PolicyProvider} service file and nowhere else.
 */
public final class PolicyParameterSets implements ParameterSet {
    /** Found through {@link ServiceLoader}. */
    public PolicyParameterSets() {
    }

    @Override
    public List<Class<?>> declaringClasses() {
        List<Class<?>> all = new ArrayList<>();
        for (PolicyProvider p : ServiceLoader.load(PolicyProvider.class, PolicyParameterSets.class.getClassLoader())) {
            all.addAll(p.declaringClasses());
        }
        return all;
    }
}
