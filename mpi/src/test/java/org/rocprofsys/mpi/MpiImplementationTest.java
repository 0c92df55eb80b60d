package org.rocprofsys.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MpiImplementationTest {
    @Test
    void theLinkedLibraryNamesTheImplementation() {
        assertEquals(
                Optional.of(MpiImplementation.OPEN_MPI),
                MpiImplementation.ofNeeded(List.of("libmpi.so.40", "libc.so.6")));
        assertEquals(
                Optional.of(MpiImplementation.MPICH),
                MpiImplementation.ofNeeded(List.of("libmpich.so.12", "libc.so.6")));
        // the MPICH ABI's other name (Intel MPI, MPICH's libmpi)
        assertEquals(Optional.of(MpiImplementation.MPICH), MpiImplementation.ofNeeded(List.of("libmpi.so.12")));
        assertEquals(Optional.empty(), MpiImplementation.ofNeeded(List.of("libm.so.6", "libc.so.6")));
    }

    @Test
    void aProgramWithoutMpiOrNoElfFileHasNone() {
        assertEquals(Optional.empty(), MpiImplementation.linkedBy(Path.of("/bin/sh")));
        assertEquals(Optional.empty(), MpiImplementation.linkedBy(Path.of("/etc/hostname")));
        assertEquals(Optional.empty(), MpiImplementation.linkedBy(Path.of("/nonexistent/program")));
    }
}
