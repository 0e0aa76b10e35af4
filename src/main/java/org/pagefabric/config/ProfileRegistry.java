package org.pagefabric.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads cost profiles: the bundled ones by name ({@code ProfileRegistry.load("part-forth")}) from
 * the {@code profiles/} resources, or a user's YAML file by path. A profile may {@code extends}
 * a bundled name or a path (relative to the extending file); without {@code extends} it extends
 * {@value #ROOT}, which gives every parameter its default.
 */
public final class ProfileRegistry {
    /** The root profile every chain ends at. */
    public static final String ROOT = "default";

    private static final String DIR = "profiles/";
    private static final String INDEX = DIR + "index.txt";
    private static final Map<String, Profile> BUNDLED = new ConcurrentHashMap<>();

    private ProfileRegistry() {
    }

    /** The names of the bundled profiles, in index order. */
    public static List<String> bundledNames() {
        try (InputStream in = resource(INDEX)) {
            if (in == null) {
                throw new IllegalStateException("the bundled profile index " + INDEX + " is missing from the jar");
            }
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    names.add(s);
                }
            }
            return List.copyOf(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A bundled profile by name, resolved and cached.
     *
     * @throws ProfileException if there is no such bundled profile or it is malformed
     */
    public static Profile load(String name) {
        Profile cached = BUNDLED.get(name);
        if (cached != null) {
            return cached;
        }
        ProfileDocument doc = bundled(name, "(command line)", 0);
        Profile p = ProfileResolver.resolve(doc, ProfileRegistry::locate);
        BUNDLED.putIfAbsent(name, p);
        return p;
    }

    /**
     * A profile from a YAML file.
     *
     * @throws ProfileException if the file is missing or malformed
     */
    public static Profile loadFile(Path path) {
        return ProfileResolver.resolve(file(path, path.toString(), 0), ProfileRegistry::locate);
    }

    /**
     * What a {@code --profile} option names: a path if it looks like one (contains a slash or ends
     * in {@code .yaml} or {@code .yml}), otherwise a bundled profile.
     */
    public static Profile resolve(String nameOrPath) {
        return looksLikePath(nameOrPath) ? loadFile(Path.of(nameOrPath)) : load(nameOrPath);
    }

    private static boolean looksLikePath(String s) {
        return s.contains("/") || s.endsWith(".yaml") || s.endsWith(".yml");
    }

    private static ProfileDocument locate(String reference, ProfileDocument referrer) {
        if (looksLikePath(reference)) {
            Path base = Path.of(referrer.file()).getParent();
            Path target = base == null || referrer.file().startsWith(DIR) ? Path.of(reference)
                    : base.resolve(reference).normalize();
            return file(target, referrer.file(), referrer.extendsLine());
        }
        return bundled(reference, referrer.file(), referrer.extendsLine());
    }

    private static ProfileDocument bundled(String name, String referrerFile, int referrerLine) {
        String path = DIR + name + ".yaml";
        try (InputStream in = resource(path)) {
            if (in == null) {
                List<String> names = bundledNames();
                throw new ProfileException(referrerFile, referrerLine, 0, referrerLine > 0 ? "extends" : null,
                        "no bundled profile named '" + name + "'; closest: "
                                + String.join(", ", NameSuggestions.closest(name, names, 3))
                                + " (bundled: " + String.join(", ", names) + "; or give a path to a .yaml file)");
            }
            ProfileDocument doc = ProfileReader.read(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (!doc.name().equals(name)) {
                throw new ProfileException(path, 1, 1, "name", "is '" + doc.name()
                        + "' but a bundled profile's name must match its file name '" + name + "'");
            }
            return doc;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProfileDocument file(Path path, String referrerFile, int referrerLine) {
        try {
            return ProfileReader.read(path.toString(), TextFiles.read(path));
        } catch (TextFiles.Unreadable e) {
            throw new ProfileException(path.toString(), 0, 0, null, e.getMessage());
        } catch (NoSuchFileException e) {
            throw new ProfileException(referrerFile, referrerLine, 0, referrerLine > 0 ? "extends" : null,
                    "profile file " + path + " does not exist");
        } catch (IOException e) {
            throw new ProfileException(path.toString(), 0, 0, null, "cannot be read: " + e.getMessage());
        }
    }

    private static InputStream resource(String path) {
        return ProfileRegistry.class.getClassLoader().getResourceAsStream(path);
    }
}
