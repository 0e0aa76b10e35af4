package org.pagefabric.record;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One process's log as the interposer wrote it (the line kinds are listed at the top of pfrec.c):
 * its lines split into words, continuation lines joined, and what the first and last lines say
 * about the process (its world rank, whether it finished, the interposer's tally).
 *
 * @param file     the log
 * @param rank     the world rank, or -1 if the process never returned from MPI_Init
 * @param size     the world size MPI_Init reported
 * @param finished whether the process reached MPI_Finalize
 * @param lines    every line, as words
 * @param tally    the interposer's own count of each MPI function it wrapped
 */
record RankLog(Path file, int rank, int size, boolean finished, List<String[]> lines, Map<String, Long> tally) {

    /** Reads one log. */
    static RankLog read(Path file) throws IOException {
        List<String[]> lines = new ArrayList<>();
        Map<String, Long> tally = new TreeMap<>();
        int rank = -1;
        int size = 0;
        boolean finished = false;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String s;
            while ((s = in.readLine()) != null) {
                if (s.isEmpty()) {
                    continue;
                }
                String[] w = s.split(" ");
                if (w[0].equals("+") && !lines.isEmpty()) {
                    String[] prev = lines.removeLast();
                    String[] joined = new String[prev.length + w.length - 1];
                    System.arraycopy(prev, 0, joined, 0, prev.length);
                    System.arraycopy(w, 1, joined, prev.length, w.length - 1);
                    lines.add(joined);
                    continue;
                }
                switch (w[0]) {
                    case "I" -> {
                        rank = Integer.parseInt(w[2]);
                        size = Integer.parseInt(w[3]);
                    }
                    case "T" -> tally.put(w[1], Long.parseLong(w[2]));
                    case "Z" -> finished = true;
                    default -> { }
                }
                lines.add(w);
            }
        }
        return new RankLog(file, rank, size, finished, lines, tally);
    }
}
