package org.pagefabric.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every parameter the simulator knows, collected from the {@code public static final Parameter}
 * fields of the classes each {@link ParameterSet} on the class path names: the one list that
 * profiles are checked against and that {@code pagefabric info} prints. A layer or a policy adds
 * its parameters by listing its declaring class in its own {@code ParameterSet}, never here.
 */
public final class ParameterRegistry {
    private static final Map<String, Parameter> BY_NAME = collect();

    private ParameterRegistry() {
    }

    private static Map<String, Parameter> collect() {
        List<Parameter> found = new ArrayList<>();
        List<Class<?>> declaring = new ArrayList<>();
        for (ParameterSet set : java.util.ServiceLoader.load(ParameterSet.class, ParameterRegistry.class.getClassLoader())) {
            declaring.addAll(set.declaringClasses());
        }
        for (Class<?> layer : declaring) {
            for (Field f : layer.getDeclaredFields()) {
                int m = f.getModifiers();
                if (f.getType() == Parameter.class && Modifier.isStatic(m) && Modifier.isPublic(m)
                        && Modifier.isFinal(m)) {
                    try {
                        found.add((Parameter) f.get(null));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException("cannot read " + layer.getName() + "." + f.getName(), e);
                    }
                }
            }
        }
        // Sorted by name: the printed list and the resolved dump do not depend on reflection order.
        found.sort((a, b) -> a.name().compareTo(b.name()));
        Map<String, Parameter> byName = new LinkedHashMap<>();
        for (Parameter p : found) {
            Parameter previous = byName.put(p.name(), p);
            if (previous != null) {
                throw new IllegalStateException("parameter " + p.name() + " is declared twice");
            }
        }
        return Collections.unmodifiableMap(byName);
    }

    /** Every declared parameter, sorted by name. */
    public static Collection<Parameter> all() {
        return BY_NAME.values();
    }

    /**
     * The parameters whose names equal one of {@code namesOrPrefixes} or, for an entry ending in
     * a dot, start with it, in registry order: how a component declares the costs it reads.
     */
    public static List<Parameter> matching(String... namesOrPrefixes) {
        List<Parameter> out = new ArrayList<>();
        for (Parameter p : all()) {
            for (String x : namesOrPrefixes) {
                if (p.name().equals(x) || x.endsWith(".") && p.name().startsWith(x)) {
                    out.add(p);
                    break;
                }
            }
        }
        return out;
    }

    /** The parameter with this exact name, if declared. */
    public static Optional<Parameter> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** Up to {@code max} declared names closest to a misspelt one, closest first. */
    public static List<String> closestNames(String name, int max) {
        return NameSuggestions.closest(name, BY_NAME.keySet(), max);
    }
}
