package org.pagefabric.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The two batch scripts of a sweep on Slurm: a job array whose task {@code I} runs
 * {@code reproduce --shard I/N --resume} into {@code OUT/shards/I}, and a merge job that puts the
 * shards together into {@code OUT}. The merge is meant to be submitted with
 * {@code --dependency=afterany} on the array: it then runs however the tasks ended, and either
 * merges or says in one line which shards to re-run (with {@code afterok} a failed task would
 * leave it pending for ever, with no message).
 *
 * @param launcher   the absolute path of the {@code pagefabric} launcher the tasks call
 * @param out        the absolute output directory: results, {@code shards/}, {@code slurm/}, {@code logs/}
 * @param targets    what {@code reproduce} is given: ids, seeds, absolute spec file paths
 * @param quick      whether the tasks run {@code --quick}
 * @param sets       the {@code --set KEY=VALUE} words, in order
 * @param threads    the tasks' {@code --threads}, or {@code null} for reproduce's default
 * @param shards     how many shards (array tasks), at least 1
 * @param resources  the {@code #SBATCH} options both jobs get (partition, time, memory), in order
 * @param cpusPerTask the array tasks' {@code --cpus-per-task}, or {@code null}
 */
record SlurmScripts(Path launcher, Path out, List<String> targets, boolean quick, List<String> sets, Integer threads,
                    int shards, List<String> resources, Integer cpusPerTask) {
    /** The array job's script, under {@code OUT/slurm}. */
    static final String SHARDS_FILE = "shards.sbatch";
    /** The merge job's script, under {@code OUT/slurm}. */
    static final String MERGE_FILE = "merge.sbatch";

    SlurmScripts {
        targets = List.copyOf(targets);
        sets = List.copyOf(sets);
        resources = List.copyOf(resources);
    }

    /** Where the scripts go. */
    Path scriptDir() {
        return out.resolve("slurm");
    }

    /** Where Slurm writes the jobs' output. */
    Path logDir() {
        return out.resolve("logs");
    }

    /** The array job's script. */
    String shardsScript() {
        List<String> reproduce = new ArrayList<>(List.of(ShellWords.quote(launcher.toString()), "reproduce"));
        targets.forEach(t -> reproduce.add(ShellWords.quote(t)));
        if (quick) {
            reproduce.add("--quick");
        }
        sets.forEach(s -> reproduce.add("--set " + ShellWords.quote(s)));
        if (threads != null) {
            reproduce.add("--threads " + threads);
        }
        StringBuilder b = header("A PageFabric sweep in " + shards + " shards: array task I runs shard I/" + shards + ";",
                "pagefabric-shards", "shard-%a-%A.out");
        b.append("#SBATCH --array=1-").append(shards).append('\n');
        if (cpusPerTask != null) {
            b.append("#SBATCH --cpus-per-task=").append(cpusPerTask).append('\n');
        }
        b.append("# Re-run the shards that failed: sbatch --array=2,5 ").append(ShellWords.quote(
                scriptDir().resolve(SHARDS_FILE).toString())).append(" (finished points are kept: --resume),\n");
        b.append("# then the merge: sbatch ").append(ShellWords.quote(scriptDir().resolve(MERGE_FILE).toString()))
                .append('\n');
        b.append("set -eu\n");
        b.append("out=").append(ShellWords.quote(out.toString())).append('\n');
        b.append("exec ").append(String.join(" ", reproduce)).append(" \\\n");
        b.append("    --shard \"$SLURM_ARRAY_TASK_ID/").append(shards).append("\" --resume --out \"$out/shards/$SLURM_ARRAY_TASK_ID\"\n");
        return b.toString();
    }

    /** The merge job's script. */
    String mergeScript() {
        StringBuilder b = header("Merges the " + shards + " shards of a PageFabric sweep into the results of one run;",
                "pagefabric-merge", "merge-%j.out");
        b.append("set -eu\n");
        b.append("out=").append(ShellWords.quote(out.toString())).append('\n');
        b.append("shards=").append(shards).append('\n');
        b.append("""
                dirs=()
                missing=
                stopped=
                for i in $(seq 1 "$shards"); do
                    dirs+=("$out/shards/$i")
                    if [ ! -f "$out/shards/$i/shard.json" ]; then
                        missing="${missing:+$missing,}$i"
                    elif grep -Eq '"complete" *: *false' "$out/shards/$i/shard.json"; then
                        stopped="${stopped:+$stopped,}$i"
                    fi
                done
                rerun() {
                    printf 're-run them with: sbatch --array=%s %q, then: sbatch %q\\n' "$1" \\
                        "$out/slurm/shards.sbatch" "$out/slurm/merge.sbatch" >&2
                }
                if [ -n "$missing" ]; then
                    printf 'merge: shards %s of %s wrote no shard.json (the task failed, ran out of time or was cancelled: see %q); ' \\
                        "$missing" "$shards" "$out/logs" >&2
                    rerun "$missing"
                    exit 1
                fi
                """);
        // merge exits 3 when a shard stopped early, after writing what there is: say which to re-run
        b.append("rc=0\n");
        b.append(ShellWords.quote(launcher.toString())).append(" merge \"${dirs[@]}\" --out \"$out\" || rc=$?\n");
        b.append("""
                if [ -n "$stopped" ]; then
                    printf 'merge: shards %s of %s stopped early, so the results lack their remaining points; ' \\
                        "$stopped" "$shards" >&2
                    rerun "$stopped"
                    exit 3
                fi
                exit "$rc"
                """);
        return b.toString();
    }

    private StringBuilder header(String what, String jobName, String logPattern) {
        StringBuilder b = new StringBuilder("#!/bin/bash\n");
        b.append("# ").append(what).append('\n');
        b.append("# written by pagefabric slurm; the results go to ").append(ShellWords.quote(out.toString()))
                .append(" (index.html).\n");
        b.append("#SBATCH --job-name=").append(jobName).append('\n');
        b.append("#SBATCH --output=").append(ShellWords.directivePattern(logDir().toString(), logPattern)).append('\n');
        resources.forEach(r -> b.append("#SBATCH ").append(ShellWords.directive(r)).append('\n'));
        return b;
    }
}
