package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code pagefabric slurm}: the job scripts it writes, run by a real bash against a fake
 * launcher that records its arguments (so that quoting is checked by a shell, not by eye), its
 * one-line refusals, and {@code --submit} against a fake {@code sbatch} on {@code PATH}.
 */
class SlurmCommandTest {
    /** An output directory a careless script would split or expand: a blank, a quote, a dollar, a percent. */
    private static final String AWKWARD = "sweep one's $HOME 50%";

    @TempDir
    Path tmp;

    private Path fakeLauncher() throws IOException {
        // prints each argument on a line of its own, into the file the test names
        return executable(tmp.resolve("bin dir/pagefabric"), "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$RECORD\"\nexit \"${FAKE_RC:-0}\"\n");
    }

    private static Path executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** Runs {@code slurm} in process with the given launcher and environment. */
    private static CliTest.Result slurm(Path launcher, Map<String, String> env, String... args) {
        CommandLine cl = Main.commandLine();
        SlurmCommand cmd = cl.getSubcommands().get("slurm").getCommand();
        cmd.launcher = launcher;
        if (env != null) {
            cmd.environment = env;
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of("slurm"));
        all.addAll(List.of(args));
        return new CliTest.Result(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    private record Ran(int code, String err, List<String> launcherArgs) {
    }

    /** Runs a written script with bash as Slurm would, with {@code env} added; the launcher's arguments, if it ran. */
    private Ran bash(Path script, Map<String, String> env) throws Exception {
        Path record = tmp.resolve("record-" + System.nanoTime());
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString());
        pb.environment().putAll(env);
        pb.environment().put("RECORD", record.toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script hung");
        List<String> args = Files.exists(record) ? Files.readAllLines(record) : null;
        return new Ran(p.exitValue(), err, args);
    }

    @Test
    void theArrayTaskRunsItsShardWithTheSweepsOptionsWhateverTheOutputDirectoryHoldsInIt() throws Exception {
        Path launcher = fakeLauncher();
        Path out = tmp.resolve(AWKWARD);
        CliTest.Result r = slurm(launcher, null, "omx.table1", "fh.fig3", "--quick", "--shards", "3",
                "--set", "seed=7", "--threads", "2", "--partition", "debug", "--time", "1-00:30:00", "--mem", "4G",
                "--cpus-per-task", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String script = Files.readString(out.resolve("slurm/shards.sbatch"));
        assertTrue(script.startsWith("#!/bin/bash\n"), script);
        for (String directive : List.of("--array=1-3", "--partition=debug", "--time=1-00:30:00", "--mem=4G",
                "--cpus-per-task=2", "--output=\"" + out.toString().replace("%", "%%") + "/logs/shard-%a-%A.out\"")) {
            assertTrue(script.contains("\n#SBATCH " + directive + "\n"), directive + " in:\n" + script);
        }
        assertTrue(Files.isExecutable(out.resolve("slurm/shards.sbatch")));
        assertTrue(Files.isDirectory(out.resolve("logs")), "Slurm does not create the log directory");

        Ran task = bash(out.resolve("slurm/shards.sbatch"), Map.of("SLURM_ARRAY_TASK_ID", "2"));
        assertEquals(0, task.code(), task.err());
        assertEquals(List.of("reproduce", "omx.table1", "fh.fig3", "--quick", "--set", "seed=7", "--threads", "2",
                "--shard", "2/3", "--resume", "--out", out.toAbsolutePath() + "/shards/2"), task.launcherArgs());
    }

    @Test
    void theMergeRunsOnceEveryShardHasWrittenItsManifestAndOtherwiseNamesTheShardsToRerun() throws Exception {
        Path launcher = fakeLauncher();
        Path out = tmp.resolve(AWKWARD);
        assertEquals(0, slurm(launcher, null, "omx.table1", "--shards", "3", "--out", out.toString()).code());
        Path merge = out.resolve("slurm/merge.sbatch");
        String script = Files.readString(merge);
        assertTrue(script.contains("\n#SBATCH --output=\"" + out.toString().replace("%", "%%") + "/logs/merge-%j.out\"\n"),
                script);
        assertFalse(script.contains("#SBATCH --array"), script);

        Files.createDirectories(out.resolve("shards/1"));
        Files.writeString(out.resolve("shards/1/shard.json"), "{ \"complete\" : true }");
        Files.createDirectories(out.resolve("shards/2"));
        Ran missing = bash(merge, Map.of());
        assertEquals(1, missing.code());
        assertEquals(null, missing.launcherArgs(), "no merge while shards are missing");
        assertTrue(missing.err().startsWith("merge: shards 2,3 of 3 wrote no shard.json"), missing.err());
        assertTrue(missing.err().contains("sbatch --array=2,3 "), missing.err());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());

        Files.writeString(out.resolve("shards/2/shard.json"), "{ \"complete\" : false }");
        Files.createDirectories(out.resolve("shards/3"));
        Files.writeString(out.resolve("shards/3/shard.json"), "{ \"complete\" : true }");
        Ran stopped = bash(merge, Map.of());
        String o = out.toAbsolutePath().toString();
        assertEquals(List.of("merge", o + "/shards/1", o + "/shards/2", o + "/shards/3", "--out", o),
                stopped.launcherArgs(), "what is there is merged");
        assertEquals(3, stopped.code(), "but the job fails: rows are missing");
        assertTrue(stopped.err().startsWith("merge: shards 2 of 3 stopped early"), stopped.err());

        Files.writeString(out.resolve("shards/2/shard.json"), "{ \"complete\" : true }");
        Ran whole = bash(merge, Map.of());
        assertEquals(0, whole.code(), whole.err());
        assertEquals("", whole.err());

        Ran failed = bash(merge, Map.of("FAKE_RC", "1"));
        assertEquals(1, failed.code(), "a merge that fails (a transfer that did not verify) fails the job");
    }

    @Test
    void withoutSubmitItPrintsTheTwoSbatchCommandsTheMergeWaitingForEveryTask() throws Exception {
        Path out = tmp.resolve("plain");
        CliTest.Result r = slurm(fakeLauncher(), null, "omx.table1", "--shards", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        Path scripts = out.toAbsolutePath().resolve("slurm");
        assertEquals("array=$(sbatch --parsable " + scripts.resolve("shards.sbatch") + ")\n"
                + "sbatch --dependency=afterany:\"${array%%;*}\" " + scripts.resolve("merge.sbatch") + "\n", r.out());
        assertTrue(r.err().startsWith("slurm: wrote "), r.err());
    }

    @Test
    void threadsFollowTheCoresOfATaskUnlessGiven() throws Exception {
        Path launcher = fakeLauncher();
        Path out = tmp.resolve("cores");
        assertEquals(0, slurm(launcher, null, "omx.table1", "--shards", "2", "--cpus-per-task", "3",
                "--out", out.toString()).code());
        Ran task = bash(out.resolve("slurm/shards.sbatch"), Map.of("SLURM_ARRAY_TASK_ID", "1"));
        assertEquals(List.of("reproduce", "omx.table1", "--threads", "3", "--shard", "1/2", "--resume",
                "--out", out.toAbsolutePath() + "/shards/1"), task.launcherArgs());
    }

    @Test
    void aSpecFileIsGivenToTheTasksByItsAbsolutePath() throws Exception {
        Path out = tmp.resolve("file");
        assertEquals(0, slurm(fakeLauncher(), null, "docs/examples/latency-sweep.yaml", "--shards", "2",
                "--out", out.toString()).code());
        Ran task = bash(out.resolve("slurm/shards.sbatch"), Map.of("SLURM_ARRAY_TASK_ID", "1"));
        assertEquals(Path.of("docs/examples/latency-sweep.yaml").toAbsolutePath().toString(), task.launcherArgs().get(1));
    }

    @Test
    void badInputIsRefusedInOneLineBeforeAnythingIsWritten() throws Exception {
        Path out = tmp.resolve("refused");
        Map<String, String> problems = new HashMap<>();
        problems.put("--shards 0", "--shards 0: give at least 1");
        problems.put("--shards 2 --time 1:2:3:4", "--time '1:2:3:4' is not a Slurm time limit");
        problems.put("--shards 2 --time 90m", "--time '90m' is not a Slurm time limit");
        problems.put("--shards 2 --mem 4GB", "--mem '4GB' is not a Slurm memory size");
        problems.put("--shards 2 --partition a;b", "--partition 'a;b' is not a partition name");
        problems.put("--shards 2 --cpus-per-task 0", "--cpus-per-task 0: give at least 1");
        problems.put("--shards 2 --set nosuchkey=1", "nosuchkey: unknown grid key");
        for (Map.Entry<String, String> p : problems.entrySet()) {
            List<String> args = new ArrayList<>(List.of("omx.table1"));
            args.addAll(List.of(p.getKey().split(" ")));
            args.addAll(List.of("--out", out.toString()));
            CliTest.Result r = slurm(fakeLauncher(), null, args.toArray(String[]::new));
            assertEquals(2, r.code(), p.getKey() + ": " + r.err());
            assertTrue(r.err().contains(p.getValue()), p.getKey() + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), p.getKey() + ": " + r.err());
        }
        CliTest.Result unknown = slurm(fakeLauncher(), null, "omx.nosuch", "--shards", "2", "--out", out.toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("pagefabric slurm: error: 'omx.nosuch' is not an experiment id"), unknown.err());
        CliTest.Result noShards = slurm(fakeLauncher(), null, "omx.table1", "--out", out.toString());
        assertEquals(2, noShards.code());
        assertTrue(noShards.err().contains("Missing required option: '--shards=N'"), noShards.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void submitWithoutSbatchOnPathSaysSoInOneLine() throws Exception {
        Path out = tmp.resolve("nosbatch");
        Files.createDirectories(tmp.resolve("empty"));
        CliTest.Result r = slurm(fakeLauncher(), Map.of("PATH", tmp.resolve("empty").toString()),
                "omx.table1", "--shards", "2", "--out", out.toString(), "--submit");
        assertEquals(2, r.code());
        assertEquals("pagefabric slurm: error: --submit needs Slurm's sbatch, and there is none on PATH;"
                + " run this on a login node of the cluster, or leave out --submit and submit the written scripts"
                + " yourself\n", r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    /** A fake sbatch: appends its arguments (one line per call) to a log and prints the next job id. */
    private Path fakeSbatch(String lastLines) throws IOException {
        Path bin = tmp.resolve("fake bin");
        executable(bin.resolve("sbatch"), "#!/bin/sh\n"
                + "log=\"$(dirname \"$0\")/calls\"\n"
                + "echo \"$*\" >> \"$log\"\n"
                + "n=$(wc -l < \"$log\")\n"
                + lastLines);
        return bin;
    }

    @Test
    void submitSubmitsTheArrayThenTheMergeAfterItAndSaysWhereTheReportWillBe() throws Exception {
        Path bin = fakeSbatch("echo \"$((4240 + n));cluster1\"\n");
        Path out = tmp.resolve(AWKWARD);
        CliTest.Result r = slurm(fakeLauncher(), Map.of("PATH", bin + ":/usr/bin:/bin"),
                "omx.table1", "--shards", "3", "--out", out.toString(), "--submit");
        assertEquals(0, r.code(), r.err());
        Path o = out.toAbsolutePath();
        assertEquals(List.of("--parsable " + o.resolve("slurm/shards.sbatch"),
                "--parsable --dependency=afterany:4241 " + o.resolve("slurm/merge.sbatch")),
                Files.readAllLines(bin.resolve("calls")));
        assertEquals("slurm: shards: job 4241 (array tasks 1-3), logs in " + o.resolve("logs") + "\n"
                + "slurm: merge: job 4242, after every shard has ended\n"
                + "slurm: the report will appear in " + o.resolve("index.html") + "\n", r.out());
    }

    @Test
    void aRefusedSubmissionIsOneLineWithSbatchsOwnWords() throws Exception {
        Path bin = fakeSbatch("if [ \"$n\" -eq 2 ]; then echo 'sbatch: error: Batch job submission failed: Invalid partition' >&2;"
                + " exit 1; fi\necho 77\n");
        Path out = tmp.resolve("refusedmerge");
        CliTest.Result r = slurm(fakeLauncher(), Map.of("PATH", bin + ":/usr/bin:/bin"), "omx.table1", "--shards", "3",
                "--out", out.toString(), "--submit");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("Invalid partition"), r.err());
        assertTrue(r.err().contains("the shards are job 77: submit the merge after them with sbatch"
                + " --dependency=afterany:77 "), r.err());
    }

    @Test
    void shellWordsAndDirectivesKeepEveryCharacter() {
        assertEquals("plain/path-1.2_x=y,z:%a", ShellWords.quote("plain/path-1.2_x=y,z:%a"));
        assertEquals("'it'\\''s a $HOME'", ShellWords.quote("it's a $HOME"));
        assertEquals("''", ShellWords.quote(""));
        assertEquals("--mem=4G", ShellWords.directive("--mem=4G"));
        assertEquals("\"a b 'c' \\\"d\\\" \\\\e #f\"", ShellWords.directive("a b 'c' \"d\" \\e #f"));
        assertEquals("\"/x 50%%/merge-%j.out\"", ShellWords.directivePattern("/x 50%", "merge-%j.out"));
    }
}
