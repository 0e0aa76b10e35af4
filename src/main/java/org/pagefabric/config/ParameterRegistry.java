package org.pagefabric.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every parameter the simulator knows, collected from the {@code public static final Parameter}
 * fields of the classes each {@link ParameterSet} on the class path names: the one list that
 * profiles are checked against and that {@code pagefabric info} prints. A layer adds its
 * parameters by listing its declaring class in its own {@code ParameterSet}, never here; a
 * policy package lists them in its provider, whose registry hands them on as one set.
 */
public final class ParameterRegistry {
    private static final Map<String, Parameter> BY_NAME = collect();

    private ParameterRegistry() {
    }

    private static Map<String, Parameter> collect() {
        // A class two sets name (a provider listed in both service files) is read once.
        Set<Class<?>> declaring = new LinkedHashSet<>();
        for (ParameterSet set : java.util.ServiceLoader.load(ParameterSet.class, ParameterRegistry.class.getClassLoader())) {
            declaring.addAll(set.declaringClasses());
        }
        List<Parameter> found = new ArrayList<>();
        for (Class<?> layer : declaring) {
            found.addAll(declaredIn(layer));
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

    /** The public static final {@link Parameter} fields of {@code layer}, in declaration order. */
    private static List<Parameter> declaredIn(Class<?> layer) {
        List<Parameter> out = new ArrayList<>();
        for (Field f : layer.getDeclaredFields()) {
            int m = f.getModifiers();
            if (f.getType() == Parameter.class && Modifier.isStatic(m) && Modifier.isPublic(m) && Modifier.isFinal(m)) {
                try {
                    out.add((Parameter) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + layer.getName() + "." + f.getName(), e);
                }
            }
        }
        return out;
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

    /**
     * Every parameter the classes {@code declaring} declare, and {@code more}, in registry order:
     * how a component states the costs it reads, by the classes that declare them rather than
     * by name.
     *
     * @throws IllegalArgumentException if one of them is not registered (its class is named by no
     *                                  {@link ParameterSet})
     */
    public static List<Parameter> of(List<Class<?>> declaring, List<Parameter> more) {
        Set<Parameter> wanted = new HashSet<>(more);
        for (Class<?> c : declaring) {
            wanted.addAll(declaredIn(c));
        }
        List<Parameter> out = new ArrayList<>();
        for (Parameter p : all()) {
            if (wanted.contains(p)) {
                out.add(p);
            }
        }
        if (out.size() != wanted.size()) {
            List<String> missing = new ArrayList<>();
            for (Parameter p : wanted) {
                if (BY_NAME.get(p.name()) != p) {
                    missing.add(p.name());
                }
            }
            missing.sort(null);
            throw new IllegalArgumentException("not registered by any ParameterSet: " + String.join(", ", missing));
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
