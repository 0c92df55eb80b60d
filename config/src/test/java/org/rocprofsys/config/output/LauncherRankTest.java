package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LauncherRankTest {
    @Test
    void eachLaunchersVariableGivesTheRank() {
        assertEquals(OptionalInt.of(3), LauncherRank.of(Map.of("OMPI_COMM_WORLD_RANK", "3")));
        assertEquals(OptionalInt.of(2), LauncherRank.of(Map.of("PMIX_RANK", "2")));
        assertEquals(OptionalInt.of(1), LauncherRank.of(Map.of("PMI_RANK", "1")));
        assertEquals(OptionalInt.of(5), LauncherRank.of(Map.of("SLURM_PROCID", "5")));
        // an mpirun inside an srun allocation: the MPI launcher's rank, not the srun task's
        assertEquals(OptionalInt.of(1), LauncherRank.of(Map.of("SLURM_PROCID", "0", "PMI_RANK", "1")));
    }

    @Test
    void noLauncherOrNoNumberGivesNone() {
        assertEquals(OptionalInt.empty(), LauncherRank.of(Map.of()));
        assertEquals(OptionalInt.empty(), LauncherRank.of(Map.of("PMI_RANK", "x", "SLURM_PROCID", "-1")));
        assertEquals(OptionalInt.of(4), LauncherRank.of(Map.of("PMI_RANK", "x", "SLURM_PROCID", "4")));
    }
}
