package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bundled profile loads, sets only known parameters, and every value it sets has a source. */
class BundledProfilesTest {
    static List<String> bundled() {
        return ProfileRegistry.bundledNames();
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void loadsWithEveryParameterSourced(String name) {
        Profile p = ProfileRegistry.load(name);
        assertEquals(name, p.name());
        assertEquals(ProfileRegistry.ROOT, p.chain().get(p.chain().size() - 1));
        assertEquals(ParameterRegistry.all().size(), p.settings().size());
        for (ResolvedSetting s : p.settings()) {
            assertFalse(s.source().isBlank(), s.parameter().name());
            assertNotNull(s.citation(), s.parameter().name());
            if (s.parameter().dimension().numeric() && !s.parameter().dimension().unitList().equals("(none)")) {
                // Dimensions with units must say which; plain counts may omit it.
                assertTrue(s.parameter().dimension().factor(s.unit()) != null, s.parameter().name());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void dumpLoadsBackToTheSameValues(String name, @org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Profile p = ProfileRegistry.load(name);
        Path f = dir.resolve(name + "-resolved.yaml");
        Files.writeString(f, p.dump());
        Profile again = ProfileRegistry.loadFile(f);
        for (Parameter param : ParameterRegistry.all()) {
            ResolvedSetting a = p.setting(param);
            ResolvedSetting b = again.setting(param);
            assertEquals(a.canonical(), b.canonical(), param.name());
            assertEquals(a.text(), b.text(), param.name());
            assertEquals(a.source(), b.source(), param.name());
        }
    }

    @Test
    void indexListsExactlyTheYamlFilesInTheDirectory() throws IOException {
        Path dir = Path.of("src/main/resources/profiles");
        TreeSet<String> files = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(x -> x.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                    .forEach(n -> files.add(n.substring(0, n.length() - 5)));
        }
        assertEquals(files, new TreeSet<>(ProfileRegistry.bundledNames()));
    }

    @Test
    void theRootSetsEveryParameterItself() {
        Profile root = ProfileRegistry.load(ProfileRegistry.ROOT);
        List<String> inherited = new ArrayList<>();
        for (ResolvedSetting s : root.settings()) {
            // A parameter declared with its own default (a policy from another jar) needs no root value.
            if (!s.profile().equals(ProfileRegistry.ROOT) && s.parameter().defaultValue() == null) {
                inherited.add(s.parameter().name());
            }
        }
        assertTrue(inherited.isEmpty(), inherited.toString());
    }
}
