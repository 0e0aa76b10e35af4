package org.pagefabric.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Slurm's {@code sbatch}, found on a {@code PATH} and run with {@code --parsable} to learn the job id. */
final class Sbatch {
    /** What {@code sbatch --parsable} prints: the job id, then {@code ;cluster} on a federation. */
    private static final Pattern PARSABLE = Pattern.compile("(\\d+)(;\\S+)?");

    private final Path program;
    private final Map<String, String> environment;

    private Sbatch(Path program, Map<String, String> environment) {
        this.program = program;
        this.environment = environment;
    }

    /**
     * The {@code sbatch} on {@code environment}'s {@code PATH}.
     *
     * @throws IllegalArgumentException in one line if there is none
     */
    static Sbatch onPath(Map<String, String> environment) {
        String path = environment.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, "sbatch");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return new Sbatch(p, environment);
            }
        }
        throw new IllegalArgumentException("--submit needs Slurm's sbatch, and there is none on PATH; run this on a"
                + " login node of the cluster, or leave out --submit and submit the written scripts yourself");
    }

    /**
     * Submits {@code script} with {@code options} before it and returns the job id.
     *
     * @throws IllegalStateException in one line with sbatch's own message if it refuses the job
     */
    String submit(List<String> options, Path script) throws IOException {
        List<String> command = new ArrayList<>(List.of(program.toString(), "--parsable"));
        command.addAll(options);
        command.add(script.toString());
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(environment);
        Process p = pb.start();
        // sbatch writes a line or two: reading one stream to its end cannot block on the other
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int code;
        try {
            code = p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroy();
            throw new IllegalStateException("interrupted while sbatch submitted " + script);
        }
        Matcher m = PARSABLE.matcher(out);
        if (code != 0 || !m.matches()) {
            String why = err.isEmpty() ? out : err;
            throw new IllegalStateException("sbatch refused " + script + " (exit " + code + "): "
                    + (why.isEmpty() ? "no message" : why.replace('\n', ' ')));
        }
        return m.group(1);
    }
}
