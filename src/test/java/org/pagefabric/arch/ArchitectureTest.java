package org.pagefabric.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layering, written once, bottom to top: a package may use the layers below it and
 * never one above, no two packages depend on each other, a registration policy is reached
 * only through the registry, and a workload reaches the machine only through {@code comm}. No
 * exemptions, but for the kernel calls listed in {@link #KERNEL_CALLS_NOT_YET_THROUGH_COMM}.
 */
class ArchitectureTest {
    /** The layers from the bottom up, each with the packages that make it. */
    static final List<String[]> LAYERS = List.of(
            new String[] {"Simulation kernel", "org.pagefabric.sim.."},
            new String[] {"Configuration", "org.pagefabric.config.."},
            new String[] {"Hardware", "org.pagefabric.hw.."},
            new String[] {"Endpoint", "org.pagefabric.endpoint.."},
            new String[] {"Active Access runtime", "org.pagefabric.active.."},
            new String[] {"Registration API", "org.pagefabric.reg"},
            new String[] {"Registration building blocks", "org.pagefabric.reg.pinning.."},
            new String[] {"Registration policies", "org.pagefabric.reg.*.."},
            new String[] {"Communication", "org.pagefabric.comm.."},
            new String[] {"Workloads", "org.pagefabric.workload.."},
            new String[] {"Experiments", "org.pagefabric.experiment.."},
            new String[] {"Reports", "org.pagefabric.report.."},
            new String[] {"Calibration", "org.pagefabric.calibrate.."},
            new String[] {"Benchmarks", "org.pagefabric.bench.."},
            new String[] {"Recorder", "org.pagefabric.record.."},
            new String[] {"Command line", "org.pagefabric.cli.."});

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.pagefabric");
    }

    /** A class belongs to the highest layer whose pattern it matches that no lower layer claims. */
    private static com.tngtech.archunit.base.DescribedPredicate<JavaClass> layer(int i) {
        com.tngtech.archunit.base.DescribedPredicate<JavaClass> own = resideInAPackage(LAYERS.get(i)[1]);
        for (int j = 0; j < LAYERS.size(); j++) {
            if (j != i && claims(j, i)) {
                own = own.and(not(resideInAPackage(LAYERS.get(j)[1])));
            }
        }
        return own.as(LAYERS.get(i)[0]);
    }

    /** Whether layer {@code j} takes classes that layer {@code i}'s broader pattern would also match. */
    private static boolean claims(int j, int i) {
        String a = LAYERS.get(j)[1];
        String b = LAYERS.get(i)[1];
        String stem = b.replace("..", "").replace(".*", "");
        return !a.equals(b) && a.replace("..", "").replace(".*", "").startsWith(stem + ".")
                || b.endsWith(".*..") && a.equals(stem + ".pinning..");
    }

    @Test
    void dependenciesPointDownOnly() {
        Architectures.LayeredArchitecture arch = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (int i = 0; i < LAYERS.size(); i++) {
            arch = arch.layer(LAYERS.get(i)[0]).definedBy(layer(i));
        }
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(l -> l[0]).toArray(String[]::new);
            if (LAYERS.get(i)[0].equals("Registration policies")) {
                // Policies are found by ServiceLoader: no class above names one.
                arch = arch.whereLayer(LAYERS.get(i)[0]).mayNotBeAccessedByAnyLayer();
            } else {
                arch = arch.whereLayer(LAYERS.get(i)[0]).mayOnlyBeAccessedByLayers(above);
            }
        }
        arch.whereLayer(LAYERS.getLast()[0]).mayNotBeAccessedByAnyLayer().check(classes);
    }

    /**
     * A workload reaches the machine only through {@code comm}'s ranks and jobs: it never names a
     * NIC, a queue pair, a packet or an endpoint, so what a rank does on its behalf (keys, charges,
     * completions) is written once there.
     */
    @Test
    void workloadsGoThroughComm() {
        noClasses().that().resideInAPackage("org.pagefabric.workload..").should().dependOnClassesThat()
                .resideInAnyPackage("org.pagefabric.hw.nic..", "org.pagefabric.hw.net..", "org.pagefabric.endpoint..")
                .check(classes);
    }

    /**
     * The same rule read from the sources rather than the class files, so that neither an import
     * nor a fully qualified name in code or documentation names those packages from a workload.
     */
    @Test
    void noWorkloadSourceNamesTheLayersBelowComm() throws IOException {
        Pattern below = Pattern.compile("org\\.pagefabric\\.(hw\\.nic|hw\\.net|endpoint)\\.");
        Path root = Path.of("src/main/java/org/pagefabric/workload");
        assertTrue(Files.isDirectory(root), "run from the project directory: " + root.toAbsolutePath());
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (below.matcher(lines.get(i)).find()) {
                        found.add(root.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }

    /**
     * The calls through which a workload still reaches the node's kernel itself: the trace
     * replay's, until it moves onto {@code comm.ProcessMemory}. Remove an entry when its call goes.
     */
    private static final Set<String> KERNEL_CALLS_NOT_YET_THROUGH_COMM = Set.of(
            "org.pagefabric.workload.trace.TraceReplay.kernel(org.pagefabric.comm.Rank) -> Node.kernel()");

    /**
     * A workload maps, touches and checks its memory through {@code comm} ({@code Rank.memory()}),
     * never through the kernel it gets from a node or an address space, so that a workload needs
     * neither the kernel nor the NIC by name.
     */
    @Test
    void workloadsReachMemoryThroughComm() {
        Set<String> found = new TreeSet<>();
        for (JavaClass c : classes) {
            if (!c.getPackageName().startsWith("org.pagefabric.workload")) {
                continue;
            }
            for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
                JavaClass owner = call.getTarget().getOwner();
                if (call.getTarget().getName().equals("kernel") && (owner.getName().equals("org.pagefabric.hw.node.Node")
                        || owner.getName().equals("org.pagefabric.hw.os.AddressSpace"))) {
                    found.add(call.getOrigin().getFullName() + " -> " + owner.getSimpleName() + ".kernel()");
                }
            }
        }
        assertEquals(KERNEL_CALLS_NOT_YET_THROUGH_COMM, found);
    }

    @Test
    void noPackageCycles() {
        slices().matching("org.pagefabric.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void noPolicyUsesAnother() {
        Set<String> policies = new TreeSet<>();
        for (JavaClass c : classes) {
            String p = c.getPackageName();
            if (p.startsWith("org.pagefabric.reg.") && !p.startsWith("org.pagefabric.reg.pinning")) {
                policies.add(p.substring(0, p.indexOf('.', "org.pagefabric.reg.".length()) < 0 ? p.length()
                        : p.indexOf('.', "org.pagefabric.reg.".length())));
            }
        }
        assertTrue(policies.size() >= 8, "registration policy packages found: " + policies);
        for (String p : policies) {
            String[] others = policies.stream().filter(o -> !o.equals(p)).map(o -> o + "..").toArray(String[]::new);
            noClasses().that().resideInAPackage(p + "..").should().dependOnClassesThat().resideInAnyPackage(others)
                    .check(classes);
        }
    }
}
