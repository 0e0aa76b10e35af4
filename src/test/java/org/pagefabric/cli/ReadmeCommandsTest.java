package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The README and the documents under docs/ say only what is true: every code fence is closed and
 * names its language, every relative link reaches a file (and heading), every {@code java} block
 * is compiled and run by a test, every package and class named in a code span exists, and every
 * {@code ./pagefabric} command of a {@code sh} block runs, in process, with the exit code the
 * document gives it (0 unless a {@code # exits N: why} comment says otherwise).
 *
 * <p>Files the commands write go to a scratch directory: an {@code --out} value is redirected
 * there (and so is a later argument naming it, such as {@code --profile my.yaml} after
 * {@code calibrate --out my.yaml}), and {@code reproduce}, {@code compare} and {@code calibrate}
 * without {@code --out} are given one. Environment assignments before a command
 * ({@code PAGEFABRIC_JAVA_OPTS=...}) concern the launcher's JVM and are left out.
 *
 * <p>A block preceded by {@code <!-- not run: REASON -->} is not run (its {@code ./pagefabric}
 * commands must still parse); that is for the few commands that take minutes or a large heap.
 */
class ReadmeCommandsTest {
    /** The most blocks of {@code ./pagefabric} commands the documents may exempt from running. */
    private static final int MAX_NOT_RUN = 3;
    private static final Set<String> TOP_LEVEL_PACKAGES = Set.of("sim", "hw", "endpoint", "active", "reg", "comm",
            "workload", "experiment", "report", "calibrate", "bench", "record", "cli", "config");
    private static final Pattern DOTTED_NAME = Pattern.compile("(org\\.pagefabric\\.)?[a-z][a-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)+");
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+");
    private static final Set<String> FILE_EXTENSIONS = Set.of("html", "csv", "json", "yaml", "yml", "md", "png", "svg",
            "txt", "java", "jar", "xml", "properties");

    @TempDir
    static Path scratch;

    private static List<Markdown> documents() throws IOException {
        List<Markdown> docs = new ArrayList<>();
        for (Path p : Markdown.documents()) {
            docs.add(Markdown.read(p));
        }
        return docs;
    }

    @Test
    void everyFenceIsClosedAndNamesItsLanguage() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Markdown doc : documents()) {
            for (Markdown.Fence f : doc.fences) {
                if (!f.closed()) {
                    problems.add(f.where() + ": the fence is never closed");
                }
                if (f.language().isEmpty()) {
                    problems.add(f.where() + ": the fence names no language (```sh, ```java, ```yaml, ```text)");
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void relativeLinksReachExistingFilesAndHeadings() throws IOException {
        List<String> problems = new ArrayList<>();
        int links = 0;
        for (Markdown doc : documents()) {
            for (Markdown.ProseLine p : doc.prose) {
                for (String target : Markdown.relativeLinks(p.text())) {
                    links++;
                    int hash = target.indexOf('#');
                    String path = hash < 0 ? target : target.substring(0, hash);
                    String anchor = hash < 0 ? null : target.substring(hash + 1);
                    Path file = path.isEmpty() ? doc.file : doc.file.resolveSibling(path).normalize();
                    String where = doc.file + ":" + p.line() + ": " + target;
                    if (!Files.exists(file)) {
                        problems.add(where + ": no such file");
                    } else if (file.normalize().startsWith("..")) {
                        problems.add(where + ": outside the repository");
                    } else if (anchor != null && !Markdown.read(file).anchors().contains(anchor)) {
                        problems.add(where + ": no such heading in " + file);
                    }
                }
            }
        }
        assertTrue(links > 5, "links checked: " + links);
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void javaBlocksAreCompiledAndRunByATest() throws IOException {
        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                sources.add(Files.readAllLines(f, StandardCharsets.UTF_8).stream().map(String::strip).toList());
            }
        }
        List<String> problems = new ArrayList<>();
        boolean componentExample = false;
        for (Markdown doc : documents()) {
            for (Markdown.Fence f : doc.fences) {
                if (!f.language().equals("java")) {
                    continue;
                }
                List<String> block = f.body().stream().map(String::strip).toList();
                if (sources.stream().noneMatch(s -> Collections.indexOfSubList(s, block) >= 0)) {
                    problems.add(f.where() + ": no test under src/test/java holds this block line for line");
                }
                if (doc.file.equals(Path.of("README.md")) && block.stream().anyMatch(l -> l.contains("extends Component"))) {
                    componentExample = true;
                }
            }
        }
        assertTrue(componentExample, "the README shows a Component on the kernel");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void packagesAndClassesInCodeSpansExist() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Markdown doc : documents()) {
            for (Markdown.ProseLine p : doc.prose) {
                for (String span : Markdown.inlineCode(p.text())) {
                    String problem = unknownName(span);
                    if (problem != null) {
                        problems.add(doc.file + ":" + p.line() + ": `" + span + "`: " + problem);
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** Why a code span that looks like one of our packages or classes names none, or {@code null}. */
    private static String unknownName(String span) {
        if (CLASS_NAME.matcher(span).matches()) {
            return sourceFileNamed(span + ".java") || jdkClass(span) || classPathNames().contains(span) ? null
                    : "no class of that name in src/main/java, src/test/java, the class path or java.util";
        }
        if (!DOTTED_NAME.matcher(span).matches()) {
            return null;
        }
        String name = span.startsWith("org.pagefabric.") ? span.substring("org.pagefabric.".length()) : span;
        String[] parts = name.split("\\.");
        if (!TOP_LEVEL_PACKAGES.contains(parts[0]) || FILE_EXTENSIONS.contains(parts[parts.length - 1])) {
            return null;
        }
        Path dir = Path.of("src/main/java/org/pagefabric");
        for (int i = 0; i < parts.length; i++) {
            if (Character.isUpperCase(parts[i].charAt(0))) {
                // A class, possibly followed by a nested class or member.
                return Files.exists(dir.resolve(parts[i] + ".java")) ? null : "no class " + parts[i] + " in " + dir;
            }
            dir = dir.resolve(parts[i]);
        }
        return Files.isDirectory(dir) ? null : "no package " + dir;
    }

    private static Set<String> classPathNames;

    /** Simple names of the top-level classes in the jars on the class path (the dependencies). */
    private static synchronized Set<String> classPathNames() {
        if (classPathNames == null) {
            Set<String> names = new HashSet<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!entry.endsWith(".jar")) {
                    continue;
                }
                try (JarFile jar = new JarFile(entry)) {
                    jar.stream().map(JarEntry::getName)
                            .filter(n -> n.endsWith(".class") && !n.contains("$"))
                            .forEach(n -> names.add(n.substring(n.lastIndexOf('/') + 1, n.length() - ".class".length())));
                } catch (IOException e) {
                    throw new IllegalStateException(entry, e);
                }
            }
            classPathNames = names;
        }
        return classPathNames;
    }

    private static boolean jdkClass(String simpleName) {
        try {
            Class.forName("java.util." + simpleName);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean sourceFileNamed(String fileName) {
        for (String root : new String[] {"src/main/java", "src/test/java"}) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                if (files.anyMatch(p -> p.getFileName().toString().equals(fileName))) {
                    return true;
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return false;
    }

    @Test
    void fewBlocksAreExemptAndEachSaysWhy() throws IOException {
        List<String> exempt = new ArrayList<>();
        for (Markdown doc : documents()) {
            for (Markdown.Fence f : doc.fences) {
                if (f.notRun() == null) {
                    continue;
                }
                assertTrue(f.notRun().split("\\s+").length >= 3, f.where() + ": say why the block is not run");
                if (f.body().stream().anyMatch(l -> l.contains("./pagefabric "))) {
                    exempt.add(f.where() + ": " + f.notRun());
                }
            }
        }
        assertTrue(exempt.size() <= MAX_NOT_RUN, "blocks not run:\n" + String.join("\n", exempt));
    }

    @Test
    void exemptCommandsStillParse() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Markdown doc : documents()) {
            for (Markdown.Fence f : doc.fences) {
                if (!f.language().equals("sh") || f.notRun() == null) {
                    continue;
                }
                for (ShellCommand c : ShellCommand.parse(f.body(), f.line() + 1)) {
                    if (!c.words().getFirst().equals("./pagefabric")) {
                        continue;
                    }
                    try {
                        Main.commandLine().parseArgs(c.words().subList(1, c.words().size()).toArray(String[]::new));
                    } catch (CommandLine.ParameterException e) {
                        problems.add(doc.file + ":" + c.line() + ": " + c.text() + ": " + e.getMessage());
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @TestFactory
    Stream<DynamicTest> everyCommandRuns() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        int readmeCommands = 0;
        for (Markdown doc : documents()) {
            Map<String, Path> outputs = new HashMap<>();
            for (Markdown.Fence f : doc.fences) {
                if (!f.language().equals("sh") || f.notRun() != null) {
                    continue;
                }
                for (ShellCommand c : ShellCommand.parse(f.body(), f.line() + 1)) {
                    String name = doc.file + ":" + c.line() + " " + c.text();
                    List<String> args = arguments(name, c, outputs);
                    if (doc.file.equals(Path.of("README.md"))) {
                        readmeCommands++;
                    }
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        String missing = missingForRecord(args);
                        Assumptions.assumeTrue(missing == null, () -> name + ": skipped, " + missing
                                + " is not installed (.ci/run installs it)");
                        CliTest.Result r = CliTest.run(args.toArray(String[]::new));
                        assertEquals(c.expectedExit(), r.code(), () -> name + "\nran: " + String.join(" ", args)
                                + "\nstderr:\n" + r.err() + "\nstdout (end):\n" + tail(r.out()));
                    }));
                }
            }
        }
        assertTrue(readmeCommands >= 5, "README commands run: " + readmeCommands);
        return tests.stream();
    }

    /**
     * For a {@code record} command, the first program it needs that is not on the PATH (mpirun,
     * mpicc to build the recorder, the recorded program), or {@code null}: recording a real program
     * runs only where it is installed.
     */
    private static String missingForRecord(List<String> args) {
        if (!args.getFirst().equals("record")) {
            return null;
        }
        List<String> needed = new ArrayList<>(List.of("mpirun", "mpicc"));
        int dashes = args.indexOf("--");
        for (int i = dashes + 1; dashes >= 0 && i < args.size(); i++) {
            String w = args.get(i);
            if (!w.startsWith("-") && !w.contains("/") && !w.contains(".") && !w.matches("\\d+")
                    && !args.get(i - 1).startsWith("-")) {
                needed.add(w);
            }
        }
        for (String program : needed) {
            boolean found = false;
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                found |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, program));
            }
            if (!found) {
                return program;
            }
        }
        return null;
    }

    /** The CLI arguments of a documented command, its outputs sent to the scratch directory. */
    private static List<String> arguments(String name, ShellCommand c, Map<String, Path> outputs) {
        List<String> words = c.words();
        if (!words.getFirst().equals("./pagefabric")) {
            fail(name + ": only ./pagefabric commands can be run here; put other commands in a block marked"
                    + " <!-- not run: REASON --> or in prose");
        }
        for (String w : words) {
            if (w.equals("|") || w.equals("&&") || w.equals(";") || w.startsWith(">") || w.contains("$")) {
                fail(name + ": one plain command per line (no pipes, redirections, lists or expansions)");
            }
        }
        List<String> args = new ArrayList<>();
        boolean hasOut = false;
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("--out") && i + 1 < words.size()) {
                args.add(w);
                args.add(scratchFor(words.get(++i), outputs).toString());
                hasOut = true;
            } else if (w.startsWith("--out=")) {
                args.add("--out=" + scratchFor(w.substring("--out=".length()), outputs));
                hasOut = true;
            } else {
                args.add(redirected(w, outputs));
            }
        }
        String command = args.isEmpty() ? "" : args.getFirst();
        if (!hasOut && Set.of("reproduce", "compare", "calibrate").contains(command)) {
            args.add("--out");
            args.add(scratch.resolve("line" + c.line() + (command.equals("calibrate") ? ".yaml" : "")).toString());
        }
        return args;
    }

    private static Path scratchFor(String out, Map<String, Path> outputs) {
        return outputs.computeIfAbsent(out, o -> scratch.resolve(o.replaceFirst("^/+", "").replace("..", "_")));
    }

    /** A word naming an earlier command's output (or a file inside it), pointed at the scratch copy. */
    private static String redirected(String word, Map<String, Path> outputs) {
        for (Map.Entry<String, Path> e : outputs.entrySet()) {
            if (word.equals(e.getKey())) {
                return e.getValue().toString();
            }
            if (word.startsWith(e.getKey() + "/")) {
                return e.getValue().resolve(word.substring(e.getKey().length() + 1)).toString();
            }
        }
        return word;
    }

    private static String tail(String s) {
        return s.length() <= 2000 ? s : "..." + s.substring(s.length() - 2000);
    }

    @Test
    void theShellReaderSplitsAsAShellWould() {
        List<ShellCommand> cs = ShellCommand.parse(List.of(
                "# a comment line",
                "PAGEFABRIC_JAVA_OPTS=-Xmx2g ./pagefabric run latency \\",
                "    --set 'app=imb-allreduce' --sizes 8   # exits 1: why",
                "./pagefabric info \"link.loss\""), 10);
        assertEquals(2, cs.size());
        assertEquals(11, cs.get(0).line());
        assertEquals(List.of("PAGEFABRIC_JAVA_OPTS=-Xmx2g"), cs.get(0).environment());
        assertEquals(List.of("./pagefabric", "run", "latency", "--set", "app=imb-allreduce", "--sizes", "8"),
                cs.get(0).words());
        assertEquals(1, cs.get(0).expectedExit());
        assertEquals(List.of("./pagefabric", "info", "link.loss"), cs.get(1).words());
        assertEquals(0, cs.get(1).expectedExit());
        assertThrows(IllegalArgumentException.class, () -> ShellCommand.parse(List.of("./pagefabric run \\"), 1));
    }

    @Test
    void theMarkdownReaderFindsUnclosedFencesExemptionsAndAnchors() throws IOException {
        Path f = scratch.resolve("sample.md");
        Files.writeString(f, String.join("\n",
                "# A `pagefabric` title",
                "<!-- not run: takes eight minutes -->",
                "",
                "```sh",
                "./pagefabric reproduce",
                "```",
                "## Next, again",
                "See [it](other.md#x) and `[not](a-link)`.",
                "```sh",
                "./pagefabric info",
                "```java",
                "int x;"));
        Markdown md = Markdown.read(f);
        assertEquals(3, md.fences.size());
        assertEquals("takes eight minutes", md.fences.get(0).notRun());
        assertTrue(md.fences.get(0).closed());
        assertEquals(List.of("./pagefabric reproduce"), md.fences.get(0).body());
        assertFalse(md.fences.get(1).closed(), "a block that another opening fence interrupts");
        assertEquals(List.of("./pagefabric info"), md.fences.get(1).body());
        assertNull(md.fences.get(1).notRun());
        assertEquals("java", md.fences.get(2).language());
        assertFalse(md.fences.get(2).closed(), "a block the file ends in");
        assertEquals(List.of("a-pagefabric-title", "next-again"), md.anchors());
        assertEquals(List.of("other.md#x"), Markdown.relativeLinks(md.prose.get(4).text()));
    }
}
