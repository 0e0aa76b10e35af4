package org.pagefabric.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.trace.Trace;
import org.pagefabric.workload.trace.TraceWorkload;

/**
 * A program nobody here wrote: Debian's LAMMPS on its Lennard-Jones melt example, 4 ranks, 100
 * steps, recorded and replayed. The replay performs exactly the MPI calls the interposer counted,
 * per rank and function, and every byte verifies. Skipped, saying why, without Open MPI or LAMMPS.
 */
class LammpsRecordTest {
    /** The melt input of Debian's lammps-examples. */
    static final Path MELT = Path.of("/usr/share/lammps/examples/melt/in.melt");

    @TempDir
    Path dir;

    /** The LAMMPS binary Debian installs, or {@code null}. */
    static String lammps() {
        for (String name : List.of("lmp", "lmp_mpi", "lmp_openmpi")) {
            if (Executables.find(name) != null) {
                return name;
            }
        }
        return null;
    }

    @Test
    void lammpsMeltIsRecordedAndEveryCallReplayed() throws Exception {
        assumeTrue(Executables.find("mpirun") != null && Executables.find("mpicc") != null,
                "Open MPI is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev); .ci/run installs it");
        String lmp = lammps();
        assumeTrue(lmp != null && Files.isRegularFile(MELT),
                "LAMMPS is not installed (Debian: apt-get install lammps lammps-examples); .ci/run installs it");
        Path input = dir.resolve("in.melt");
        Files.writeString(input, Files.readString(MELT).replaceAll("(?m)^run\\s+\\d+", "run 100"));
        Path out = dir.resolve("lammps.trace.jsonl");
        MpiRecorder.Result r = MpiRecorder.record(List.of("mpirun", "-n", "4", lmp, "-in", input.toString(), "-log",
                "none", "-screen", "none"), out, dir.resolve("cache"));
        assertEquals(4, r.ranks());
        Trace t = Trace.read(out);
        for (Map<String, Long> rank : t.header().mpiCalls()) {
            assertTrue(rank.getOrDefault("MPI_Send", 0L) > 100, "the halo exchange: " + rank);
            assertTrue(rank.getOrDefault("MPI_Allreduce", 0L) > 0, "the thermodynamic output: " + rank);
        }
        for (String policy : List.of("cache-hooks", "odp-explicit")) {
            Map<String, Object> row = PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                    Map.of(TraceWorkload.TRACE, out.toString()), 1);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(r.calls(), row.get(TraceWorkload.MPI_CALLS), policy);
            assertEquals(0L, row.get(TraceWorkload.CORRUPTED), policy);
        }
    }
}
