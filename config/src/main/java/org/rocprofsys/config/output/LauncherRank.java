package org.rocprofsys.config.output;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The rank a parallel launcher hands each process in its environment before MPI_Init runs: Open
 * MPI ({@code OMPI_COMM_WORLD_RANK}), PMIx ({@code PMIX_RANK}), MPICH's Hydra and other PMI
 * launchers ({@code PMI_RANK}) and Slurm ({@code srun}: {@code SLURM_PROCID}). Under
 * {@code mpirun -n 2 rocprof-sys-run -- ./app} each collector is such a process, so it knows its
 * rank from the start: the outputs are named {@code -<rank>} as upstream's are once its
 * MPI_Comm_rank wrapper has run.
 */
public final class LauncherRank {
    /** In the order asked: the MPI launchers' own before Slurm's, which an mpirun inside srun keeps. */
    static final List<String> RANK_VARIABLES = List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID");

    private LauncherRank() {}

    /** The first rank variable set to a number >= 0; empty outside a launcher. */
    public static OptionalInt of(Map<String, String> environment) {
        for (String name : RANK_VARIABLES) {
            String v = environment.get(name);
            if (v == null || v.isBlank()) {
                continue;
            }
            try {
                int rank = Integer.parseInt(v.strip());
                if (rank >= 0) {
                    return OptionalInt.of(rank);
                }
            } catch (NumberFormatException e) {
                // not a rank: the next variable may hold one
            }
        }
        return OptionalInt.empty();
    }
}
