package org.pagefabric.record;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One process's log as the interposer wrote it (the line kinds are listed at the top of pfrec.c).
 * Reading it scans the file once for what it says about the process (its world rank, whether it
 * finished, the interposer's tally, a call it refused) and keeps the few lines every rank's
 * transcription needs (communicators and windows made); the rest is read again, a line at a time,
 * by {@link #lines()}. A log is never held whole: a benchmark's runs to gigabytes.
 *
 * @param file      the log
 * @param rank      the world rank, or -1 if the process never returned from MPI_Init
 * @param size      the world size MPI_Init reported
 * @param finished  whether the process reached MPI_Finalize
 * @param tally     the interposer's own count of each MPI function it wrapped
 * @param refused   the call the process made that the replay cannot carry (the rank then aborted
 *                  the job), or {@code null}
 * @param structure the lines that made communicators and windows ({@code K}, {@code W}), as words,
 *                  continuation lines joined
 */
record RankLog(Path file, int rank, int size, boolean finished, Map<String, Long> tally, String refused,
        List<String[]> structure) {

    /** A log line that cannot be what the interposer writes: where, and what is wrong. */
    static final class Damaged extends Exception {
        private static final long serialVersionUID = 1L;

        Damaged(Path file, long line, String problem) {
            super(file.getFileName() + " line " + line + ": " + problem);
        }
    }

    /** Scans one log. */
    static RankLog read(Path file) throws IOException, Damaged {
        Map<String, Long> tally = new TreeMap<>();
        List<String[]> structure = new ArrayList<>();
        int rank = -1;
        int size = 0;
        boolean finished = false;
        String refused = null;
        try (Lines in = new Lines(file)) {
            String[] w;
            while ((w = in.next()) != null) {
                try {
                    switch (w[0]) {
                        case "I" -> {
                            rank = Integer.parseInt(w[2]);
                            size = Integer.parseInt(w[3]);
                        }
                        case "T" -> tally.put(w[1], Long.parseLong(w[2]));
                        case "Z" -> finished = true;
                        case "Y" -> refused = refused == null ? w[2] : refused;
                        case "K", "W" -> structure.add(w);
                        default -> { }
                    }
                } catch (RuntimeException e) {
                    // a killed process may leave half a line; its log is refused before it is merged
                    if (finished) {
                        throw new Damaged(file, in.line(), String.join(" ", w));
                    }
                }
            }
        }
        return new RankLog(file, rank, size, finished, tally, refused, structure);
    }

    /** The log's lines from the start, as words, continuation lines joined. */
    Lines lines() throws IOException {
        return new Lines(file);
    }

    /** A log read a line at a time. */
    static final class Lines implements Closeable {
        private final BufferedReader in;
        private String ahead;
        private long line;
        private long aheadLine;

        private Lines(Path file) throws IOException {
            in = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
            ahead = in.readLine();
            aheadLine = 1;
        }

        /** The next line's words, or {@code null} at the end. */
        String[] next() throws IOException {
            while (ahead != null && ahead.isEmpty()) {
                advance();
            }
            if (ahead == null) {
                return null;
            }
            String[] w = ahead.split(" ");
            line = aheadLine;
            advance();
            while (ahead != null && ahead.startsWith("+ ")) {
                String[] more = ahead.split(" ");
                String[] joined = new String[w.length + more.length - 1];
                System.arraycopy(w, 0, joined, 0, w.length);
                System.arraycopy(more, 1, joined, w.length, more.length - 1);
                w = joined;
                advance();
            }
            return w;
        }

        /** The number of the line {@link #next} returned last (its first, if continued). */
        long line() {
            return line;
        }

        private void advance() throws IOException {
            ahead = in.readLine();
            aheadLine++;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
