package org.pagefabric.record;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The communicators and windows of a recorded job, with ids every rank agrees on. Each process
 * numbered its communicators in the order it made them; the same communicator is the one made by
 * the same call on the same parent (the n-th creation on that parent) with the same members, so
 * its trace id is assigned to that triple. Windows are matched the same way: the n-th window made
 * on a communicator. World is 0, self 1.
 */
final class Communicators {
    /** A window as one rank made it: where it lay and the unit its displacements count in. */
    record Window(long base, long size, long unit) {
    }

    private final Map<String, Integer> global = new HashMap<>();
    /** Per rank, its own communicator ids to trace ids. */
    private final Map<Integer, Integer>[] local;
    /** Per rank, its own window ids to global window keys. */
    private final Map<Integer, String>[] windowKey;
    /** Per global window key, the window as each rank made it. */
    private final Map<String, Window[]> windows = new HashMap<>();
    private final Map<Integer, int[]> members = new HashMap<>();

    @SuppressWarnings("unchecked")
    Communicators(List<RankLog> logs) {
        int ranks = logs.size();
        local = new Map[ranks];
        windowKey = new Map[ranks];
        int[] world = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            world[r] = r;
        }
        members.put(0, world);
        global.put("world", 0);
        global.put("self", 1);
        for (RankLog log : logs) {
            int r = log.rank();
            local[r] = new HashMap<>(Map.of(0, 0, 1, 1));
            windowKey[r] = new HashMap<>();
            Map<Integer, Integer> made = new HashMap<>();
            for (String[] w : log.structure()) {
                if (w[0].equals("K")) {
                    int parent = trace(r, Integer.parseInt(w[4]));
                    int mine = Integer.parseInt(w[5]);
                    int n = Integer.parseInt(w[6]);
                    int seq = made.merge(parent, 1, Integer::sum);
                    if (mine < 0 || parent < 0) {
                        continue;
                    }
                    int[] m = new int[n];
                    for (int i = 0; i < n; i++) {
                        m[i] = Integer.parseInt(w[7 + i]);
                    }
                    String key = parent + "/" + seq + "/" + Arrays.toString(m);
                    int id = global.computeIfAbsent(key, k -> global.size());
                    members.put(id, m);
                    local[r].put(mine, id);
                } else if (w[0].equals("W")) {
                    int win = Integer.parseInt(w[4]);
                    int comm = trace(r, Integer.parseInt(w[5]));
                    int seq = made.merge(-1000 - comm, 1, Integer::sum);
                    String key = comm + "#" + seq;
                    windowKey[r].put(win, key);
                    windows.computeIfAbsent(key, k -> new Window[ranks])[r] = new Window(Long.parseUnsignedLong(w[6], 16),
                            Long.parseUnsignedLong(w[7], 16), Long.parseLong(w[8]));
                }
            }
        }
    }

    /** The trace id of rank {@code r}'s communicator {@code mine}, or -1 if it made none such. */
    int trace(int r, int mine) {
        Integer id = local[r].get(mine);
        return id == null ? -1 : id;
    }

    /** The world ranks of trace communicator {@code id}, or {@code null}. */
    int[] members(int id) {
        return members.get(id);
    }

    /** Rank {@code target}'s share of the window rank {@code r} calls {@code mine}, or {@code null}. */
    Window window(int r, int mine, int target) {
        String key = windowKey[r].get(mine);
        Window[] w = key == null ? null : windows.get(key);
        return w == null ? null : w[target];
    }

    /** The trace id of the communicator rank {@code r}'s window {@code mine} was made on, or -1. */
    int windowComm(int r, int mine) {
        String key = windowKey[r].get(mine);
        return key == null ? -1 : Integer.parseInt(key.substring(0, key.indexOf('#')));
    }

    /** The global key of rank {@code r}'s window {@code mine}, or {@code null}. */
    String windowKey(int r, int mine) {
        return windowKey[r].get(mine);
    }
}
